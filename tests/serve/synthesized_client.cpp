// zkpipe_serve_synthesized_client SOCKET VECTOR_DIR OUT_DIR: caller-synthesized partitions over
// gRPC (JobRequest.synthesized), for tests/serve/synthesized.sh. VECTOR_DIR is what
// bellperson_dump_synthesis wrote (tests/bellperson_prover): a bellperson key and a partition as
// bellperson hands it to a prover (a, b, c, inputs, aux in Montgomery form; the density bitmaps).
//
// Checks, one line each: LoadKey of the bellperson key; Prove of the partition (self-checked;
// its proof_json/public_json written to OUT_DIR for `zkpipe verify`); Submit + Await of a job of
// two; then malformed requests, each failing its call only, with the partition and field in the
// message: a not whole scalars, b shorter than a, a bitmap with too few words (all
// INVALID_ARGUMENT at the call), a bitmap with one bit flipped (the prover's popcount check:
// INVALID_ARGUMENT, zkp-status ZKP_ERR_BAD_INPUT), both witnesses and synthesized partitions;
// then Prove again and Health: the service kept serving. Exit 0 when every check held.
#include "zkpipe/v1/prover.grpc.pb.h"
#include "client_support.hpp"

#include <grpcpp/grpcpp.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace v1 = zkpipe::v1;

namespace {

constexpr int kScalar = 32;
constexpr int kBadInput = 4;  // ZKP_ERR_BAD_INPUT

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::printf("%s  %s\n", ok ? "ok  " : "FAIL", what.c_str());
  std::fflush(stdout);
  if (!ok) ++failures;
}

using zkp::test::serve::describe;
using zkp::test::serve::read_file;
using zkp::test::serve::write_file;

// The zkp-status trailing metadata of a failed call, or -1.
int zkp_status(const grpc::ClientContext& context) {
  const auto& trailers = context.GetServerTrailingMetadata();
  const auto it = trailers.find("zkp-status");
  return it == trailers.end() ? -1 : std::stoi(std::string(it->second.data(), it->second.size()));
}

v1::SynthesizedPartition partition(const std::string& dir) {
  v1::SynthesizedPartition p;
  p.set_a(read_file(dir + "/a.bin"));
  p.set_b(read_file(dir + "/b.bin"));
  p.set_c(read_file(dir + "/c.bin"));
  p.set_assignment(read_file(dir + "/input.bin"));
  p.set_aux_assignment(read_file(dir + "/aux.bin"));
  p.set_montgomery(true);
  const uint64_t inputs = p.assignment().size() / kScalar, aux = p.aux_assignment().size() / kScalar;
  p.mutable_a_aux_density()->set_words(read_file(dir + "/a_aux_density.bin"));
  p.mutable_a_aux_density()->set_bit_len(aux);
  p.mutable_b_input_density()->set_words(read_file(dir + "/b_input_density.bin"));
  p.mutable_b_input_density()->set_bit_len(inputs);
  p.mutable_b_aux_density()->set_words(read_file(dir + "/b_aux_density.bin"));
  p.mutable_b_aux_density()->set_bit_len(aux);
  return p;
}

struct Call {
  grpc::Status status;
  int zkp = -1;
  v1::ProveResponse response;
};

Call prove(v1::Prover::Stub& stub, const v1::JobRequest& request) {
  Call c;
  grpc::ClientContext context;
  c.status = stub.Prove(&context, request, &c.response);
  if (!c.status.ok()) c.zkp = zkp_status(context);
  return c;
}

// A malformed request: its call fails with INVALID_ARGUMENT, the message naming `words`.
void refused(v1::Prover::Stub& stub, const v1::JobRequest& request, const std::string& what, const std::string& words,
             int zkp = -1) {
  const Call c = prove(stub, request);
  const bool ok = c.status.error_code() == grpc::StatusCode::INVALID_ARGUMENT &&
                  c.status.error_message().find(words) != std::string::npos && (zkp < 0 || c.zkp == zkp);
  expect(ok, what + ": " + (c.status.ok() ? std::string("served") : describe(c.status)) +
                 (zkp >= 0 ? ", zkp-status " + std::to_string(c.zkp) : std::string()));
}

