// zkpipe's witness generator for circom's C++ output ("zkp.witness/1", zkp_witness.h): compiled
// by `zkpipe witness build CIRCUIT_cpp/` together with the circuit's generated code (circom --c
// --no_asm, 2.2.x), its runtime (calcwit.cpp, fr.cpp), its main.cpp (for loadCircuit and
// qualify_input, circom's own reading of the .dat file and flattening of input.json) and the
// .dat file itself, embedded (dat.S), into one plugin per circuit.
//
// What it does differently from circom's main.cpp: it reads input.json from memory, checks
// every value (an integer, decimal or 0x hex, negative meaning p − |v|, below the prime: a
// larger one is refused, not reduced) and every signal name before the circuit runs, and
// reports a failed assert of the circuit (circom's assert.h stand-in throws, shim/) as an error
// of the one calculation, naming what circom printed; each calculation frees what it
// allocated (circom's Circom_CalcWit destructor frees nothing).
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <zkpipe/sdk/plugin.hpp>
#include <zkpipe/sdk/witness.hpp>

// What circom's headers include, included first so that the define below reaches only them.
#include <gmp.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <thread>

// circom's runtime headers. Circom_CalcWit keeps the flags of the inputs set private (a class's
// default) and its destructor frees nothing: this unit frees that array after each calculation,
// so it reads calcwit.hpp's class as a struct (the same layout, every member public).
#include "circom.hpp"
#define class struct
#include "calcwit.hpp"
#undef class

using json = nlohmann::json;

// From the circuit's generated code and circom's main.cpp (compiled with main renamed).
uint get_main_input_signal_start();
uint get_main_input_signal_no();
uint get_size_of_input_hashmap();
uint get_size_of_witness();
Circom_Circuit* loadCircuit(std::string const& datFileName);
void qualify_input(std::string prefix, json& in, json& in1);

// The .dat file, embedded by dat.S.
extern "C" const unsigned char zkp_circom_dat[];
extern "C" const unsigned char zkp_circom_dat_end[];

namespace std {
ostream& zkp_circom_output() {
  thread_local ostringstream output;
  return output;
}
}  // namespace std

