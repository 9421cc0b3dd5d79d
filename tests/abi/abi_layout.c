/*
 * The ABI headers compile as strict C99 (-std=c99 -pedantic-errors -Wall -Wextra), and
 * every struct can be declared with ZKP_HEADER_INIT the way a C caller writes it. The
 * sizes C sees are reported to the C++ side of the test (abi_layout_test.cpp), which
 * checks that C and C++ agree on every layout. Every header of abi/zkpipe: zkpipe.h's, and
 * the client's and the queue's (their libraries' C APIs, which zkpipe.h leaves out).
 */
#include <zkpipe/zkpipe.h>
#include <zkpipe/zkp_client.h>
#include <zkpipe/zkp_queue.h>

#include <string.h>

#include "abi_layout.h"

/* Declares `name` of type T with its header set, as a C caller does. */
#define DECLARE(T, name) \
  T name;                \
  memset(&name, 0, sizeof name); \
  name.header = (zkp_struct_header_t)ZKP_HEADER_INIT(T)

/* Checks one header: the size it records is the size of the type. */
#define CHECK(name) \
  if (name.header.struct_size != sizeof name || name.header.struct_version != 1u) return 0

int zkp_abi_c_headers_ok(void) {
  /* The brace form callers write for the error record. */
  zkp_error_t braced = {ZKP_HEADER_INIT(zkp_error_t), ZKP_OK, {0}};
  DECLARE(zkp_error_t, error);
  DECLARE(zkp_host_services_t, services);
  DECLARE(zkp_plugin_entry_t, entry);
  DECLARE(zkp_device_info_t, device);
  DECLARE(zkp_key_source_t, source);
  DECLARE(zkp_key_info_t, key_info);
  DECLARE(zkp_witness_t, witness);
  DECLARE(zkp_synthesized_t, synthesized);
  DECLARE(zkp_prove_input_t, input);
  DECLARE(zkp_prove_output_t, output);
  DECLARE(zkp_prover_t, prover);
  DECLARE(zkp_prover_factory_t, prover_factory);
  DECLARE(zkp_prover_facts_t, prover_facts);
  DECLARE(zkp_pacer_facts_t, facts);
  DECLARE(zkp_pipeline_state_t, state);
  DECLARE(zkp_pacer_event_t, event);
  DECLARE(zkp_pacer_t, pacer);
  DECLARE(zkp_pacer_factory_t, pacer_factory);
  DECLARE(zkp_witness_circuit_t, witness_circuit);
  DECLARE(zkp_witness_generator_t, witness_generator);
  DECLARE(zkp_witness_factory_t, witness_factory);
  DECLARE(zkp_partition_t, partition);
  DECLARE(zkp_completion_t, completion);
  DECLARE(zkp_job_summary_t, summary);
  DECLARE(zkp_job_t, job);
  DECLARE(zkp_host_stats_t, stats);
  DECLARE(zkp_client_options_t, client_options);
  DECLARE(zkp_client_key_t, client_key);
  DECLARE(zkp_client_job_t, client_job);
  DECLARE(zkp_client_partition_t, client_partition);
  DECLARE(zkp_client_status_t, client_status);
  DECLARE(zkp_queue_partition_t, queue_partition);
  DECLARE(zkp_queue_job_t, queue_job);
  DECLARE(zkp_queue_job_status_t, queue_job_status);
  DECLARE(zkp_queue_result_t, queue_result);
  zkp_option_t option = {"key", "value"};

  CHECK(braced);
  CHECK(error);
  CHECK(services);
  CHECK(entry);
  CHECK(device);
  CHECK(source);
  CHECK(key_info);
  CHECK(witness);
  CHECK(synthesized);
  CHECK(input);
  CHECK(output);
  CHECK(prover);
  CHECK(prover_factory);
  CHECK(prover_facts);
  CHECK(facts);
  CHECK(state);
  CHECK(event);
  CHECK(pacer);
  CHECK(pacer_factory);
  CHECK(witness_circuit);
  CHECK(witness_generator);
  CHECK(witness_factory);
  CHECK(partition);
  CHECK(completion);
  CHECK(summary);
  CHECK(job);
  CHECK(stats);
  CHECK(client_options);
  CHECK(client_key);
  CHECK(client_job);
  CHECK(client_partition);
  CHECK(client_status);
  CHECK(queue_partition);
  CHECK(queue_job);
  CHECK(queue_job_status);
  CHECK(queue_result);
  if (option.key == NULL || strcmp(zkp_status_name(ZKP_ERR_TIMEOUT), "timeout") != 0) return 0;
  if (ZKP_PACER_WAIT_FOR_EVENT != UINT64_MAX) return 0;
  return 1;
}

size_t zkp_abi_c_layout(zkp_abi_layout_t *out, size_t capacity) {
#define ROW(T) {#T, sizeof(T), offsetof(T, header)}
  static const zkp_abi_layout_t rows[] = {
      ROW(zkp_error_t),          ROW(zkp_host_services_t), ROW(zkp_plugin_entry_t),
      ROW(zkp_device_info_t),    ROW(zkp_key_source_t),    ROW(zkp_key_info_t),
      ROW(zkp_witness_t),        ROW(zkp_synthesized_t),   ROW(zkp_prove_input_t),
      ROW(zkp_prove_output_t),   ROW(zkp_prover_t),        ROW(zkp_prover_factory_t),
      ROW(zkp_pacer_facts_t),    ROW(zkp_pipeline_state_t), ROW(zkp_pacer_event_t),
      ROW(zkp_pacer_t),          ROW(zkp_pacer_factory_t), ROW(zkp_partition_t),
      ROW(zkp_completion_t),     ROW(zkp_job_summary_t),   ROW(zkp_job_t),
      ROW(zkp_host_stats_t),     ROW(zkp_prover_facts_t),
      ROW(zkp_client_options_t), ROW(zkp_client_key_t),    ROW(zkp_client_job_t),
      ROW(zkp_client_partition_t), ROW(zkp_client_status_t),
      ROW(zkp_queue_partition_t), ROW(zkp_queue_job_t),    ROW(zkp_queue_job_status_t),
      ROW(zkp_queue_result_t),
      ROW(zkp_witness_circuit_t), ROW(zkp_witness_generator_t), ROW(zkp_witness_factory_t),
  };
#undef ROW
  const size_t n = sizeof rows / sizeof rows[0];
  size_t i;
  for (i = 0; i < n && i < capacity; ++i) out[i] = rows[i];
  return n;
}
