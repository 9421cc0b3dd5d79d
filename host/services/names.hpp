// The names of curves and key formats, in one table for every front end (serve, the fleet
// worker and its C API, the client library, the CLI, the rapidsnark shim).
//
// A curve has two spellings, each fixed by a contract that already speaks it:
//   snarkjs's  "bn128", "bls12381": proof.json's "curve", and KeyInfo.curve on serve's wire
//              (prover.proto) and in the client library;
//   the fleet's "bn254", "bls12_381": jobs.curve and the workers' curves in the PostgreSQL
//              store (docs/FLEET.md), and zkp_queue.h's curve strings.
// Every reader accepts both; each writer writes the one its contract fixes. Key formats have
// one spelling: "zkey" and "bellperson".
#pragma once

#include <zkpipe/zkp_common.h>
#include <zkpipe/zkp_prover.h>  // zkp_key_format_t

#include <optional>
#include <span>
#include <string_view>

#include "core/formats/curve.hpp"

namespace zkp::services {

struct CurveName {
  zkp_curve_t abi;
  Curve curve;                 // the formats library's (snarkjs JSON, proof bytes)
  std::string_view snarkjs;    // "bn128"
  std::string_view fleet;      // "bn254"
};

// Every curve zkpipe proves on, in zkp_curve_t order.
std::span<const CurveName> curve_names();

// The row of `c`, nullptr for ZKP_CURVE_UNKNOWN or a value no row has.
const CurveName* find_curve(zkp_curve_t c);
// The curve either spelling names; nullopt for any other text (case matters).
std::optional<zkp_curve_t> curve_from_name(std::string_view name);
// The curve the fleet's spelling names: what the fleet's own flags (enqueue --curve, worker
// --curves) take, as the store compares them; nullopt for any other text, snarkjs's included.
std::optional<zkp_curve_t> curve_from_fleet_name(std::string_view name);
// The formats library's curve of `c`; nullopt where it has none (a simulated prover's).
std::optional<Curve> formats_curve(zkp_curve_t c);

// snarkjs's spelling; "unknown" for a curve no row has.
std::string_view snarkjs_curve_name(zkp_curve_t c);
// The fleet's spelling; "unknown" for a curve no row has.
std::string_view fleet_curve_name(zkp_curve_t c);
// "bn254 or bls12_381": what a flag taking the fleet's spelling accepts, for its messages.
std::string_view fleet_curve_choices();

// "zkey" or "bellperson"; nullopt for any other text.
std::optional<zkp_key_format_t> key_format_from_name(std::string_view name);
// The name of `f` ("zkey" for a value no name has: the ABI's default format).
std::string_view key_format_name(zkp_key_format_t f);
// "zkey or bellperson", for messages.
std::string_view key_format_choices();

}  // namespace zkp::services