namespace {

using zkp::sdk::Error;

std::string take_output() {
  auto& out = static_cast<std::ostringstream&>(std::zkp_circom_output());
  std::string text = out.str();
  out.str({});
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// A failed assert: in the circuit's code (circom printed which one) or in its runtime.
struct CircomAssert : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace

[[noreturn]] void zkp_circom_assert_failed(const char* expression, const char* file, int line) {
  std::string printed = take_output();
  if (printed.empty()) printed = std::string("assert(") + expression + ") failed in " + file + ":" + std::to_string(line);
  throw CircomAssert(printed);
}

namespace {

// circom's curves, by the scalar field prime's top limb (both 4 limbs).
zkp_curve_t curve_of_prime() {
  if (Fr_N64 != 4) return ZKP_CURVE_UNKNOWN;
  if (Fr_q.longVal[3] == 0x30644e72e131a029ull && Fr_q.longVal[0] == 0x43e1f593f0000001ull) return ZKP_CURVE_BN254;
  if (Fr_q.longVal[3] == 0x73eda753299d7d48ull && Fr_q.longVal[0] == 0xffffffff00000001ull) return ZKP_CURVE_BLS12_381;
  return ZKP_CURVE_UNKNOWN;
}

// Reads the embedded .dat through circom's own loader, which takes a path: a memfd holds the
// bytes for the call.
Circom_Circuit* load_embedded_circuit() {
  const int fd = memfd_create("zkpipe-circom-dat", MFD_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "memfd_create");
  const std::size_t size = static_cast<std::size_t>(zkp_circom_dat_end - zkp_circom_dat);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = write(fd, zkp_circom_dat + done, size - done);
    if (n <= 0) {
      const int e = errno;
      close(fd);
      throw std::system_error(e, std::generic_category(), "writing the circuit's .dat to a memfd");
    }
    done += static_cast<std::size_t>(n);
  }
  Circom_Circuit* circuit = nullptr;
  try {
    circuit = loadCircuit("/proc/self/fd/" + std::to_string(fd));
  } catch (...) {
    close(fd);
    throw;
  }
  close(fd);
  return circuit;
}

// One input value as an element: a JSON integer or a string of decimal digits or 0x hex,
// with an optional minus sign (p − |v|). Throws BAD_INPUT naming `what`.
FrElement parse_value(const json& v, const std::string& what) {
  std::string text;
  if (v.is_number_unsigned()) {
    text = std::to_string(v.get<std::uint64_t>());
  } else if (v.is_number_integer()) {
    text = std::to_string(v.get<std::int64_t>());
  } else if (v.is_string()) {
    text = v.get<std::string>();
  } else {
    throw Error(ZKP_ERR_BAD_INPUT, "input signal " + what + ": " + v.dump() + " is not an integer (a number, or a decimal or 0x hex string)");
  }
  const bool negative = !text.empty() && text[0] == '-';
  std::string digits = negative ? text.substr(1) : text;
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits = digits.substr(2);
    base = 16;
  }
  const bool valid = !digits.empty() && digits.find_first_not_of(base == 16 ? "0123456789abcdefABCDEF" : "0123456789") ==
                                            std::string::npos;
  if (!valid) throw Error(ZKP_ERR_BAD_INPUT, "input signal " + what + ": '" + text + "' is not an integer");
  mpz_t value, q;
  mpz_init_set_str(value, digits.c_str(), base);
  mpz_init(q);
  mpz_import(q, Fr_N64, -1, 8, -1, 0, Fr_q.longVal);
  const bool in_range = mpz_cmp(value, q) < 0;
  if (in_range && negative && mpz_sgn(value) != 0) mpz_sub(value, q, value);
  FrElement e;
  if (in_range) {
    char* reduced = mpz_get_str(nullptr, 16, value);
    Fr_str2element(&e, reduced, 16);
    void (*free_string)(void*, size_t);
    mp_get_memory_functions(nullptr, nullptr, &free_string);
    free_string(reduced, std::strlen(reduced) + 1);
  }
  mpz_clear(value);
  mpz_clear(q);
  if (!in_range) throw Error(ZKP_ERR_BAD_INPUT, "input signal " + what + ": " + text + " is not below the field prime");
  return e;
}

void flatten_values(const json& v, const std::string& what, std::vector<FrElement>& out) {
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) flatten_values(v[i], what + "[" + std::to_string(i) + "]", out);
  } else {
    out.push_back(parse_value(v, what));
  }
}

// One calculation's context, freed whatever happens (circom's destructor frees nothing).
struct Calculation {
  explicit Calculation(Circom_Circuit* circuit) : ctx(new Circom_CalcWit(circuit)) {}
  ~Calculation() {
    delete[] ctx->inputSignalAssigned;
    delete[] ctx->signalValues;
    delete[] ctx->componentMemory;
    delete ctx;
  }
  Calculation(const Calculation&) = delete;
  Calculation& operator=(const Calculation&) = delete;
  Circom_CalcWit* ctx;
};

class CircomGenerator final : public zkp::sdk::WitnessGenerator {
 public:
  static constexpr const char* kName = "circom";
  static constexpr const char* kOptionsHelp = "";

  CircomGenerator(const zkp::sdk::HostServices&, zkp::sdk::Options&) {
    static std::once_flag once;
    static Circom_Circuit* circuit = nullptr;
    // The circuit's tables are read-only once loaded: every generator of this plugin shares
    // them (they live as long as the library).
    std::call_once(once, [] { circuit = load_embedded_circuit(); });
    circuit_ = circuit;
    facts_ = zkp::sdk::make_struct<zkp_witness_circuit_t>();
    facts_.curve = curve_of_prime();
    facts_.n_signals = get_size_of_witness();
    facts_.n_outputs = get_main_input_signal_start() - 1;
    facts_.n_inputs = get_main_input_signal_no();
    facts_.name = ZKP_CIRCOM_CIRCUIT_NAME;
    if (Fr_N64 * 8 > ZKP_SCALAR_SIZE) throw Error(ZKP_ERR_UNSUPPORTED, "the circuit's field takes more than 32 bytes a value");
  }