int run(const std::string& socket, const std::string& dir, const std::string& out) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetMaxSendMessageSize(64 << 20);
  auto channel = grpc::CreateCustomChannel("unix:" + socket, grpc::InsecureChannelCredentials(), args);
  if (!channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(20))) {
    std::cerr << "no server on " << socket << "\n";
    return 1;
  }
  auto stub = v1::Prover::NewStub(channel);

  v1::LoadKeyRequest load;
  load.set_path(dir + "/circuit.params");
  load.set_format(v1::KEY_FORMAT_BELLPERSON);
  v1::LoadKeyResponse key;
  {
    grpc::ClientContext context;
    const grpc::Status s = stub->LoadKey(&context, load, &key);
    expect(s.ok() && key.key().curve() == "bls12381", "LoadKey of the bellperson key: " +
                                                          (s.ok() ? "key " + std::to_string(key.key().key_id()) + ", " + key.key().curve()
                                                                  : describe(s)));
    if (!s.ok()) return 1;
  }
  const v1::SynthesizedPartition part = partition(dir);
  v1::JobRequest job;
  job.set_key_id(key.key().key_id());
  job.set_gpu_index(-1);
  *job.add_synthesized() = part;

  const Call one = prove(*stub, job);
  const bool proved = one.status.ok() && one.response.partitions_size() == 1 && one.response.partitions(0).status() == 0 &&
                      !one.response.partitions(0).proof_json().empty();
  expect(proved && (one.response.partitions(0).flags() & 2u) != 0,
         "Prove of a synthesized partition: " + (proved ? std::string("proved, self-checked flag ") +
                                                              std::to_string(one.response.partitions(0).flags() & 2u)
                                                        : describe(one.status)));
  if (proved) {
    write_file(out + "/proof.json", one.response.partitions(0).proof_json());
    write_file(out + "/public.json", one.response.partitions(0).public_json());
  }

  v1::JobRequest two = job;
  *two.add_synthesized() = part;
  {
    grpc::ClientContext context;
    v1::SubmitResponse submitted;
    const grpc::Status s = stub->Submit(&context, two, &submitted);
    int ok = 0;
    if (s.ok()) {
      grpc::ClientContext await_context;
      v1::AwaitRequest await;
      await.set_job_id(submitted.job_id());
      auto reader = stub->Await(&await_context, await);
      for (v1::PartitionResult r; reader->Read(&r);) ok += r.status() == 0 && !r.proof().empty() ? 1 : 0;
      reader->Finish();
    }
    expect(s.ok() && ok == 2, "Submit + Await of a job of two synthesized partitions: " + std::to_string(ok) + " proved");
  }

  v1::JobRequest bad = job;
  bad.mutable_synthesized(0)->mutable_a()->push_back('\0');
  refused(*stub, bad, "a of 1 byte past whole scalars", "partition 0: synthesized.a is");
  bad = two;
  bad.mutable_synthesized(1)->mutable_b()->resize(part.b().size() - kScalar);
  refused(*stub, bad, "partition 1's b one scalar short", "partition 1: synthesized.a, b and c hold");
  bad = job;
  bad.mutable_synthesized(0)->mutable_b_aux_density()->mutable_words()->resize(0);
  refused(*stub, bad, "b_aux_density with no words", "synthesized.b_aux_density has 0 words");
  bad = job;
  bad.mutable_synthesized(0)->mutable_a_aux_density()->mutable_words()->at(0) ^= 1;  // a popcount the key does not have
  refused(*stub, bad, "a_aux_density with a bit flipped", "a_aux_density", kBadInput);
  bad = job;
  bad.add_witnesses("not a witness");
  refused(*stub, bad, "witnesses and synthesized partitions in one job", "one or the other");

  const Call again = prove(*stub, job);
  expect(again.status.ok(), "Prove after the malformed requests: " + (again.status.ok() ? std::string("proved") : describe(again.status)));
  v1::HealthResponse health;
  grpc::ClientContext context;
  expect(stub->Health(&context, v1::HealthRequest(), &health).ok() && health.serving(), "Health: still serving");
  std::printf("%d failed\n", failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: zkpipe_serve_synthesized_client SOCKET VECTOR_DIR OUT_DIR\n";
    return 2;
  }
  try {
    return run(argv[1], argv[2], argv[3]);
  } catch (const std::exception& e) {
    std::cerr << "zkpipe_serve_synthesized_client: " << e.what() << "\n";
    return 1;
  }
}
