#include "isolation/device_process.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <utility>

namespace zkp::host::isolation {

using sdk::Error;

struct DeviceProcess::Call {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  Frame reply;

  void complete(const Frame& f) {
    {
      std::lock_guard lock(mu);
      if (done) return;
      reply = f;
      done = true;
    }
    cv.notify_all();
  }
};

namespace {

Frame failed(const Frame& request, zkp_status_t code, const std::string& message) {
  Frame f;
  f.op = request.op;
  f.id = request.id;
  f.status = code;
  f.set_text(message);
  return f;
}

// A key_load request for `key`, as a first load and each restart's load send it.
Frame key_load_request(uint64_t key_id, const KeyBytes& key) {
  Frame r;
  r.put(KeyLoadRequest{.key = key_id, .format = key.format, .is_path = key.is_path, .size = key.size});
  return r;
}

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = sigabbrev_np(sig);
    return "was killed by signal " + std::to_string(sig) + (name != nullptr ? std::string(" (SIG") + name + ")" : "");
  }
  if (WIFEXITED(status)) {
    if (WEXITSTATUS(status) == 127) return "could not be executed (exit status 127)";
    if (WEXITSTATUS(status) == kExitDeviceLost) {
      return "exited with status " + std::to_string(kExitDeviceLost) +
             " because its prover reported the device lost (ZKP_ERR_DEVICE_LOST: a sticky fault broke its context)";
    }
    return "exited with status " + std::to_string(WEXITSTATUS(status));
  }
  return "ended";
}

}  // namespace

DeviceProcess::DeviceProcess(const DeviceProcessSpec& spec, uint32_t device, BackHook on_back)
    : spec_(spec), device_(device), on_back_(std::move(on_back)) {
  if (::access(spec_.executable.c_str(), X_OK) != 0) {
    throw Error(ZKP_ERR_NOT_FOUND, "isolation = process: the device executable '" + spec_.executable +
                                       "' is missing or not executable (" + std::strerror(errno) +
                                       "); install zkpipe-device beside zkpipe or set isolation_executable");
  }
  keeper_ = std::thread([this] { keeper(); });
  std::unique_lock lock(mu_);
  state_cv_.wait(lock, [this] { return first_done_; });
  if (!first_start_.ok()) {
    lock.unlock();
    keeper_.join();
    throw Error(first_start_.code, first_start_.message);
  }
}

DeviceProcess::~DeviceProcess() {
  {
    std::lock_guard lock(mu_);
    state_ = State::stopping;
    // The process reads end of stream and exits; the keeper's read ends too.
    if (socket_) ::shutdown(socket_.get(), SHUT_RDWR);
  }
  state_cv_.notify_all();
  if (keeper_.joinable()) keeper_.join();
}

std::shared_ptr<DeviceProcess::Call> DeviceProcess::send(Frame request, int fd) {
  auto call = std::make_shared<Call>();
  uint64_t generation = 0;
  {
    std::unique_lock lock(mu_);
    state_cv_.wait(lock, [this] { return state_ != State::starting; });
    if (state_ != State::up) {
      call->complete(failed(request, ZKP_ERR_DEVICE,
                            "device " + std::to_string(device_) + ": its zkpipe-device process is gone (" +
                                (last_death_.empty() ? std::string("stopping") : last_death_) + ")"));
      return call;
    }
    request.id = next_id_++;
    in_flight_[request.id] = call;
    generation = generation_;
  }
  std::lock_guard send_lock(send_mu_);  // the socket is replaced only under send_mu_
  int socket = -1;
  {
    std::lock_guard lock(mu_);
    if (generation != generation_) return call;  // that process died: fail_in_flight answered the call
    socket = socket_.get();
  }
  if (!send_frame(socket, request, fd)) {
    // The process is dying; the keeper fails the call with how it died, unless it already did.
    std::lock_guard lock(mu_);
    if (state_ == State::stopping && in_flight_.erase(request.id) != 0) {
      call->complete(failed(request, ZKP_ERR_DEVICE, "device " + std::to_string(device_) + ": stopping"));
    }
  }
  return call;
}

Frame DeviceProcess::wait(Call& call) {
  std::unique_lock lock(call.mu);
  call.cv.wait(lock, [&] { return call.done; });
  return call.reply;
}

Frame DeviceProcess::load_key(uint64_t key_id, std::shared_ptr<const KeyBytes> key) {
  {
    std::lock_guard lock(mu_);
    keys_[key_id] = key;  // first, so a restart meanwhile loads it too
  }
  Frame reply = call(key_load_request(key_id, *key), key->memory.fd());
  if (reply.status != ZKP_OK) {
    std::lock_guard lock(mu_);
    keys_.erase(key_id);
  }
  return reply;
}

