// Write a prover backend as a C++ class; ProverFactory<T> turns it into
// zkp_prover_factory_t.
//
// The opaque C handles zkp_key_t, zkp_synthesis_t and zkp_prove_op_t are defined here
// as polymorphic C++ bases (inside the plugin only: the host never sees their
// layout). A backend derives its own key, synthesis and op types from them.
//
//   class MyProver : public zkp::sdk::Prover {
//    public:
//     static constexpr const char* kName = "mine";
//     static constexpr const char* kOptionsHelp = "devices=1  number of devices\n";  // or option_table()
//     MyProver(const zkp::sdk::HostServices& host, const zkp::sdk::ProverFacts& facts,
//              zkp::sdk::Options& options);   // or without facts: (host, options)
//     ... the virtual functions below ...
//   };
//
// The adapter checks struct sizes and argument ranges (gpu_index against
// device_count()) before calling the class, and converts exceptions to status codes.
// It fills both factory entries: create_with_facts hands the class the host's facts,
// create (an older host) the defaults of ProverFacts. A prover that verified a proof
// in prove_finish says so with set_output_flags(out, ZKP_PROVE_OUTPUT_VERIFIED).
//
// A backend that can synthesize into caller memory (zkp_prover_t.synthesize_into) declares
//
//     void synthesize_into(const zkp_key_t& key, const zkp_witness_t& witness,
//                          std::span<uint8_t> buffer, zkp_synthesized_t& out);  // optional
//
// and the adapter fills the entry (checking the pointers first); without it the entry is NULL.
// Likewise a backend that can say when an op's input is no longer read (zkp_prover_t.prove_wait)
// declares
//
//     void prove_wait(zkp_prove_op_t& op);  // optional: returns when the input is read, throws
//                                           // (the work failed) otherwise
//
// A backend built on libraries that throw their own exception types (a GPU runtime's, say)
// maps them to statuses in one place instead of catching them in every function:
//
//     static void translate_exception(const std::exception& e);  // optional
//
// The adapter calls it with anything that escapes the class other than an sdk::Error; it
// throws the sdk::Error the exception stands for, or returns to let the usual mapping apply
// (std::bad_alloc: ZKP_ERR_OUT_OF_MEMORY; anything else: ZKP_ERR_INTERNAL).
#pragma once

#include <zkpipe/zkp_prover.h>
#include <zkpipe/sdk/error.hpp>
#include <zkpipe/sdk/host_services.hpp>
#include <zkpipe/sdk/option_table.hpp>
#include <zkpipe/sdk/options.hpp>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>

struct zkp_key_t {
  virtual ~zkp_key_t() = default;
};
struct zkp_synthesis_t {
  virtual ~zkp_synthesis_t() = default;
};
struct zkp_prove_op_t {
  virtual ~zkp_prove_op_t() = default;
};

namespace zkp::sdk {

// How the host drives the prover (zkp_prover_facts_t). What a host did not send (an
// older host calls create, or sends a shorter struct, or a 0) keeps the default here:
// the smallest pipeline, one worker per device holding one op, one synthesis thread.
struct ProverFacts {
  uint32_t workers_per_device = 1;
  uint32_t synthesis_threads = 1;
  uint32_t ops_per_worker = 1;

