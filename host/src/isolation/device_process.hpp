// One device's zkpipe-device process, seen from the host (isolation = process, issue 17).
//
// It owns the process and a thread (the *keeper*) that starts it, reads its replies and hands
// each to the call waiting for it. When the process dies (a signal, an abort, an exit, or
// kill() from the partition watchdog) the keeper fails every call in flight with
// ZKP_ERR_DEVICE and a message that says how it died, then starts a new one after a backoff
// (kFirstBackoff, doubling to kMaxBackoff), creates its prover and loads again every key the
// host holds on it. Calls made meanwhile wait for that; after kMaxStartFailures starts in a
// row that fail, the device is given up and every call fails at once. The keeper also starts
// the first process, so PR_SET_PDEATHSIG (which follows the thread that forked) holds for as
// long as the DeviceProcess lives. A process whose prover reported ZKP_ERR_DEVICE_LOST exits
// with kExitDeviceLost after its reply (channel.hpp) and is restarted the same way. After each
// successful restart the keeper calls `on_back(device)`, holding none of its locks, so the host
// can take the device back into service.
//
// Thread safety: every public function may be called from any thread. Lock order: send_mu_ →
// mu_ → a Call's lock (kill() takes mu_ under the pipeline's scheduler lock); nothing is
// taken under a Call's lock.
#pragma once

#include "channel.hpp"

#include "status.hpp"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace zkp::host::isolation {

// How to start a device process: the same for every device of the host.
struct DeviceProcessSpec {
  std::string executable;      // zkpipe-device
  std::string plugin;          // the prover plugin's file
  std::vector<std::pair<std::string, std::string>> options;
  // How the host drives the prover: each process creates its prover with these, as the host
  // would in-process (create_with_facts). Every field at least 1, as zkp_prover.h asks.
  zkp_prover_facts_t facts{ZKP_HEADER_INIT(zkp_prover_facts_t), 1, 1, 1};
  bool synthesize_ahead = false;  // isolation_synthesis = ahead: synthesize_into, off the proving path
  int log_level = 2;           // spdlog::level::info
};

// A key as every process of the device must load it again after a restart.
struct KeyBytes {
  SharedMemory memory;  // the path (with its NUL) or the key's bytes
  zkp_key_format_t format = ZKP_KEY_FORMAT_ZKEY;
  bool is_path = false;
  uint64_t size = 0;    // bytes of the key (not the path)
};

class DeviceProcess {
 public:
  static constexpr auto kFirstBackoff = std::chrono::milliseconds(50);
  static constexpr auto kMaxBackoff = std::chrono::milliseconds(5000);
  static constexpr uint32_t kMaxStartFailures = 6;

  // Called by the keeper after a restart succeeded (never for the first start).
  using BackHook = std::function<void(uint32_t device)>;

  // Starts the process and creates its prover; throws zkp::sdk::Error with the reason if the
  // first start fails (no executable, the plugin's own error). `on_back` must stay callable
  // as long as the DeviceProcess lives.
  DeviceProcess(const DeviceProcessSpec& spec, uint32_t device, BackHook on_back);
  ~DeviceProcess();  // closes the socket, waits briefly for the process, then kills it
  DeviceProcess(const DeviceProcess&) = delete;
  DeviceProcess& operator=(const DeviceProcess&) = delete;

  // What the first process's create answered.
  uint32_t device_count() const { return device_count_; }
  uint32_t flags() const { return flags_; }
  const std::string& prover_name() const { return prover_name_; }

  // A request in flight: wait() returns its reply (a failed one if the process died).
  struct Call;
  std::shared_ptr<Call> send(Frame request, int fd = -1);
  static Frame wait(Call& call);
  Frame call(Frame request, int fd = -1) { return wait(*send(request, fd)); }

  // Loads a key on this device (and again after each restart); the reply holds key_info.
  Frame load_key(uint64_t key_id, std::shared_ptr<const KeyBytes> key);
  void free_key(uint64_t key_id);

  // Kills the process (SIGKILL): the watchdog declared a partition on it hung. Never blocks.
  void kill(const std::string& reason);
  uint64_t restarts() const;
  // Requests sent and not yet answered: how busy the process is (synthesis picks the least).
  size_t in_flight() const;
  // Serving now (not restarting, not given up).
  bool up() const;

 private:
  enum class State { starting, up, given_up, stopping };

  void keeper();
  // Spawns a process and, on this thread alone, creates its prover and loads the keys.
  Status start_process();
  Status handshake(const Frame& request, int fd, Frame& reply);
  // Collects the dead process and says how it died.
  std::string reap();
  void fail_in_flight(const std::string& message);

  const DeviceProcessSpec spec_;
  const uint32_t device_;
  const BackHook on_back_;
  std::thread keeper_;

  mutable std::mutex mu_;
  std::condition_variable state_cv_;
  State state_ = State::starting;
  Status first_start_;         // the first start's outcome, for the constructor
  bool first_done_ = false;
  std::string last_death_;     // how the last process ended
  std::string kill_reason_;    // set by kill(), for the death message
  uint64_t restarts_ = 0;
  uint64_t next_id_ = 1;
  uint64_t generation_ = 0;    // which process socket_ is; a call sends only to its own
  int pid_ = -1;
  UniqueFd socket_;            // replaced only by the keeper, while no call can send
  std::map<uint64_t, std::shared_ptr<Call>> in_flight_;
  std::map<uint64_t, std::shared_ptr<const KeyBytes>> keys_;  // what a restart loads again
  std::mutex send_mu_;

  bool started_once_ = false;  // the keeper's own
  uint32_t device_count_ = 0;
  uint32_t flags_ = 0;
  std::string prover_name_;
};

}  // namespace zkp::host::isolation
