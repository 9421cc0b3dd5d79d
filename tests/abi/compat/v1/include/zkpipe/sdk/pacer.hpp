// Write a pacer as a C++ class; PacerFactory<T> turns it into zkp_pacer_factory_t.
//
//   class MyPacer : public zkp::sdk::Pacer {
//    public:
//     static constexpr const char* kName = "mine";
//     static constexpr const char* kOptionsHelp = "interval_ms=100  time between admissions\n";
//     // (or static const OptionTable<Settings>& option_table(): option_table.hpp)
//     MyPacer(const zkp::sdk::HostServices& host, const zkp_pacer_facts_t& facts,
//             zkp::sdk::Options& options);   // read options here; finish() is called after
//     void on_event(const zkp_pacer_event_t& e) override;
//     uint64_t next_admission_ns(const zkp_pipeline_state_t& s) override;
//     std::string status_line() override;
//   };
//
// Exceptions thrown by create become a status and message; those thrown later (the
// C calls there return no status) are logged through the host and answered safely.
#pragma once

#include <zkpipe/zkp_pacer.h>
#include <zkpipe/sdk/error.hpp>
#include <zkpipe/sdk/host_services.hpp>
#include <zkpipe/sdk/option_table.hpp>
#include <zkpipe/sdk/options.hpp>

#include <cstring>
#include <memory>
#include <string>

namespace zkp::sdk {

class Pacer {
 public:
  virtual ~Pacer() = default;
  virtual void on_event(const zkp_pacer_event_t& event) = 0;
  virtual uint64_t next_admission_ns(const zkp_pipeline_state_t& state) = 0;
  virtual std::string status_line() = 0;
};

template <class T>
struct PacerFactory {
  static constexpr const char* id = ZKP_PACER_FACTORY_ID;

  // The C object: the table plus the C++ instance and what its thunks need.
  struct Object {
    zkp_pacer_t c;
    std::unique_ptr<T> pacer;
    HostServices host;
  };

  static Object* self(zkp_pacer_t* p) { return static_cast<Object*>(p->impl); }

  static void destroy(zkp_pacer_t* p) { delete self(p); }

  static void on_event(zkp_pacer_t* p, const zkp_pacer_event_t* e) {
    Object* o = self(p);
    auto err = make_struct<zkp_error_t>();
    if (guard(&err, [&] {
          require_struct(e, "zkp_pacer_event_t");
          o->pacer->on_event(*e);
        }) != ZKP_OK) {
      o->host.error(std::string(T::kName) + " pacer: on_event failed: " + err.message);
    }
  }

  static uint64_t next_admission_ns(zkp_pacer_t* p, const zkp_pipeline_state_t* s) {
    Object* o = self(p);
    uint64_t out = ZKP_PACER_WAIT_FOR_EVENT;
    auto err = make_struct<zkp_error_t>();
    if (guard(&err, [&] {
          require_struct(s, "zkp_pipeline_state_t");
          out = o->pacer->next_admission_ns(*s);
        }) != ZKP_OK) {
      o->host.error(std::string(T::kName) + " pacer: next_admission_ns failed: " + err.message);
      return ZKP_PACER_WAIT_FOR_EVENT;
    }
    return out;
  }

  static size_t status_line(zkp_pacer_t* p, char* buf, size_t capacity) {
    std::string line;
    auto err = make_struct<zkp_error_t>();
    if (guard(&err, [&] { line = self(p)->pacer->status_line(); }) != ZKP_OK) {
      line = std::string("status unavailable: ") + err.message;
    }
    if (buf != nullptr && capacity > 0) {
      const size_t n = line.size() < capacity - 1 ? line.size() : capacity - 1;
      std::memcpy(buf, line.data(), n);
      buf[n] = '\0';
    }
    return line.size();
  }

  static zkp_status_t create(const zkp_host_services_t* host, const zkp_pacer_facts_t* facts,
                             const zkp_option_t* options, size_t count, zkp_pacer_t** out,
                             zkp_error_t* err) {
    return guard(err, [&] {
      if (out == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "out is NULL");
      require_struct(facts, "zkp_pacer_facts_t");
      Options opts(std::string("pacer '") + T::kName + "'", options, count);
      auto o = std::make_unique<Object>(Object{{}, nullptr, HostServices(host)});
      o->pacer = std::make_unique<T>(o->host, *facts, opts);
      opts.finish();
      o->c.header = ZKP_HEADER_INIT(zkp_pacer_t);
      o->c.impl = o.get();
      o->c.name = T::kName;
      o->c.destroy = &destroy;
      o->c.on_event = &on_event;
      o->c.next_admission_ns = &next_admission_ns;
      o->c.status_line = &status_line;
      *out = &o.release()->c;
    });
  }

  static inline const zkp_pacer_factory_t table = {ZKP_HEADER_INIT(zkp_pacer_factory_t),
                                                   options_help<T>(), &create};
};

}  // namespace zkp::sdk