void DeviceProcess::free_key(uint64_t key_id) {
  {
    std::lock_guard lock(mu_);
    if (keys_.erase(key_id) == 0) return;
  }
  Frame r;
  r.put(KeyFreeRequest{.key = key_id});
  call(r);  // a process that died meanwhile has no key to free
}

void DeviceProcess::kill(const std::string& reason) {
  std::lock_guard lock(mu_);
  if (state_ != State::up || pid_ <= 0) return;
  kill_reason_ = reason;
  log().error("device {}: killing its zkpipe-device process (pid {}): {}", device_, pid_, reason);
  ::kill(pid_, SIGKILL);
}

bool DeviceProcess::up() const {
  std::lock_guard lock(mu_);
  return state_ == State::up;
}

size_t DeviceProcess::in_flight() const {
  std::lock_guard lock(mu_);
  return in_flight_.size();
}

uint64_t DeviceProcess::restarts() const {
  std::lock_guard lock(mu_);
  return restarts_;
}

Status DeviceProcess::handshake(const Frame& request, int fd, Frame& reply) {
  if (!send_frame(socket_.get(), request, fd)) return {ZKP_ERR_DEVICE, "the process closed its socket"};
  UniqueFd ignored;
  do {
    if (!recv_frame(socket_.get(), reply, ignored)) return {ZKP_ERR_DEVICE, "the process closed its socket"};
  } while (reply.id != request.id);
  if (reply.status != ZKP_OK) return {static_cast<zkp_status_t>(reply.status), reply.text};
  return {};
}

Status DeviceProcess::start_process() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
    return {ZKP_ERR_INTERNAL, std::string("socketpair: ") + std::strerror(errno)};
  }
  UniqueFd mine(sv[0]), theirs(sv[1]);
  // Everything the child needs is built before fork: after it, only async-signal-safe calls.
  const std::string fd_text = std::to_string(theirs.get());
  std::vector<char*> argv{const_cast<char*>(spec_.executable.c_str()), const_cast<char*>("--socket"),
                          const_cast<char*>(fd_text.c_str()), nullptr};
  const pid_t pid = ::fork();
  if (pid < 0) return {ZKP_ERR_INTERNAL, std::string("fork: ") + std::strerror(errno)};
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::fcntl(theirs.get(), F_SETFD, 0);  // the one descriptor the child keeps across exec
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  theirs.reset();
  {
    std::lock_guard send_lock(send_mu_);
    std::lock_guard lock(mu_);
    ++generation_;
    socket_ = std::move(mine);
    pid_ = pid;
  }

  std::string spec_bytes = spec_.plugin;
  spec_bytes.push_back('\0');
  for (const auto& [key, value] : spec_.options) {
    spec_bytes += key;
    spec_bytes.push_back('\0');
    spec_bytes += value;
    spec_bytes.push_back('\0');
  }
  SharedMemory spec = SharedMemory::create(spec_bytes.size(), "zkpipe-device-create");
  std::memcpy(spec.data(), spec_bytes.data(), spec_bytes.size());
  Frame create;
  create.put(CreateRequest{.device = device_, .log_level = spec_.log_level, .facts = spec_.facts});
  create.id = 1;
  Frame reply;
  if (Status s = handshake(create, spec.fd(), reply); !s.ok()) return s;
  if (!started_once_) {  // read by other threads once the constructor returned: written once
    const CreateReply created = reply.get<CreateReply>();
    device_count_ = created.device_count;
    flags_ = created.flags;
    prover_name_ = reply.text;
    started_once_ = true;
  }

  std::map<uint64_t, std::shared_ptr<const KeyBytes>> keys;
  {
    std::lock_guard lock(mu_);
    keys = keys_;
  }
  uint64_t id = 2;
  for (const auto& [key_id, key] : keys) {
    Frame r = key_load_request(key_id, *key);
    r.id = id++;
    if (Status s = handshake(r, key->memory.fd(), reply); !s.ok()) {
      return {s.code, "loading key " + std::to_string(key_id) + " again: " + s.message};
    }
  }
  {
    std::lock_guard lock(mu_);
    next_id_ = std::max(next_id_, id);
  }
  return {};
}

