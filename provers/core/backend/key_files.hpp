// Reading what a key_load names: the zkey (from a path, or borrowed from the caller's buffer,
// which the ABI keeps valid until key_free), its point checks, and the optional r1cs every
// witness is checked against. Curve-independent; curve_key.hpp's load_key builds the typed key.
#pragma once

#include <zkpipe/zkp_prover.h>

#include <optional>
#include <string>

#include "core/ec/encoding.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/zkey.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::backend {

// The key options every backend shares (option names key_check and r1cs).
struct KeySettings {
  bool check_points = true;                  // key_check != none
  PointCheck point_check = PointCheck::on_curve;
  std::string r1cs_path;                     // empty: no r1cs check
  // Point checks of a bellperson parameter file's queries (option params_check): canonical
  // coordinates only ("none": the operator trusts the file), on_curve, or subgroup. on_curve by
  // default: the subgroup check is a scalar multiplication per point, measured at 12.4k G1
  // points/s per core (tests/bellperson's bench_bellperson_decode), about 11 core-hours for a
  // PoRep file's 460M points; on_curve runs at 2.6M/s. Filecoin checks its parameter files
  // by digest (parameters.json), which covers what the subgroup check would.
  PointCheck params_check = PointCheck::on_curve;
};

struct KeyFiles {
  Zkey zkey;
  std::optional<R1cs> r1cs;
};

// Parses the zkey of `source` (checking its points as configured, on `pool`) and the r1cs.
// Throws FormatError / IoError (translate_format_errors), or sdk::Error for a source with
// neither path nor data.
KeyFiles read_key_files(const zkp_key_source_t& source, const KeySettings& settings, ThreadPool& pool);

// The bytes of a key source: its file read (in pieces on `pool`, if given), or the caller's
// buffer borrowed (the ABI keeps it valid as long as the key format needs: zkp_key_source_t),
// named `buffer_name` in messages. ZKP_ERR_INVALID_ARGUMENT if the source has neither.
ByteSource key_bytes(const zkp_key_source_t& source, const char* buffer_name, ThreadPool* pool = nullptr);

// The circuit the settings name (option r1cs), if any.
std::optional<R1cs> settings_r1cs(const KeySettings& settings);

// "path/to/circuit.zkey" or "(buffer)", for log lines.
std::string source_name(const zkp_key_source_t& source);

}  // namespace zkp::backend