  zkp_witness_circuit_t circuit() const override { return facts_; }

  void calculate(std::string_view input, std::span<std::uint8_t> out) override {
    json given;
    try {
      given = json::parse(input.begin(), input.end());
    } catch (const json::exception& e) {
      throw Error(ZKP_ERR_BAD_INPUT, std::string("input.json: ") + e.what());
    }
    if (!given.is_object()) throw Error(ZKP_ERR_BAD_INPUT, "input.json: not a JSON object of input signals");
    json flat = json::object();
    qualify_input("", given, flat);
    take_output();
    Calculation calc(circuit_);
    try {
      if (flat.empty()) calc.ctx->tryRunCircuit();
      for (auto it = flat.begin(); it != flat.end(); ++it) {
        const std::string& name = it.key();
        const u64 hash = fnv1a(name);
        const HashSignalInfo* info = input_signal(hash);
        if (info == nullptr) {
          throw Error(ZKP_ERR_BAD_INPUT, "input signal '" + name + "' is not an input of circuit " + facts_.name);
        }
        std::vector<FrElement> values;
        flatten_values(it.value(), "'" + name + "'", values);
        if (values.size() != info->signalsize) {
          throw Error(ZKP_ERR_BAD_INPUT, "input signal '" + name + "' takes " + std::to_string(info->signalsize) +
                                             " value(s), the input gives " + std::to_string(values.size()));
        }
        for (std::size_t i = 0; i < values.size(); ++i) calc.ctx->setInputSignal(hash, static_cast<uint>(i), values[i]);
      }
      if (const uint left = calc.ctx->getRemaingInputsToBeSet(); left != 0) {
        throw Error(ZKP_ERR_BAD_INPUT, "the input sets " + std::to_string(facts_.n_inputs - left) + " of circuit " + facts_.name +
                                           "'s " + std::to_string(facts_.n_inputs) + " input values: " +
                                           std::to_string(left) + " missing");
      }
    } catch (const CircomAssert& e) {
      throw Error(ZKP_ERR_UNSATISFIED_WITNESS, std::string("circuit ") + facts_.name + " refused the input: " + e.what());
    }
    for (uint i = 0; i < facts_.n_signals; ++i) {
      FrElement v;
      calc.ctx->getWitness(i, &v);
      Fr_toLongNormal(&v, &v);
      std::uint8_t* at = out.data() + std::size_t{i} * ZKP_SCALAR_SIZE;
      std::memset(at, 0, ZKP_SCALAR_SIZE);
      std::memcpy(at, v.longVal, Fr_N64 * 8);
    }
  }

 private:
  // The main component's input signal named by `hash`, or null (circom's own lookup asserts).
  const HashSignalInfo* input_signal(u64 hash) const {
    const uint n = get_size_of_input_hashmap();
    if (n == 0) return nullptr;
    uint pos = static_cast<uint>(hash % u64{n});
    for (uint probes = 0; probes < n; ++probes, pos = (pos + 1) % n) {
      const HashSignalInfo& e = circuit_->InputHashMap[pos];
      if (e.hash == hash) return &e;
      if (e.signalid == 0) return nullptr;
    }
    return nullptr;
  }

  Circom_Circuit* circuit_ = nullptr;
  zkp_witness_circuit_t facts_{};
};

}  // namespace

ZKP_PLUGIN("circom", "1.0.0", "witness generator of circuit " ZKP_CIRCOM_CIRCUIT_NAME " (circom's C++ output)",
           zkp::sdk::WitnessFactory<CircomGenerator>);
