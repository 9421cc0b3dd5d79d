// The commands of the `zkpipe` program that live in its net module (libzkpipe_cli_net.so,
// host/cli/net/module.hpp): their summaries, declared once for the program, which lists them in
// `zkpipe --help` without loading the module, and for the front ends that define them (serve,
// the fleet's queue, the client), which register the same line with their commands.
#pragma once

namespace zkp::cli::net {

inline constexpr const char* kServeSummary =
    "serve the configured host over gRPC (unix socket; TCP with a bearer token, TLS optional)";
inline constexpr const char* kClientSummary =
    "talk to `zkpipe serve`: load, keys, prove, submit, await, cancel, status, health";
inline constexpr const char* kEnqueueSummary =
    "put a job (a key, one witness per partition) into the fleet's job store; prints its id";
inline constexpr const char* kJobsSummary =
    "the fleet's jobs and their partitions, from the job store; writes a job's proofs";
inline constexpr const char* kQueueSummary = "create or migrate the PostgreSQL job store of a fleet (docs/FLEET.md)";
inline constexpr const char* kWorkerSummary = "a host fed from the fleet's PostgreSQL job store (docs/FLEET.md)";

}  // namespace zkp::cli::net
