// zkpipe_serve_client: a small client of `zkpipe serve` (zkpipe.v1.Prover), for the tests and
// the README's example.
//
//   zkpipe_serve_client ADDRESS [--token-file F] prove ZKEY WTNS PROOF_JSON PUBLIC_JSON
//   zkpipe_serve_client ADDRESS [--token-file F] health
//   zkpipe_serve_client ADDRESS selftest VECTOR_DIR OUT_DIR
//
// ADDRESS is unix:PATH or HOST:PORT. prove loads the key (warm if the server has it) and writes
// the proof as snarkjs does. selftest runs the checks of tests/serve/serve.sh against a server
// with the cpu prover, one line per check, and writes the proofs it got to OUT_DIR for `zkpipe
// verify`. Exit 0 when everything passed; 1 otherwise (the gRPC status is printed).
#include "zkpipe/v1/prover.grpc.pb.h"
#include "client_support.hpp"

#include <grpcpp/grpcpp.h>

#include "core/formats/groth16_json.hpp"
#include "core/formats/mapped_file.hpp"
#include "core/formats/wtns.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace v1 = zkpipe::v1;

namespace {

constexpr int kMaxMessage = 256 << 20;
constexpr int kConnectSeconds = 20;
constexpr int kConcurrentClients = 8;
constexpr uint32_t kCancelPartitions = 128;  // enough that some are still queued when Cancel lands
constexpr uint32_t kAbandoned = 32;         // partitions of a job whose client goes away
constexpr uint32_t kZkpCancelled = 9;        // ZKP_ERR_CANCELLED
constexpr uint32_t kSelfChecked = 2;         // ZKP_COMPLETION_SELF_CHECKED

using zkp::test::serve::describe;
using zkp::test::serve::read_file;
using zkp::test::serve::write_file;

class Client {
 public:
  Client(const std::string& address, std::string token) : address_(address), token_(std::move(token)) {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(kMaxMessage);
    args.SetMaxSendMessageSize(kMaxMessage);
    channel_ = grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
    stub_ = v1::Prover::NewStub(channel_);
  }

  bool connect() {
    return channel_->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(kConnectSeconds));
  }

  // A context with the bearer token (when there is one) for one call.
  std::unique_ptr<grpc::ClientContext> context() const {
    auto c = std::make_unique<grpc::ClientContext>();
    if (!token_.empty()) c->AddMetadata("authorization", "Bearer " + token_);
    return c;
  }
  v1::Prover::Stub& stub() { return *stub_; }
  // Another client of the same server, on a channel of its own.
  std::unique_ptr<Client> another() const { return std::make_unique<Client>(address_, token_); }

  grpc::Status load_key(const std::string& path, v1::LoadKeyResponse* out) {
    v1::LoadKeyRequest request;
    request.set_path(path);
    return stub_->LoadKey(context().get(), request, out);
  }
  grpc::Status prove(uint64_t key_id, const std::vector<std::string>& witnesses, v1::ProveResponse* out) {
    v1::JobRequest request = job(key_id, witnesses);
    return stub_->Prove(context().get(), request, out);
  }
  grpc::Status submit(uint64_t key_id, const std::vector<std::string>& witnesses, uint64_t* job_id, int32_t priority = 0) {
    v1::JobRequest request = job(key_id, witnesses);
    request.set_priority(priority);
    v1::SubmitResponse response;
    grpc::Status s = stub_->Submit(context().get(), request, &response);
    *job_id = response.job_id();
    return s;
  }
  grpc::Status await(uint64_t job_id, std::vector<v1::PartitionResult>* out) {
    v1::AwaitRequest request;
    request.set_job_id(job_id);
    auto c = context();
    auto reader = stub_->Await(c.get(), request);
    for (v1::PartitionResult r; reader->Read(&r);) out->push_back(r);
    return reader->Finish();
  }
  grpc::Status simple_unload(uint64_t key_id) {
    v1::UnloadKeyRequest request;
    request.set_key_id(key_id);
    v1::UnloadKeyResponse response;
    return stub_->UnloadKey(context().get(), request, &response);
  }
  grpc::Status cancel(uint64_t job_id) {
    v1::CancelRequest request;
    request.set_job_id(job_id);
    v1::CancelResponse response;
    return stub_->Cancel(context().get(), request, &response);
  }
  grpc::Status health(v1::HealthResponse* out) { return stub_->Health(context().get(), v1::HealthRequest(), out); }

