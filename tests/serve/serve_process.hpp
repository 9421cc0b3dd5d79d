// `zkpipe serve` as a child process on a unix socket in a temporary folder, for the benchmarks
// of tests/serve (bench_serve, bench_soak): started with the given host overrides, connected
// to, and stopped with SIGTERM on destruction. The child gets SIGTERM too if the benchmark
// dies first (PR_SET_PDEATHSIG); its stderr goes to server.log in the folder, which an error
// at start quotes.
#pragma once

#include "zkpipe/v1/prover.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace zkp::test::serve {

// "[code] message" of a failed call, thrown as std::runtime_error naming `what`.
inline void check_call(const grpc::Status& s, const char* what) {
  if (!s.ok()) {
    throw std::runtime_error(std::string(what) + ": [" + std::to_string(static_cast<int>(s.error_code())) + "] " +
                             s.error_message());
  }
}

class ServeProcess {
 public:
  static constexpr int kMaxMessage = 64 << 20;
  static constexpr int kStartSeconds = 30;

  // Starts `zkpipe` (its path) as `zkpipe serve serve.socket=... OVERRIDES...`, waits until it
  // listens, and loads the key at `zkey_path` through LoadKey. Throws std::runtime_error.
  ServeProcess(const std::string& zkpipe, const std::vector<std::string>& overrides, const std::string& zkey_path) {
    char tmpl[] = "/tmp/zkpipe_serve_bench.XXXXXX";
    if (mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
    const std::string socket = dir_ + "/serve.sock";
    std::vector<std::string> args = {zkpipe, "serve", "serve.socket=" + socket};
    args.insert(args.end(), overrides.begin(), overrides.end());
    const std::string log = dir_ + "/server.log";
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd >= 0) dup2(fd, STDERR_FILENO);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    grpc::ChannelArguments channel_args;
    channel_args.SetMaxReceiveMessageSize(kMaxMessage);
    channel_args.SetMaxSendMessageSize(kMaxMessage);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kStartSeconds);
    while (!std::filesystem::exists(socket)) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        throw std::runtime_error("zkpipe serve exited at start: " + read_log());
      }
      if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("zkpipe serve did not listen: " + read_log());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    channel_ = grpc::CreateCustomChannel("unix:" + socket, grpc::InsecureChannelCredentials(), channel_args);
    if (!channel_->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(kStartSeconds))) {
      throw std::runtime_error("cannot connect to zkpipe serve on " + socket);
    }
    stub_ = zkpipe::v1::Prover::NewStub(channel_);
    zkpipe::v1::LoadKeyRequest request;
    request.set_path(zkey_path);
    zkpipe::v1::LoadKeyResponse response;
    grpc::ClientContext context;
    check_call(stub_->LoadKey(&context, request, &response), "LoadKey");
    key_id_ = response.key().key_id();
  }
  ~ServeProcess() {
    stub_.reset();
    channel_.reset();
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      waitpid(pid_, &status, 0);
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  zkpipe::v1::Prover::Stub& stub() { return *stub_; }
  uint64_t key_id() const { return key_id_; }
  pid_t pid() const { return pid_; }

 private:
  std::string read_log() const {
    std::ifstream in(dir_ + "/server.log", std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  std::string dir_;
  pid_t pid_ = -1;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<zkpipe::v1::Prover::Stub> stub_;
  uint64_t key_id_ = 0;
};

}  // namespace zkp::test::serve
