// The net module's commands as the program registers them (net/module.hpp): name and summary
// for `zkpipe --help`; running one loads the module and runs it there.
#include "services/command/command.hpp"
#include "net/module.hpp"
#include "services/command/net_commands.hpp"

#include <string>
#include <vector>

namespace zkp::cli {

namespace {

// The module prints the command's own usage; this one is only for a usage error here (none).
#define ZKPIPE_NET_COMMAND(NAME, SUMMARY)                                 \
  int run_net_##NAME(const std::vector<std::string>& args) {              \
    return net::load_module().run(#NAME, args);                           \
  }                                                                       \
  ZKPIPE_COMMAND(NAME, SUMMARY, "zkpipe " #NAME " --help", run_net_##NAME)

#ifdef ZKPIPE_HAVE_SERVE
ZKPIPE_NET_COMMAND(serve, net::kServeSummary);
ZKPIPE_NET_COMMAND(client, net::kClientSummary);
#endif
#ifdef ZKPIPE_HAVE_QUEUE
ZKPIPE_NET_COMMAND(enqueue, net::kEnqueueSummary);
ZKPIPE_NET_COMMAND(jobs, net::kJobsSummary);
ZKPIPE_NET_COMMAND(queue, net::kQueueSummary);
ZKPIPE_NET_COMMAND(worker, net::kWorkerSummary);
#endif

}  // namespace

}  // namespace zkp::cli
