// The commands that need the network or the database live in a module of their own,
// libzkpipe_cli_net.so, which the `zkpipe` program loads only when one of them runs: `serve`,
// `client`, `bench --socket/--address` (gRPC, protobuf, abseil, OpenSSL), `worker`, `enqueue`,
// `jobs` and `queue` (libpq, krb5). Linked into the program, those libraries cost every other
// command 17 MB of resident memory and their start-up time (`zkpipe --help`: 17.3 MB of RSS;
// docs/PERF.md, "CPU prover: peak memory, second pass"); `prove` needs none of them.
//
// The program knows each module command's name and summary (below) without loading the module,
// so `zkpipe --help` lists them as before; running one loads the module, which parses, runs
// and reports the command exactly as the program would (run_command, command.hpp), with its own
// usage and --help.
//
// C++ crosses this boundary (std::string, std::vector, std::unique_ptr, exceptions out of
// open_bench_runner): the module is built with the program, from the same tree by the same
// compiler, and installed beside it; `Module::size` and `version` refuse one from another build.
#pragma once

#include "bench/budget.hpp"
#include "bench/stats.hpp"
#include "bench/sweep.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace zkp::cli::bench {

// Where `zkpipe bench --socket/--address` finds its server, as given on the command line.
struct RemoteTarget {
  std::string target;           // "unix:PATH" or "HOST:PORT"
  std::string token_file;       // "": no bearer token
  std::string tls_ca_file;      // "": plaintext
  std::string tls_server_name;  // "": the target's host
  std::chrono::seconds connect_timeout{10};
};

// Sweep points run against a `zkpipe serve` (host/net/serve_runner.hpp, in the module).
class RemoteRunner {
 public:
  virtual ~RemoteRunner() = default;
  virtual PointResult run(const Point& point, const Budget& budget, const ProofTick& tick) = 0;
  virtual const std::string& prover_name() const = 0;
};

}  // namespace zkp::cli::bench

namespace zkp::cli::net {

inline constexpr const char* kModuleFile = "libzkpipe_cli_net.so";
// extern "C" const Module* zkp_cli_net_module(void): the module's one exported symbol.
inline constexpr const char* kEntrySymbol = "zkp_cli_net_module";

struct Module {
  std::size_t size;     // sizeof(Module) in the module's build
  const char* version;  // ZKPIPE_VERSION of the module's build
  // Runs the module's command `name` with the arguments after the name, printing its errors
  // as the program would (run_command); returns the exit code.
  int (*run)(const char* name, const std::vector<std::string>& args);
  // Connects (waiting up to target.connect_timeout) and loads the key on the server. Throws
  // UsageError for an unreadable token file, sdk::Error when no server answers or it refuses
  // the key. Null when the module is built without serve.
  std::unique_ptr<bench::RemoteRunner> (*open_bench_runner)(const bench::RemoteTarget& target, const std::string& key_path,
                                                            const std::string& witness_path,
                                                            std::chrono::steady_clock::time_point origin);
};

// The module beside the program (in the build tree's lib/, or the installed <libdir>), loaded
// on the first call and kept for the life of the process (it owns code that runs until exit:
// the runner's destructor, threads of gRPC). Throws sdk::Error naming the file and dlerror()
// when it cannot be loaded or is from another build. [program only]
const Module& load_module();

}  // namespace zkp::cli::net