 private:
  static v1::JobRequest job(uint64_t key_id, const std::vector<std::string>& witnesses) {
    v1::JobRequest request;
    request.set_key_id(key_id);
    request.set_gpu_index(-1);
    for (const std::string& w : witnesses) request.add_witnesses(w);
    return request;
  }

  std::string address_;
  std::string token_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Prover::Stub> stub_;
};

int cmd_prove(Client& client, const std::vector<std::string>& a) {
  if (a.size() != 4) throw std::runtime_error("prove ZKEY WTNS PROOF_JSON PUBLIC_JSON");
  v1::LoadKeyResponse key;
  if (grpc::Status s = client.load_key(a[0], &key); !s.ok()) {
    std::cerr << "LoadKey: " << describe(s) << "\n";
    return 1;
  }
  v1::ProveResponse proof;
  if (grpc::Status s = client.prove(key.key().key_id(), {read_file(a[1])}, &proof); !s.ok()) {
    std::cerr << "Prove: " << describe(s) << "\n";
    return 1;
  }
  const v1::PartitionResult& r = proof.partitions(0);
  write_file(a[2], r.proof_json());
  write_file(a[3], r.public_json());
  std::fprintf(stderr, "zkpipe_serve_client: key %llu%s, job %llu: proved on device %d in %.1f ms (total %.1f ms)\n",
               static_cast<unsigned long long>(key.key().key_id()), key.already_loaded() ? " (warm)" : "",
               static_cast<unsigned long long>(proof.job_id()), r.gpu_index(), static_cast<double>(r.gpu_duration_ns()) / 1e6,
               static_cast<double>(r.total_ns()) / 1e6);
  return 0;
}

int cmd_health(Client& client) {
  v1::HealthResponse h;
  const grpc::Status s = client.health(&h);
  if (!s.ok()) {
    std::cout << "Health: " << describe(s) << "\n";
    return 1;
  }
  std::cout << "serving " << (h.serving() ? "yes" : "no") << ", version " << h.version() << "\n";
  return h.serving() ? 0 : 1;
}

// The selftest's tally: one line per check.
struct Checks {
  std::atomic<int> passed{0}, failed{0};
  void expect(bool ok, const std::string& what) {
    std::printf("%s  %s\n", ok ? "ok  " : "FAIL", what.c_str());
    std::fflush(stdout);
    (ok ? passed : failed)++;
  }
};

