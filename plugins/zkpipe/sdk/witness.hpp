// Write a witness generator as a C++ class; WitnessFactory<T> turns it into
// zkp_witness_factory_t ("zkp.witness/1", zkp_witness.h).
//
//   class MyGenerator : public zkp::sdk::WitnessGenerator {
//    public:
//     static constexpr const char* kName = "mine";
//     static constexpr const char* kOptionsHelp = "threads=0  ...\n";
//     MyGenerator(const zkp::sdk::HostServices& host, zkp::sdk::Options& options);
//     zkp_witness_circuit_t circuit() const override;             // n_signals, n_outputs, ...
//     void calculate(std::string_view input_json, std::span<std::uint8_t> out) override;
//   };
//
// calculate is given exactly n_signals * ZKP_SCALAR_SIZE bytes to fill (the factory answers
// ZKP_ERR_SHORT_BUFFER itself); it throws sdk::Error for bad input (ZKP_ERR_BAD_INPUT,
// ZKP_ERR_UNSATISFIED_WITNESS), which becomes the call's status and message.
#pragma once

#include <zkpipe/zkp_prover.h>  // ZKP_SCALAR_SIZE
#include <zkpipe/zkp_witness.h>
#include <zkpipe/sdk/error.hpp>
#include <zkpipe/sdk/host_services.hpp>
#include <zkpipe/sdk/option_table.hpp>
#include <zkpipe/sdk/options.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace zkp::sdk {

class WitnessGenerator {
 public:
  virtual ~WitnessGenerator() = default;
  // The circuit's facts; `name` must stay valid for the generator's life.
  virtual zkp_witness_circuit_t circuit() const = 0;
  // Fills `out` (n_signals scalars, little-endian standard form) with the witness of `input`.
  virtual void calculate(std::string_view input, std::span<std::uint8_t> out) = 0;
};

template <class T>
struct WitnessFactory {
  static constexpr const char* id = ZKP_WITNESS_FACTORY_ID;

  struct Object {
    zkp_witness_generator_t c;
    std::unique_ptr<T> generator;
    HostServices host;
  };

  static Object* self(zkp_witness_generator_t* g) { return static_cast<Object*>(g->impl); }

  static void destroy(zkp_witness_generator_t* g) { delete self(g); }

  static zkp_status_t circuit(zkp_witness_generator_t* g, zkp_witness_circuit_t* out, zkp_error_t* err) {
    return guard(err, [&] {
      require_struct(out, "zkp_witness_circuit_t");
      zkp_witness_circuit_t facts = self(g)->generator->circuit();
      write_covered(out, facts);
    });
  }

  static zkp_status_t calculate(zkp_witness_generator_t* g, const char* input, size_t input_size, uint8_t* out,
                                size_t capacity, size_t* size, zkp_error_t* err) {
    return guard(err, [&] {
      if (size == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "size is NULL");
      if (input == nullptr && input_size != 0) throw Error(ZKP_ERR_INVALID_ARGUMENT, "input is NULL");
      T& generator = *self(g)->generator;
      const std::size_t need = std::size_t{generator.circuit().n_signals} * ZKP_SCALAR_SIZE;
      *size = need;
      if (capacity < need) {
        throw Error(ZKP_ERR_SHORT_BUFFER, "the witness takes " + std::to_string(need) + " bytes, the buffer holds " +
                                              std::to_string(capacity));
      }
      if (out == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "out is NULL");
      generator.calculate(std::string_view(input == nullptr ? "" : input, input_size), std::span<std::uint8_t>(out, need));
    });
  }

  static zkp_status_t create(const zkp_host_services_t* host, const zkp_option_t* options, size_t count,
                             zkp_witness_generator_t** out, zkp_error_t* err) {
    return guard(err, [&] {
      if (out == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "out is NULL");
      Options opts(std::string("witness generator '") + T::kName + "'", options, count);
      auto o = std::make_unique<Object>(Object{{}, nullptr, HostServices(host)});
      o->generator = std::make_unique<T>(o->host, opts);
      opts.finish();
      o->c.header = ZKP_HEADER_INIT(zkp_witness_generator_t);
      o->c.impl = o.get();
      o->c.name = T::kName;
      o->c.destroy = &destroy;
      o->c.circuit = &circuit;
      o->c.calculate = &calculate;
      *out = &o.release()->c;
    });
  }

  static inline const zkp_witness_factory_t table = {ZKP_HEADER_INIT(zkp_witness_factory_t), options_help<T>(),
                                                     &create};
};

}  // namespace zkp::sdk