  static ProverFacts from(const zkp_prover_facts_t& c) {
    ProverFacts f;
    auto take = [&](uint32_t& field, const uint32_t& value, size_t offset) {
      if (covers(c.header, offset + sizeof value) && value != 0) field = value;
    };
    take(f.workers_per_device, c.workers_per_device, offsetof(zkp_prover_facts_t, workers_per_device));
    take(f.synthesis_threads, c.synthesis_threads, offsetof(zkp_prover_facts_t, synthesis_threads));
    take(f.ops_per_worker, c.ops_per_worker, offsetof(zkp_prover_facts_t, ops_per_worker));
    return f;
  }
};

// The bytes of zkp_prove_output_t every caller provides: the first release's layout,
// up to ntt_ns. Later fields are written only where covers() says the caller has them.
inline constexpr size_t kProveOutputRequiredSize =
    offsetof(zkp_prove_output_t, ntt_ns) + sizeof(zkp_prove_output_t::ntt_ns);

// The bytes of zkp_key_source_t and zkp_synthesized_t every caller provides: the first
// release's layouts. A reader asks key_format() / synthesized_v2() for the later fields.
inline constexpr size_t kKeySourceRequiredSize = offsetof(zkp_key_source_t, format);
// The bytes of zkp_key_info_t every caller provides: the first release's layout, up to
// public_size; synthesized_bytes is written only where covers() says the caller has it.
inline constexpr size_t kKeyInfoRequiredSize = offsetof(zkp_key_info_t, synthesized_bytes);
inline constexpr size_t kSynthesizedRequiredSize = offsetof(zkp_synthesized_t, flags);
// The bytes of zkp_prove_input_t every caller provides: the first release's layout, up to
// randomness. A reader asks prove_input_flags() for the flags.
inline constexpr size_t kProveInputRequiredSize = offsetof(zkp_prove_input_t, flags);

// The input's ZKP_PROVE_INPUT_* flags: 0 for a host whose struct predates the field.
inline uint32_t prove_input_flags(const zkp_prove_input_t& input) noexcept {
  return covers(input.header, offsetof(zkp_prove_input_t, flags) + sizeof input.flags) ? input.flags : 0u;
}

// The key's format: ZKP_KEY_FORMAT_ZKEY for a caller whose struct predates the field.
inline zkp_key_format_t key_format(const zkp_key_source_t& source) noexcept {
  return covers(source.header, offsetof(zkp_key_source_t, format) + sizeof source.format) ? source.format
                                                                                           : ZKP_KEY_FORMAT_ZKEY;
}

// A caller's synthesis with every field of today's layout: the fields its struct does not
// cover read as zero (no flags, no aux_assignment, no density bitmaps).
inline zkp_synthesized_t synthesized_v2(const zkp_synthesized_t& in) noexcept {
  zkp_synthesized_t out{};
  std::memcpy(&out, &in, in.header.struct_size < sizeof out ? in.header.struct_size : sizeof out);
  return out;
}

// Sets zkp_prove_output_t.flags (ZKP_PROVE_OUTPUT_*) when the caller's struct has the
// field; a caller built before it existed is left untouched (and verifies itself).
inline void set_output_flags(zkp_prove_output_t& out, uint32_t flags) noexcept {
  if (covers(out.header, offsetof(zkp_prove_output_t, flags) + sizeof out.flags)) out.flags = flags;
}

class Prover {
 public:
  virtual ~Prover() = default;
  virtual uint32_t flags() const = 0;
  virtual uint32_t device_count() const = 0;
  // gpu_index is already checked against device_count().
  virtual void device_info(uint32_t gpu_index, zkp_device_info_t& out) const = 0;
  virtual std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t& source, int32_t gpu_index) = 0;
  virtual void key_info(const zkp_key_t& key, zkp_key_info_t& out) const = 0;
  virtual std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_key_t& key,
                                                      const zkp_witness_t& witness) = 0;
  virtual std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t& key,
                                                      const zkp_prove_input_t& input,
                                                      int32_t gpu_index, uint32_t worker) = 0;
  virtual void prove_finish(std::unique_ptr<zkp_prove_op_t> op, zkp_prove_output_t& out) = 0;
  virtual bool verify(const zkp_key_t&, std::span<const uint8_t> /*proof*/,
                      std::span<const uint8_t> /*public_inputs*/) const {
    throw Error(ZKP_ERR_UNSUPPORTED, "this prover cannot verify proofs");
  }
};

// Formats "gpu_index N is out of range: the prover has M devices".
inline Error gpu_index_error(int64_t gpu_index, uint32_t count) {
  return Error(ZKP_ERR_INVALID_ARGUMENT, "gpu_index " + std::to_string(gpu_index) +
                                             " is out of range: the prover has " +
                                             std::to_string(count) + " device(s)");
}

// Runs `body`, handing any exception other than an sdk::Error to T::translate_exception when
// T declares one (see the header comment).
template <class T, class Body>
void run_translated(Body&& body) {
  if constexpr (requires(const std::exception& e) { T::translate_exception(e); }) {
    try {
      body();
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      T::translate_exception(e);
      throw;
    }
  } else {
    body();
  }
}

template <class T>
struct ProverFactory {
  static constexpr const char* id = ZKP_PROVER_FACTORY_ID;

  // guard() with T's exception translation: every entry point below runs through it.
  template <class Body>
  static zkp_status_t run(zkp_error_t* err, Body&& body) noexcept {
    return guard(err, [&] { run_translated<T>(body); });
  }

  struct Object {
    zkp_prover_t c;
    std::unique_ptr<T> prover;
    HostServices host;
  };

  static T& self(const zkp_prover_t* p) { return *static_cast<Object*>(p->impl)->prover; }