int cmd_selftest(Client& client, const std::vector<std::string>& a) {
  if (a.size() != 2) throw std::runtime_error("selftest VECTOR_DIR OUT_DIR");
  const std::string dir = a[0], out = a[1];
  const std::string zkey = dir + "/circuit.zkey";
  const std::string witness = read_file(dir + "/witness.wtns");
  // What public.json must hold: the witness's public signals, w[1..n_public].
  auto expected_public = [&](uint32_t n_public) {
    const zkp::Wtns w = zkp::read_wtns(zkp::ByteSource::from_file(dir + "/witness.wtns"));
    return zkp::write_public_json(zkp::public_signals(w, n_public));
  };
  Checks c;

  v1::HealthResponse health;
  const bool healthy = client.health(&health).ok() && health.serving();
  c.expect(healthy, "Health: serving, version " + health.version());

  v1::LoadKeyResponse k1, k2;
  grpc::Status s = client.load_key(zkey, &k1);
  c.expect(s.ok() && k1.key().key_id() != 0 && !k1.already_loaded(), "LoadKey: key " + std::to_string(k1.key().key_id()) + " " + describe(s));
  s = client.load_key(zkey, &k2);
  c.expect(s.ok() && k2.key().key_id() == k1.key().key_id() && k2.already_loaded(), "LoadKey again: the same id, warm");
  const uint64_t key = k1.key().key_id();
  const std::string want_public = expected_public(k1.key().n_public());
  {
    v1::ListKeysResponse list;
    s = client.stub().ListKeys(client.context().get(), v1::ListKeysRequest(), &list);
    c.expect(s.ok() && list.keys_size() == 1 && list.keys(0).key_id() == key && list.keys(0).curve() == "bn128",
             "ListKeys: the one key, bn128");
  }

  v1::ProveResponse proof;
  s = client.prove(key, {witness}, &proof);
  bool fields = s.ok() && proof.partitions_size() == 1;
  if (fields) {
    const v1::PartitionResult& r = proof.partitions(0);
    fields = r.status() == 0 && r.status_name() == "ok" && r.job_id() == proof.job_id() && r.partition() == 0 &&
             r.gpu_index() == 0 && r.total_ns() > 0 && r.gpu_duration_ns() > 0 && r.total_ns() >= r.synthesis_ns() &&
             (r.flags() & kSelfChecked) != 0 && r.curve() == "bn128" && !r.proof().empty() &&
             r.public_inputs().size() == 32u * k1.key().n_public() && !r.proof_json().empty();
    c.expect(r.public_json() == want_public, "Prove: public signals equal the witness's");
    write_file(out + "/proof.json", r.proof_json());
    write_file(out + "/public.json", r.public_json());
  }
  c.expect(fields, "Prove: every completion field set " + describe(s));

  {
    std::vector<std::unique_ptr<Client>> clients;
    for (int t = 0; t < kConcurrentClients; ++t) clients.push_back(client.another());
    std::vector<std::thread> threads;
    std::atomic<int> good{0};
    for (int t = 0; t < kConcurrentClients; ++t) {
      threads.emplace_back([&, t] {
        v1::ProveResponse p;
        const grpc::Status st = clients[static_cast<size_t>(t)]->prove(key, {witness}, &p);
        if (!st.ok()) {
          std::printf("      client %d: %s\n", t, describe(st).c_str());
          return;
        }
        write_file(out + "/proof_" + std::to_string(t) + ".json", p.partitions(0).proof_json());
        write_file(out + "/public_" + std::to_string(t) + ".json", p.partitions(0).public_json());
        if (p.partitions(0).public_json() == want_public) ++good;
      });
    }
    for (auto& t : threads) t.join();
    c.expect(good == kConcurrentClients, std::to_string(kConcurrentClients) + " Prove calls from as many clients (threads, channels) at once: " +
                                              std::to_string(good.load()) + " proved");
  }

  {
    uint64_t job = 0;
    s = client.submit(key, {witness, witness, witness}, &job);
    std::vector<v1::PartitionResult> results;
    const grpc::Status a1 = client.await(job, &results);
    std::set<uint32_t> parts;
    bool all_ok = true;
    for (const auto& r : results) {
      parts.insert(r.partition());
      all_ok = all_ok && r.status() == 0 && r.job_id() == job && r.public_json() == want_public;
    }
    c.expect(s.ok() && job != 0 && a1.ok() && results.size() == 3 && parts.size() == 3 && all_ok,
             "Submit + Await: job " + std::to_string(job) + ", 3 partitions streamed " + describe(a1));
    std::vector<v1::PartitionResult> again;
    c.expect(client.await(job, &again).ok() && again.size() == 3, "Await of a finished job: its 3 results again");
  }

  {
    uint64_t job = 0;
    s = client.submit(key, std::vector<std::string>(kCancelPartitions, witness), &job);
    const grpc::Status cs = client.cancel(job);
    std::vector<v1::PartitionResult> results;
    const grpc::Status as = client.await(job, &results);
    uint32_t cancelled = 0;
    for (const auto& r : results) cancelled += r.status() == static_cast<int32_t>(kZkpCancelled);
    c.expect(s.ok() && cs.ok() && as.ok() && results.size() == kCancelPartitions && cancelled > 0,
             "Cancel of a queued job: " + std::to_string(cancelled) + " of " + std::to_string(kCancelPartitions) +
                 " partitions cancelled " + describe(cs));
    c.expect(client.cancel(job).error_code() == grpc::StatusCode::NOT_FOUND, "Cancel of a finished job: NOT_FOUND");
    c.expect(client.cancel(987654321).error_code() == grpc::StatusCode::NOT_FOUND, "Cancel of an unknown job: NOT_FOUND");
  }

  {
    uint64_t job = 0;
    s = client.submit(key, std::vector<std::string>(kCancelPartitions, witness), &job);
    const grpc::Status busy = client.simple_unload(key);
    c.expect(busy.error_code() == grpc::StatusCode::FAILED_PRECONDITION,
             "UnloadKey while a job uses the key: FAILED_PRECONDITION " + describe(busy));
    client.cancel(job);
    std::vector<v1::PartitionResult> results;
    client.await(job, &results);
    const grpc::Status unloaded = client.simple_unload(key);
    c.expect(unloaded.ok(), "UnloadKey once the job ended " + describe(unloaded));
    v1::ListKeysResponse list;
    client.stub().ListKeys(client.context().get(), v1::ListKeysRequest(), &list);
    c.expect(list.keys_size() == 0, "ListKeys after UnloadKey: none");
    v1::ProveResponse p;
    const grpc::Status gone = client.prove(key, {witness}, &p);
    c.expect(gone.error_code() == grpc::StatusCode::NOT_FOUND, "Prove with the unloaded key's id: NOT_FOUND " + describe(gone));
    c.expect(client.simple_unload(key).error_code() == grpc::StatusCode::NOT_FOUND, "UnloadKey again: NOT_FOUND");
  }

  v1::LoadKeyResponse k3;
  s = client.load_key(zkey, &k3);
  c.expect(s.ok() && !k3.already_loaded() && k3.key().key_id() != key, "LoadKey after UnloadKey: a new id, loaded anew");
  const uint64_t fresh = k3.key().key_id();
  {
    // A client that goes away cancels nothing: an Await and a Prove cancelled by their client
    // mid-job, and every partition of both jobs still proved.
    v1::StatusResponse before;
    client.stub().Status(client.context().get(), v1::StatusRequest(), &before);
    uint64_t job = 0;
    s = client.submit(fresh, std::vector<std::string>(kAbandoned, witness), &job);
    v1::AwaitRequest request;
    request.set_job_id(job);
    {  // the stream is cancelled after its first result
      auto context = client.context();
      auto reader = client.stub().Await(context.get(), request);
      v1::PartitionResult first;
      reader->Read(&first);
      context->TryCancel();
      while (reader->Read(&first)) {
      }
      reader->Finish();
    }
    v1::JobRequest prove;
    prove.set_key_id(fresh);
    prove.set_gpu_index(-1);
    for (uint32_t i = 0; i < kAbandoned; ++i) prove.add_witnesses(witness);
    grpc::Status gave_up;
    {  // the call is cancelled by its client once the server has submitted its job
      auto context = client.context();
      std::thread caller([&] {
        v1::ProveResponse ignored;
        gave_up = client.stub().Prove(context.get(), prove, &ignored);
      });
      for (int i = 0; i < 900; ++i) {  // up to 90 s (sanitized builds are slow)
        v1::StatusResponse now;
        client.stub().Status(client.context().get(), v1::StatusRequest(), &now);
        if (now.stats().jobs_submitted() == before.stats().jobs_submitted() + 2) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      context->TryCancel();
      caller.join();
    }
    std::vector<v1::PartitionResult> results;
    const grpc::Status later = client.await(job, &results);
    bool all_ok = results.size() == kAbandoned;
    for (const auto& r : results) all_ok = all_ok && r.status() == 0;
    v1::StatusResponse after;
    for (int i = 0; i < 900; ++i) {  // the abandoned Prove's job, up to 90 s (sanitized builds are slow)
      client.stub().Status(client.context().get(), v1::StatusRequest(), &after);
      if (after.jobs_open() == 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    c.expect(s.ok() && later.ok() && all_ok, "Await cancelled by its client after one result: the job went on, its " + std::to_string(kAbandoned) + " partitions proved");
    // A fast machine may prove the job before the cancel lands: then there was nothing to abandon.
    c.expect((gave_up.ok() || gave_up.error_code() == grpc::StatusCode::CANCELLED) && after.jobs_open() == 0 &&
                 after.stats().partitions_failed() == before.stats().partitions_failed() &&
                 after.stats().partitions_succeeded() == before.stats().partitions_succeeded() + 2 * kAbandoned,
             "Prove cancelled by its client " + describe(gave_up) + ": its job went on, all " + std::to_string(2 * kAbandoned) + " partitions of both proved, none failed (" +
                 std::to_string(after.stats().partitions_succeeded() - before.stats().partitions_succeeded()) + " proved, " +
                 std::to_string(after.stats().partitions_failed() - before.stats().partitions_failed()) + " failed, " +
                 std::to_string(after.jobs_open()) + " job(s) open)");
  }

  {
    v1::ProveResponse p;
    const grpc::Status bad = client.prove(k3.key().key_id(), {"not a witness file"}, &p);
    c.expect(bad.error_code() == grpc::StatusCode::INVALID_ARGUMENT, "Prove with a malformed witness: INVALID_ARGUMENT " + describe(bad));
    const grpc::Status cut = client.prove(k3.key().key_id(), {witness.substr(0, witness.size() / 2)}, &p);
    c.expect(cut.error_code() == grpc::StatusCode::INVALID_ARGUMENT, "Prove with a truncated witness: INVALID_ARGUMENT " + describe(cut));
    v1::ProveResponse good;
    s = client.prove(k3.key().key_id(), {witness}, &good);
    c.expect(s.ok() && good.partitions(0).public_json() == want_public, "Prove after those: served " + describe(s));
    v1::LoadKeyResponse missing;
    c.expect(client.load_key(dir + "/no_such.zkey", &missing).error_code() == grpc::StatusCode::NOT_FOUND,
             "LoadKey of a missing file: NOT_FOUND");
  }

  {
    v1::StatusResponse st;
    s = client.stub().Status(client.context().get(), v1::StatusRequest(), &st);
    c.expect(s.ok() && st.prover() == "cpu" && st.devices_size() >= 1 && !st.pacer_status().empty() &&
                 st.keys_loaded() == 1 && st.stats().partitions_succeeded() >= 1 + kConcurrentClients + 3 + 2 * kAbandoned + 1 &&
                 st.stats().device_count() == static_cast<uint32_t>(st.devices_size()) && st.jobs_open() == 0,
             "Status: prover " + st.prover() + ", " + std::to_string(st.devices_size()) + " device(s), queue depth " +
                 std::to_string(st.queue_depth()) + ", pacer '" + st.pacer_status() + "', " +
                 std::to_string(st.stats().partitions_succeeded()) + " partitions proved, " +
                 std::to_string(st.keys_loaded()) + " key(s), " + std::to_string(st.jobs_open()) + " job(s) open");
  }
  std::printf("%d passed, %d failed\n", c.passed.load(), c.failed.load());
  return c.failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 2) {
    std::cerr << "usage: zkpipe_serve_client ADDRESS [--token-file F] prove|health|selftest ...\n";
    return 2;
  }
  try {
    const std::string address = args[0];
    args.erase(args.begin());
    std::string token;
    if (args[0] == "--token-file" && args.size() >= 3) {
      token = read_file(args[1]);
      token.erase(token.find_last_not_of(" \t\r\n") + 1);
      args.erase(args.begin(), args.begin() + 2);
    }
    const std::string command = args[0];
    args.erase(args.begin());
    Client client(address, token);
    if (!client.connect()) {
      std::cerr << "zkpipe_serve_client: no server at " << address << " within " << kConnectSeconds << " s\n";
      return 1;
    }
    if (command == "prove") return cmd_prove(client, args);
    if (command == "health") return cmd_health(client);
    if (command == "selftest") return cmd_selftest(client, args);
    std::cerr << "zkpipe_serve_client: unknown command '" << command << "'\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "zkpipe_serve_client: " << e.what() << "\n";
    return 1;
  }
}
