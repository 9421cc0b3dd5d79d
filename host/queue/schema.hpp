// The job store's schema, versioned: migrations numbered from 1, each applied once, in order,
// inside one transaction with the row that records it in zkpipe.schema_version, under an
// advisory lock so hosts that migrate at once take turns. Everything lives in the
// PostgreSQL schema `zkpipe`, so the store shares a database (Curio's, say) without
// touching its tables. docs/FLEET.md describes the tables.
#pragma once

#include "pg.hpp"

namespace zkp::queue {

// The version this zkpipe writes and reads.
int latest_schema_version();

// The database's version: 0 when the store was never initialised.
int schema_version(Connection& c);

// Applies every migration past the database's version; returns {from, to}. Throws
// SchemaError when the database is newer than this zkpipe (a downgrade is never guessed at).
struct Migrated {
  int from = 0;
  int to = 0;
};
Migrated migrate(Connection& c);

// The database's schema is not the version this zkpipe speaks (the message says what to run).
class SchemaError : public Error {
 public:
  using Error::Error;
};

// Throws SchemaError unless the database is at latest_schema_version() (what the worker,
// enqueue and jobs require before touching a table).
void require_current_schema(Connection& c);

}  // namespace zkp::queue