  static void check_gpu(const zkp_prover_t* p, int64_t gpu_index, bool allow_any) {
    const uint32_t n = self(p).device_count();
    if ((allow_any && gpu_index == -1)) return;
    if (gpu_index < 0 || gpu_index >= static_cast<int64_t>(n)) throw gpu_index_error(gpu_index, n);
  }

  static void destroy(zkp_prover_t* p) { delete static_cast<Object*>(p->impl); }

  static uint32_t device_count(const zkp_prover_t* p) { return self(p).device_count(); }

  static zkp_status_t device_info(const zkp_prover_t* p, uint32_t gpu_index, zkp_device_info_t* out,
                                  zkp_error_t* err) {
    return run(err, [&] {
      require_struct(out, "zkp_device_info_t");
      check_gpu(p, gpu_index, false);
      self(p).device_info(gpu_index, *out);
    });
  }

  static zkp_status_t key_load(zkp_prover_t* p, const zkp_key_source_t* source, int32_t gpu_index,
                               zkp_key_t** out, zkp_error_t* err) {
    return run(err, [&] {
      require_struct(source, "zkp_key_source_t", kKeySourceRequiredSize);
      if (out == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "out is NULL");
      check_gpu(p, gpu_index, true);
      *out = self(p).key_load(*source, gpu_index).release();
    });
  }

  static zkp_status_t key_info(const zkp_prover_t* p, const zkp_key_t* key, zkp_key_info_t* out,
                               zkp_error_t* err) {
    return run(err, [&] {
      require_struct(out, "zkp_key_info_t", kKeyInfoRequiredSize);
      if (key == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "key is NULL");
      self(p).key_info(*key, *out);
    });
  }

  static void key_free(zkp_prover_t*, zkp_key_t* key) { delete key; }

  static zkp_status_t synthesize(zkp_prover_t* p, const zkp_key_t* key, const zkp_witness_t* witness,
                                 zkp_synthesis_t** out, zkp_error_t* err) {
    return run(err, [&] {
      require_struct(witness, "zkp_witness_t");
      if (key == nullptr || out == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "key or out is NULL");
      *out = self(p).synthesize(*key, *witness).release();
    });
  }

  static void synthesis_free(zkp_prover_t*, zkp_synthesis_t* s) { delete s; }

  static zkp_status_t prove_start(zkp_prover_t* p, const zkp_key_t* key, const zkp_prove_input_t* input,
                                  int32_t gpu_index, uint32_t worker, zkp_prove_op_t** op,
                                  zkp_error_t* err) {
    return run(err, [&] {
      require_struct(input, "zkp_prove_input_t", kProveInputRequiredSize);
      if (key == nullptr || op == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "key or op is NULL");
      if ((input->synthesis == nullptr) == (input->external == nullptr)) {
        throw Error(ZKP_ERR_INVALID_ARGUMENT,
                    "zkp_prove_input_t needs exactly one of synthesis and external");
      }
      if (input->external != nullptr) require_struct(input->external, "zkp_synthesized_t", kSynthesizedRequiredSize);
      check_gpu(p, gpu_index, true);
      *op = self(p).prove_start(*key, *input, gpu_index, worker).release();
    });
  }

  static zkp_status_t prove_finish(zkp_prover_t* p, zkp_prove_op_t* op, zkp_prove_output_t* out,
                                   zkp_error_t* err) {
    std::unique_ptr<zkp_prove_op_t> owned(op);  // freed whatever happens
    return run(err, [&] {
      require_struct(out, "zkp_prove_output_t", kProveOutputRequiredSize);
      if (!owned) throw Error(ZKP_ERR_INVALID_ARGUMENT, "op is NULL");
      self(p).prove_finish(std::move(owned), *out);
    });
  }

  static zkp_status_t verify(const zkp_prover_t* p, const zkp_key_t* key, const uint8_t* proof,
                             size_t proof_size, const uint8_t* public_inputs, size_t public_size,
                             int32_t* valid, zkp_error_t* err) {
    return run(err, [&] {
      if (key == nullptr || valid == nullptr || (proof == nullptr && proof_size != 0) ||
          (public_inputs == nullptr && public_size != 0)) {
        throw Error(ZKP_ERR_INVALID_ARGUMENT, "verify: NULL argument");
      }
      *valid = self(p).verify(*key, {proof, proof_size}, {public_inputs, public_size}) ? 1 : 0;
    });
  }