std::string DeviceProcess::reap() {
  pid_t pid;
  {
    std::lock_guard lock(mu_);
    pid = pid_;
  }
  if (pid <= 0) return "was not running";
  // A process whose socket closed is dead or exiting; one that keeps running after the host
  // closed its end (a hung prover call) is killed after a grace period.
  int status = 0;
  pid_t got = 0;
  for (int i = 0; i < 200 && (got = ::waitpid(pid, &status, WNOHANG)) == 0; ++i) ::usleep(10'000);
  if (got == 0) {
    ::kill(pid, SIGKILL);
    got = ::waitpid(pid, &status, 0);
  }
  {
    std::lock_guard lock(mu_);
    pid_ = -1;
  }
  return got == pid ? describe_exit(status) : "could not be waited for";
}

void DeviceProcess::fail_in_flight(const std::string& message) {
  std::map<uint64_t, std::shared_ptr<Call>> calls;
  {
    std::lock_guard lock(mu_);
    calls.swap(in_flight_);
  }
  for (auto& [id, call] : calls) {
    Frame f;
    f.id = id;
    f.status = ZKP_ERR_DEVICE;
    f.set_text(message);
    call->complete(f);
  }
}

void DeviceProcess::keeper() {
  auto backoff = std::chrono::milliseconds(kFirstBackoff);
  uint32_t failures = 0;
  bool first = true;
  auto stopping = [this] { return state_ == State::stopping; };
  for (;;) {
    Status started;
    try {
      started = start_process();
    } catch (const std::exception& e) {
      started = {ZKP_ERR_INTERNAL, e.what()};
    }
    if (!started.ok()) {
      {
        std::lock_guard lock(mu_);
        if (socket_) ::shutdown(socket_.get(), SHUT_RDWR);
      }
      const std::string how = reap();
      const std::string message = "device " + std::to_string(device_) + ": zkpipe-device (" + spec_.executable +
                                  ") did not start: " + started.message + " (the process " + how + ")";
      std::unique_lock lock(mu_);
      if (first) {
        first_start_ = {started.code, message};
        first_done_ = true;
        state_ = State::given_up;
        state_cv_.notify_all();
        return;
      }
      if (++failures >= kMaxStartFailures || stopping()) {
        if (!stopping()) {
          state_ = State::given_up;
          last_death_ = message + "; given up after " + std::to_string(failures) + " failed restarts";
          log().error("{}", last_death_);
        }
        state_cv_.notify_all();
        return;
      }
      log().error("{}; restart {} of {} in {} ms", message, failures + 1, kMaxStartFailures, backoff.count());
      state_cv_.wait_for(lock, backoff, stopping);
      backoff = std::min(backoff * 2, std::chrono::milliseconds(kMaxBackoff));
      continue;
    }
    const auto up_since = std::chrono::steady_clock::now();
    pid_t pid;
    const bool restarted = !first;
    {
      std::lock_guard lock(mu_);
      pid = pid_;
      if (first) {
        first_start_ = {};
        first_done_ = true;
      } else {
        log().warn("device {}: zkpipe-device restarted (pid {}, restart {}), {} key(s) loaded again; the device is "
                   "back in service",
                   device_, pid, restarts_, keys_.size());
      }
      if (!stopping()) state_ = State::up;
      failures = 0;
      first = false;
    }
    state_cv_.notify_all();
    if (restarted && on_back_) on_back_(device_);  // outside mu_: the host takes its own locks

    for (;;) {  // replies, until the process goes
      Frame f;
      UniqueFd fd;
      if (!recv_frame(socket_.get(), f, fd)) break;
      std::shared_ptr<Call> call;
      {
        std::lock_guard lock(mu_);
        auto it = in_flight_.find(f.id);
        if (it == in_flight_.end()) continue;  // a call failed already (send to a dying process)
        call = std::move(it->second);
        in_flight_.erase(it);
      }
      call->complete(f);
    }

    std::string reason;
    bool stop;
    {
      std::lock_guard lock(mu_);
      stop = stopping();
      if (!stop) state_ = State::starting;
      reason = std::exchange(kill_reason_, {});
    }
    if (stop) {
      reap();
      fail_in_flight("device " + std::to_string(device_) + ": the host is stopping");
      return;
    }
    const std::string message = "device " + std::to_string(device_) + ": its zkpipe-device process (pid " +
                                std::to_string(pid) + ") " + reap() + (reason.empty() ? "" : ", " + reason) +
                                ", with its partitions in flight";
    fail_in_flight(message);
    // A process that served a while earns a fresh backoff; one that dies at once waits longer each time.
    if (std::chrono::steady_clock::now() - up_since > 2 * kMaxBackoff) backoff = kFirstBackoff;
    std::unique_lock lock(mu_);
    ++restarts_;
    last_death_ = message;
    log().error("{}; restarting it in {} ms", message, backoff.count());
    state_cv_.wait_for(lock, backoff, stopping);
    backoff = std::min(backoff * 2, std::chrono::milliseconds(kMaxBackoff));
    if (stopping()) {
      state_cv_.notify_all();
      return;
    }
  }
}

}  // namespace zkp::host::isolation
