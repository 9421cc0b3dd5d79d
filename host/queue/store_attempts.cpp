// The attempts cap and the give-back of host-local failures (schema version 3; docs/FLEET.md,
// "Poison partitions"): Store's calls on zkpipe.give_up, the lease history, the store's
// default cap.
#include "store.hpp"

namespace zkp::queue {

bool Store::give_back(const std::string& worker, uint64_t lease_id, const std::string& why,
                      std::chrono::milliseconds avoid_for) {
  Transaction tx(c_);
  const uint64_t n =
      c_.exec(
            "WITH old AS ("
            "  SELECT job_id, idx, lease_id FROM zkpipe.partitions"
            "  WHERE state = 'leased' AND lease_worker = $1 AND lease_id = $2 FOR UPDATE),"
            " q AS ("
            "  UPDATE zkpipe.partitions p SET state = 'queued', lease_id = NULL, lease_worker = NULL, lease_expires = NULL,"
            "   lost_attempts = p.lost_attempts + 1, returned_by = $1,"
            "   returned_until = now() + $4 * interval '1 millisecond'"
            "  FROM old WHERE p.job_id = old.job_id AND p.idx = old.idx)"
            " UPDATE zkpipe.leases l SET ended_at = now(), outcome = 'returned', message = $3 FROM old WHERE l.id = old.lease_id",
            {Param::text(worker), Param::integer(static_cast<int64_t>(lease_id)), Param::text(why), Param::integer(avoid_for.count())})
          .affected();
  if (n > 0) {
    c_.exec("SELECT zkpipe.give_up()");  // this may have been its last attempt
    c_.exec("SELECT pg_notify($1, 'returned')", {Param::text(kWorkChannel)});
  }
  tx.commit();
  return n > 0;
}

uint64_t Store::give_up() { return static_cast<uint64_t>(c_.exec("SELECT zkpipe.give_up()").integer(0, 0)); }

std::vector<Attempt> Store::attempts(uint64_t job_id) {
  const Result r = c_.exec(
      "SELECT idx, id, worker, to_char(acquired_at, 'YYYY-MM-DD HH24:MI:SS.MS'),"
      " coalesce(to_char(ended_at, 'YYYY-MM-DD HH24:MI:SS.MS'), ''), coalesce(outcome, '')"
      " FROM zkpipe.leases WHERE job_id = $1 ORDER BY idx, id",
      {Param::integer(static_cast<int64_t>(job_id))});
  std::vector<Attempt> out;
  for (int i = 0; i < r.rows(); ++i) {
    Attempt a;
    a.index = static_cast<uint32_t>(r.integer(i, 0));
    a.lease_id = static_cast<uint64_t>(r.integer(i, 1));
    a.worker = r.text(i, 2);
    a.started = r.text(i, 3);
    a.ended = r.text(i, 4);
    a.outcome = r.text(i, 5);
    out.push_back(std::move(a));
  }
  return out;
}

int32_t Store::default_max_attempts() {
  return static_cast<int32_t>(c_.exec("SELECT value FROM zkpipe.settings WHERE name = 'max_attempts'").integer(0, 0));
}

void Store::set_default_max_attempts(int32_t n) {
  if (n <= 0) throw Error("max_attempts must be at least 1");
  c_.exec("UPDATE zkpipe.settings SET value = $1 WHERE name = 'max_attempts'", {Param::integer(n)});
}

}  // namespace zkp::queue
