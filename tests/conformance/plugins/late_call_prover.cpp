// A prover that breaks a thread rule, for `zkpipe check-plugin` to reject: its destroy()
// leaves its own device thread running, and that thread logs through the host services a
// moment after destroy returned ("owned by the host, valid until the object created with it
// is destroyed": zkp_common.h). In a real host the services, and the host itself, may be
// gone by then. It proves nothing (every key is ZKP_ERR_UNSUPPORTED), so only the checks of
// the factory, the devices and the thread rules apply to it; they pass but that one.
#include <zkpipe/zkp_plugin.h>
#include <zkpipe/zkp_prover.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

namespace {

// The thread destroy() leaves behind; deinit() joins it, so the library is never unloaded
// under it.
std::mutex g_mutex;
std::thread g_device_thread;

void join_device_thread() {
  const std::lock_guard lock(g_mutex);
  if (g_device_thread.joinable()) g_device_thread.join();
}

zkp_status_t fail(zkp_error_t* err, zkp_status_t status, const char* message) {
  if (err != nullptr && err->header.struct_size >= offsetof(zkp_error_t, message) + ZKP_ERROR_MESSAGE_CAPACITY) {
    err->status = status;
    std::snprintf(err->message, sizeof err->message, "%s", message);
  }
  return status;
}

struct LateProver {
  zkp_prover_t table;
  const zkp_host_services_t* host;
};

void destroy(zkp_prover_t* self) {
  auto* p = reinterpret_cast<LateProver*>(self);
  const zkp_host_services_t* host = p->host;
  delete p;
  if (host == nullptr || host->log == nullptr) return;
  join_device_thread();
  const std::lock_guard lock(g_mutex);
  g_device_thread = std::thread([host] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    host->log(host->host_data, ZKP_LOG_INFO, "latecall: device thread stopped");  // the broken rule
  });
}

uint32_t device_count(const zkp_prover_t*) { return 1; }

zkp_status_t device_info(const zkp_prover_t*, uint32_t gpu_index, zkp_device_info_t* out, zkp_error_t* err) {
  if (gpu_index >= 1) return fail(err, ZKP_ERR_INVALID_ARGUMENT, "latecall: gpu_index out of range");
  if (out->header.struct_size < sizeof(zkp_device_info_t))
    return fail(err, ZKP_ERR_ABI_MISMATCH, "latecall: zkp_device_info_t too small");
  std::snprintf(out->name, sizeof out->name, "latecall device 0");
  return ZKP_OK;
}

zkp_status_t key_load(zkp_prover_t*, const zkp_key_source_t*, int32_t gpu_index, zkp_key_t** out, zkp_error_t* err) {
  *out = nullptr;
  if (gpu_index >= 1) return fail(err, ZKP_ERR_INVALID_ARGUMENT, "latecall: gpu_index out of range");
  return fail(err, ZKP_ERR_UNSUPPORTED, "latecall proves nothing");
}

zkp_status_t key_info(const zkp_prover_t*, const zkp_key_t*, zkp_key_info_t*, zkp_error_t* err) {
  return fail(err, ZKP_ERR_UNSUPPORTED, "latecall proves nothing");
}
void key_free(zkp_prover_t*, zkp_key_t*) {}
zkp_status_t synthesize(zkp_prover_t*, const zkp_key_t*, const zkp_witness_t*, zkp_synthesis_t** out,
                        zkp_error_t* err) {
  *out = nullptr;
  return fail(err, ZKP_ERR_UNSUPPORTED, "latecall proves nothing");
}
void synthesis_free(zkp_prover_t*, zkp_synthesis_t*) {}
zkp_status_t prove_start(zkp_prover_t*, const zkp_key_t*, const zkp_prove_input_t*, int32_t, uint32_t,
                         zkp_prove_op_t** op, zkp_error_t* err) {
  *op = nullptr;
  return fail(err, ZKP_ERR_UNSUPPORTED, "latecall proves nothing");
}
zkp_status_t prove_finish(zkp_prover_t*, zkp_prove_op_t*, zkp_prove_output_t*, zkp_error_t* err) {
  return fail(err, ZKP_ERR_UNSUPPORTED, "latecall proves nothing");
}

zkp_status_t create_with_facts(const zkp_host_services_t* host, const zkp_prover_facts_t*,
                               const zkp_option_t* options, size_t option_count, zkp_prover_t** out,
                               zkp_error_t* err) {
  *out = nullptr;
  if (option_count > 0) {
    char message[256];
    std::snprintf(message, sizeof message, "latecall: unknown option '%s'", options[0].key);
    return fail(err, ZKP_ERR_INVALID_ARGUMENT, message);
  }
  auto* p = new LateProver{};
  p->table.header = ZKP_HEADER_INIT(zkp_prover_t);
  p->table.impl = p;
  p->table.name = "latecall";
  p->table.destroy = destroy;
  p->table.device_count = device_count;
  p->table.device_info = device_info;
  p->table.key_load = key_load;
  p->table.key_info = key_info;
  p->table.key_free = key_free;
  p->table.synthesize = synthesize;
  p->table.synthesis_free = synthesis_free;
  p->table.prove_start = prove_start;
  p->table.prove_finish = prove_finish;
  p->host = host;
  *out = &p->table;
  return ZKP_OK;
}

zkp_status_t create(const zkp_host_services_t* host, const zkp_option_t* options, size_t option_count,
                    zkp_prover_t** out, zkp_error_t* err) {
  return create_with_facts(host, nullptr, options, option_count, out, err);
}

const zkp_prover_factory_t kFactory = {ZKP_HEADER_INIT(zkp_prover_factory_t), "", create, create_with_facts};

zkp_status_t init(uint32_t, zkp_error_t*) { return ZKP_OK; }
void deinit() { join_device_thread(); }
const void* get_factory(const char* id) {
  return id != nullptr && std::strcmp(id, ZKP_PROVER_FACTORY_ID) == 0 ? &kFactory : nullptr;
}

}  // namespace

ZKP_EXPORT const zkp_plugin_entry_t zkp_plugin_entry = {
    ZKP_HEADER_INIT(zkp_plugin_entry_t), 1, 1, "latecall", "1.0.0",
    "breaks a thread rule: logs from its own thread after destroy (check-plugin's test)", init, deinit, get_factory};
