// The net module's one export (net/module.hpp): its commands, registered in this module's own
// registry by the files that define them (serve/serve_command.cpp, queue/worker_command.cpp, ...), and the runner
// of `zkpipe bench --socket/--address`.
#include "services/command/command.hpp"
#include "net/module.hpp"

#ifdef ZKPIPE_HAVE_SERVE
#include "serve_runner.hpp"
#include "connection.hpp"  // host/client
#include "services/bearer_token.hpp"
#endif

#include <zkpipe/sdk/error.hpp>

#include <string>
#include <utility>
#include <vector>

namespace zkp::cli::net {

namespace {

int run(const char* name, const std::vector<std::string>& args) {
  const Command* command = find_command(name);
  if (command == nullptr) {  // the program registers only what this build's module has
    throw sdk::Error(ZKP_ERR_INTERNAL, std::string("the net module has no command '") + name + "'");
  }
  return run_and_report(*command, args);
}

#ifdef ZKPIPE_HAVE_SERVE
// The connection and the runner over it, in the order they must be made and destroyed.
class ServedBench final : public bench::RemoteRunner {
 public:
  ServedBench(client::ConnectionSettings settings, std::chrono::seconds connect_timeout, const std::string& key_path,
              const std::string& witness_path, std::chrono::steady_clock::time_point origin)
      : connection_(std::move(settings)),
        runner_((connection_.connect(connect_timeout), connection_), key_path, witness_path, origin) {}

  bench::PointResult run(const bench::Point& point, const bench::Budget& budget, const bench::ProofTick& tick) override {
    return runner_.run(point, budget, tick);
  }
  const std::string& prover_name() const override { return runner_.prover_name(); }

 private:
  client::Connection connection_;
  bench::ServeRunner runner_;
};

std::unique_ptr<bench::RemoteRunner> open_bench_runner(const bench::RemoteTarget& target, const std::string& key_path,
                                                       const std::string& witness_path,
                                                       std::chrono::steady_clock::time_point origin) {
  client::ConnectionSettings settings{target.target, "", target.tls_ca_file, target.tls_server_name, std::nullopt};
  if (!target.token_file.empty()) {
    try {
      settings.token = services::read_token_file(target.token_file, "--token-file");
    } catch (const sdk::Error& e) {
      throw UsageError(e.what());
    }
  }
  return std::make_unique<ServedBench>(std::move(settings), target.connect_timeout, key_path, witness_path, origin);
}
#endif

constexpr Module kModule{sizeof(Module), ZKPIPE_VERSION, run,
#ifdef ZKPIPE_HAVE_SERVE
                         open_bench_runner
#else
                         nullptr
#endif
};

}  // namespace

}  // namespace zkp::cli::net

// The version script (net/module.map) exports this symbol alone.
extern "C" __attribute__((visibility("default"))) const zkp::cli::net::Module* zkp_cli_net_module() {
  return &zkp::cli::net::kModule;
}