  // Whether T implements synthesize_into (see the header comment).
  static constexpr bool kSynthesizesInto =
      requires(T& t, const zkp_key_t& k, const zkp_witness_t& w, std::span<uint8_t> b, zkp_synthesized_t& o) {
        t.synthesize_into(k, w, b, o);
      };

  static zkp_status_t synthesize_into(zkp_prover_t* p, const zkp_key_t* key, const zkp_witness_t* witness,
                                      uint8_t* buffer, size_t buffer_size, zkp_synthesized_t* out,
                                      zkp_error_t* err) {
    return run(err, [&] {
      require_struct(witness, "zkp_witness_t");
      require_struct(out, "zkp_synthesized_t", kSynthesizedRequiredSize);
      if (key == nullptr || (buffer == nullptr && buffer_size != 0)) {
        throw Error(ZKP_ERR_INVALID_ARGUMENT, "synthesize_into: key or buffer is NULL");
      }
      if constexpr (kSynthesizesInto) self(p).synthesize_into(*key, *witness, {buffer, buffer_size}, *out);
    });
  }

  // Whether T implements prove_wait (see the header comment).
  static constexpr bool kWaits = requires(T& t, zkp_prove_op_t& op) { t.prove_wait(op); };

  static zkp_status_t prove_wait(zkp_prover_t* p, zkp_prove_op_t* op, zkp_error_t* err) {
    return run(err, [&] {
      if (op == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "op is NULL");
      if constexpr (kWaits) self(p).prove_wait(*op);
    });
  }

  // T(host, facts, options) when T takes the facts, else T(host, options).
  static std::unique_ptr<T> construct(const HostServices& host, const ProverFacts& facts, Options& opts) {
    if constexpr (std::is_constructible_v<T, const HostServices&, const ProverFacts&, Options&>) {
      return std::make_unique<T>(host, facts, opts);
    } else {
      return std::make_unique<T>(host, opts);
    }
  }

  static zkp_status_t create(const zkp_host_services_t* host, const zkp_option_t* options,
                             size_t count, zkp_prover_t** out, zkp_error_t* err) {
    return run(err, [&] {
      if (out == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "out is NULL");
      *out = make(host, ProverFacts{}, options, count);
    });
  }

  static zkp_status_t create_with_facts(const zkp_host_services_t* host, const zkp_prover_facts_t* facts,
                                        const zkp_option_t* options, size_t count, zkp_prover_t** out,
                                        zkp_error_t* err) {
    return run(err, [&] {
      if (out == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "out is NULL");
      require_struct(facts, "zkp_prover_facts_t", sizeof(zkp_struct_header_t));
      *out = make(host, ProverFacts::from(*facts), options, count);
    });
  }

  // The C object of a new T, validated options and all; throws.
  static zkp_prover_t* make(const zkp_host_services_t* host, const ProverFacts& facts,
                            const zkp_option_t* options, size_t count) {
    Options opts(std::string("prover '") + T::kName + "'", options, count);
    auto o = std::make_unique<Object>(Object{{}, nullptr, HostServices(host)});
    o->prover = construct(o->host, facts, opts);
    opts.finish();
    zkp_prover_t& c = o->c;
    c.header = ZKP_HEADER_INIT(zkp_prover_t);
    c.impl = o.get();
    c.name = T::kName;
    c.flags = o->prover->flags();
    c.destroy = &destroy;
    c.device_count = &device_count;
    c.device_info = &device_info;
    c.key_load = &key_load;
    c.key_info = &key_info;
    c.key_free = &key_free;
    c.synthesize = &synthesize;
    c.synthesis_free = &synthesis_free;
    c.prove_start = &prove_start;
    c.prove_finish = &prove_finish;
    c.verify = (c.flags & ZKP_PROVER_FLAG_VERIFY) ? &verify : nullptr;
    c.synthesize_into = kSynthesizesInto ? &synthesize_into : nullptr;
    c.prove_wait = kWaits ? &prove_wait : nullptr;
    return &o.release()->c;
  }

  static inline const zkp_prover_factory_t table = {ZKP_HEADER_INIT(zkp_prover_factory_t),
                                                    options_help<T>(), &create, &create_with_facts};
};

// Copies `text` into a fixed char array, truncating; for zkp_device_info_t::name.
template <size_t N>
void copy_name(char (&dst)[N], const std::string& text) {
  std::snprintf(dst, N, "%s", text.c_str());
}

}  // namespace zkp::sdk
