#include "prover_calls.hpp"

#include <chrono>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace zkp::prover_calls {

namespace {

template <class T>
T with_header() {
  T v{};
  v.header = ZKP_HEADER_INIT(T);
  return v;
}

}  // namespace

zkp_error_t error_record() { return with_header<zkp_error_t>(); }

const zkp_host_services_t* quiet_host_services() {
  static const zkp_host_services_t services = [] {
    auto s = with_header<zkp_host_services_t>();
    s.log = [](void*, zkp_log_level_t, const char*) {};
    s.now_ns = [](void*) -> uint64_t {
      return static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
              .count());
    };
    return s;
  }();
  return &services;
}

ProverPtr adopt_prover(zkp_prover_t* p) {
  return ProverPtr(p, [](zkp_prover_t* q) {
    if (q != nullptr) q->destroy(q);
  });
}

LoadedKey::~LoadedKey() {
  if (key != nullptr) prover->key_free(prover, key);
}

zkp_status_t load_key(zkp_prover_t* p, const std::filesystem::path& key_file, int32_t gpu_index, LoadedKey& out,
                      zkp_error_t& err, zkp_key_format_t format) {
  auto source = with_header<zkp_key_source_t>();
  const std::string path = key_file.string();
  source.path = path.c_str();
  source.format = format;
  out.prover = p;
  return p->key_load(p, &source, gpu_index, &out.key, &err);
}

const char* to_string(Stage stage) {
  switch (stage) {
    case Stage::none: return "";
    case Stage::synthesize: return "synthesize";
    case Stage::prove_start: return "prove_start";
    case Stage::prove_finish: return "prove_finish";
  }
  return "?";
}

zkp_status_t prove(zkp_prover_t* p, const zkp_key_t* key, const zkp_witness_t& witness, const uint8_t* randomness,
                   int32_t gpu_index, uint32_t worker, zkp_prove_output_t& out, zkp_error_t& err, Stage* failed) {
  Stage stage = Stage::synthesize;
  zkp_synthesis_t* synthesis = nullptr;
  zkp_status_t s = p->synthesize(p, key, &witness, &synthesis, &err);
  if (s == ZKP_OK) {
    auto input = with_header<zkp_prove_input_t>();
    input.synthesis = synthesis;
    input.randomness = randomness;
    zkp_prove_op_t* op = nullptr;
    stage = Stage::prove_start;
    s = p->prove_start(p, key, &input, gpu_index, worker, &op, &err);
    if (s == ZKP_OK) {
      stage = Stage::prove_finish;
      s = p->prove_finish(p, op, &out, &err);
    }
    p->synthesis_free(p, synthesis);
  }
  if (failed != nullptr) *failed = s == ZKP_OK ? Stage::none : stage;
  return s;
}

Bytes read_bytes(const std::filesystem::path& path) {
  // Regular files only: a FIFO would block here and /dev/zero never end.
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    throw std::runtime_error(path.string() + " is not a regular file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace zkp::prover_calls
