/*
 * Prints what the C compiler sees in the headers of abi/zkpipe/zkpipe.h, one fact per line, for
 * the Rust layout test (layout.rs) to compare with zkpipe-sys: every struct's size and alignment,
 * every field's offset, every constant's value. The same lines, in the same words, are
 * produced on the Rust side; any difference is a binding bug.
 */
#include <stdalign.h>
#include <stdio.h>
#include <zkpipe/zkpipe.h>

#define STRUCT(T) printf("size %s %zu\nalign %s %zu\n", #T, sizeof(T), #T, (size_t)alignof(T))
#define FIELD(T, f) printf("offset %s.%s %zu\n", #T, #f, offsetof(T, f))
#define CONST(c) printf("const %s %llu\n", #c, (unsigned long long)(c))
#define STRING(c) printf("string %s %s\n", #c, c)

int main(void) {
  STRUCT(zkp_struct_header_t); FIELD(zkp_struct_header_t, struct_size); FIELD(zkp_struct_header_t, struct_version);
  STRUCT(zkp_error_t); FIELD(zkp_error_t, header); FIELD(zkp_error_t, status); FIELD(zkp_error_t, message);
  STRUCT(zkp_option_t); FIELD(zkp_option_t, key); FIELD(zkp_option_t, value);
  STRUCT(zkp_host_services_t); FIELD(zkp_host_services_t, header); FIELD(zkp_host_services_t, host_data);
  FIELD(zkp_host_services_t, log); FIELD(zkp_host_services_t, now_ns);

  STRUCT(zkp_plugin_entry_t); FIELD(zkp_plugin_entry_t, header); FIELD(zkp_plugin_entry_t, abi_version_min);
  FIELD(zkp_plugin_entry_t, abi_version_max); FIELD(zkp_plugin_entry_t, name); FIELD(zkp_plugin_entry_t, version);
  FIELD(zkp_plugin_entry_t, description); FIELD(zkp_plugin_entry_t, init); FIELD(zkp_plugin_entry_t, deinit);
  FIELD(zkp_plugin_entry_t, get_factory);

  STRUCT(zkp_device_info_t); FIELD(zkp_device_info_t, header); FIELD(zkp_device_info_t, name);
  FIELD(zkp_device_info_t, memory_bytes); FIELD(zkp_device_info_t, memory_free_bytes);
  FIELD(zkp_device_info_t, partitions_started); FIELD(zkp_device_info_t, partitions_proved); FIELD(zkp_device_info_t, busy_ns);
  STRUCT(zkp_key_source_t); FIELD(zkp_key_source_t, header); FIELD(zkp_key_source_t, path);
  FIELD(zkp_key_source_t, data); FIELD(zkp_key_source_t, size);
  FIELD(zkp_key_source_t, format); FIELD(zkp_key_source_t, witness_generator);
  STRUCT(zkp_key_info_t); FIELD(zkp_key_info_t, header); FIELD(zkp_key_info_t, curve); FIELD(zkp_key_info_t, n_vars);
  FIELD(zkp_key_info_t, n_public); FIELD(zkp_key_info_t, domain_size); FIELD(zkp_key_info_t, synthesis_bytes);
  FIELD(zkp_key_info_t, proof_size); FIELD(zkp_key_info_t, public_size); FIELD(zkp_key_info_t, synthesized_bytes);
  FIELD(zkp_key_info_t, device_bytes);
  STRUCT(zkp_witness_t); FIELD(zkp_witness_t, header); FIELD(zkp_witness_t, kind); FIELD(zkp_witness_t, path);
  FIELD(zkp_witness_t, data); FIELD(zkp_witness_t, size);
  STRUCT(zkp_synthesized_t); FIELD(zkp_synthesized_t, header); FIELD(zkp_synthesized_t, a); FIELD(zkp_synthesized_t, b);
  FIELD(zkp_synthesized_t, c); FIELD(zkp_synthesized_t, abc_length); FIELD(zkp_synthesized_t, assignment);
  FIELD(zkp_synthesized_t, assignment_length); FIELD(zkp_synthesized_t, flags);
  FIELD(zkp_synthesized_t, aux_assignment); FIELD(zkp_synthesized_t, aux_assignment_length);
  FIELD(zkp_synthesized_t, a_aux_density); FIELD(zkp_synthesized_t, a_aux_bit_len);
  FIELD(zkp_synthesized_t, b_input_density); FIELD(zkp_synthesized_t, b_input_bit_len);
  FIELD(zkp_synthesized_t, b_aux_density); FIELD(zkp_synthesized_t, b_aux_bit_len);
  STRUCT(zkp_prove_input_t); FIELD(zkp_prove_input_t, header); FIELD(zkp_prove_input_t, synthesis);
  FIELD(zkp_prove_input_t, external); FIELD(zkp_prove_input_t, randomness); FIELD(zkp_prove_input_t, flags);
  STRUCT(zkp_prove_output_t); FIELD(zkp_prove_output_t, header); FIELD(zkp_prove_output_t, proof);
  FIELD(zkp_prove_output_t, proof_capacity); FIELD(zkp_prove_output_t, proof_size); FIELD(zkp_prove_output_t, public_inputs);
  FIELD(zkp_prove_output_t, public_capacity); FIELD(zkp_prove_output_t, public_size); FIELD(zkp_prove_output_t, gpu_index);
  FIELD(zkp_prove_output_t, gpu_duration_ns); FIELD(zkp_prove_output_t, epilogue_ns); FIELD(zkp_prove_output_t, msm_ns);
  FIELD(zkp_prove_output_t, ntt_ns); FIELD(zkp_prove_output_t, flags);
  STRUCT(zkp_prover_t); FIELD(zkp_prover_t, header); FIELD(zkp_prover_t, impl); FIELD(zkp_prover_t, name);
  FIELD(zkp_prover_t, flags); FIELD(zkp_prover_t, destroy); FIELD(zkp_prover_t, device_count);
  FIELD(zkp_prover_t, device_info); FIELD(zkp_prover_t, key_load); FIELD(zkp_prover_t, key_info);
  FIELD(zkp_prover_t, key_free); FIELD(zkp_prover_t, synthesize); FIELD(zkp_prover_t, synthesis_free);
  FIELD(zkp_prover_t, prove_start); FIELD(zkp_prover_t, prove_finish); FIELD(zkp_prover_t, verify);
  FIELD(zkp_prover_t, synthesize_into);
  FIELD(zkp_prover_t, prove_wait);
  STRUCT(zkp_prover_facts_t); FIELD(zkp_prover_facts_t, header); FIELD(zkp_prover_facts_t, workers_per_device);
  FIELD(zkp_prover_facts_t, synthesis_threads); FIELD(zkp_prover_facts_t, ops_per_worker);
  STRUCT(zkp_prover_factory_t); FIELD(zkp_prover_factory_t, header); FIELD(zkp_prover_factory_t, options_help);
  FIELD(zkp_prover_factory_t, create); FIELD(zkp_prover_factory_t, create_with_facts);

  STRUCT(zkp_pacer_facts_t); FIELD(zkp_pacer_facts_t, header); FIELD(zkp_pacer_facts_t, device_count);
  FIELD(zkp_pacer_facts_t, workers_per_device); FIELD(zkp_pacer_facts_t, synthesis_threads);
  FIELD(zkp_pacer_facts_t, budget_bytes); FIELD(zkp_pacer_facts_t, start_ns);
  STRUCT(zkp_pipeline_state_t); FIELD(zkp_pipeline_state_t, header); FIELD(zkp_pipeline_state_t, now_ns);
  FIELD(zkp_pipeline_state_t, pending); FIELD(zkp_pipeline_state_t, synthesizing); FIELD(zkp_pipeline_state_t, waiting);
  FIELD(zkp_pipeline_state_t, proving); FIELD(zkp_pipeline_state_t, budget_used_bytes);
  FIELD(zkp_pipeline_state_t, budget_total_bytes); FIELD(zkp_pipeline_state_t, next_partition_bytes);
  STRUCT(zkp_pacer_event_t); FIELD(zkp_pacer_event_t, header); FIELD(zkp_pacer_event_t, kind); FIELD(zkp_pacer_event_t, job_id);
  FIELD(zkp_pacer_event_t, partition); FIELD(zkp_pacer_event_t, gpu_index); FIELD(zkp_pacer_event_t, worker);
  FIELD(zkp_pacer_event_t, gpu_duration_ns); FIELD(zkp_pacer_event_t, synthesis_ns); FIELD(zkp_pacer_event_t, bytes);
  FIELD(zkp_pacer_event_t, state);
  STRUCT(zkp_pacer_t); FIELD(zkp_pacer_t, header); FIELD(zkp_pacer_t, impl); FIELD(zkp_pacer_t, name);
  FIELD(zkp_pacer_t, destroy); FIELD(zkp_pacer_t, on_event); FIELD(zkp_pacer_t, next_admission_ns); FIELD(zkp_pacer_t, status_line);
  STRUCT(zkp_pacer_factory_t); FIELD(zkp_pacer_factory_t, header); FIELD(zkp_pacer_factory_t, options_help);
  FIELD(zkp_pacer_factory_t, create);
  STRUCT(zkp_witness_circuit_t); FIELD(zkp_witness_circuit_t, header); FIELD(zkp_witness_circuit_t, curve);
  FIELD(zkp_witness_circuit_t, n_signals); FIELD(zkp_witness_circuit_t, n_outputs); FIELD(zkp_witness_circuit_t, n_inputs);
  FIELD(zkp_witness_circuit_t, name);
  STRUCT(zkp_witness_generator_t); FIELD(zkp_witness_generator_t, header); FIELD(zkp_witness_generator_t, impl);
  FIELD(zkp_witness_generator_t, name); FIELD(zkp_witness_generator_t, destroy); FIELD(zkp_witness_generator_t, circuit);
  FIELD(zkp_witness_generator_t, calculate);
  STRUCT(zkp_witness_factory_t); FIELD(zkp_witness_factory_t, header); FIELD(zkp_witness_factory_t, options_help);
  FIELD(zkp_witness_factory_t, create);

  STRUCT(zkp_partition_t); FIELD(zkp_partition_t, header); FIELD(zkp_partition_t, witness); FIELD(zkp_partition_t, synthesized);
  STRUCT(zkp_completion_t); FIELD(zkp_completion_t, header); FIELD(zkp_completion_t, job_id); FIELD(zkp_completion_t, partition);
  FIELD(zkp_completion_t, status); FIELD(zkp_completion_t, message); FIELD(zkp_completion_t, gpu_index);
  FIELD(zkp_completion_t, worker); FIELD(zkp_completion_t, gpu_duration_ns); FIELD(zkp_completion_t, synthesis_ns);
  FIELD(zkp_completion_t, queue_wait_ns); FIELD(zkp_completion_t, total_ns); FIELD(zkp_completion_t, curve);
  FIELD(zkp_completion_t, flags); FIELD(zkp_completion_t, proof); FIELD(zkp_completion_t, proof_size);
  FIELD(zkp_completion_t, public_inputs); FIELD(zkp_completion_t, public_size);
  STRUCT(zkp_job_summary_t); FIELD(zkp_job_summary_t, header); FIELD(zkp_job_summary_t, job_id); FIELD(zkp_job_summary_t, status);
  FIELD(zkp_job_summary_t, partitions); FIELD(zkp_job_summary_t, succeeded); FIELD(zkp_job_summary_t, failed);
  FIELD(zkp_job_summary_t, cancelled); FIELD(zkp_job_summary_t, wall_ns);
  STRUCT(zkp_job_t); FIELD(zkp_job_t, header); FIELD(zkp_job_t, key_id); FIELD(zkp_job_t, partitions);
  FIELD(zkp_job_t, partition_count); FIELD(zkp_job_t, gpu_index); FIELD(zkp_job_t, priority); FIELD(zkp_job_t, randomness);
  FIELD(zkp_job_t, on_partition); FIELD(zkp_job_t, on_job); FIELD(zkp_job_t, user_data);
  FIELD(zkp_job_t, on_input_released);
  STRUCT(zkp_host_stats_t); FIELD(zkp_host_stats_t, header); FIELD(zkp_host_stats_t, jobs_submitted);
  FIELD(zkp_host_stats_t, jobs_finished); FIELD(zkp_host_stats_t, partitions_succeeded); FIELD(zkp_host_stats_t, partitions_failed);
  FIELD(zkp_host_stats_t, pending); FIELD(zkp_host_stats_t, synthesizing); FIELD(zkp_host_stats_t, waiting);
  FIELD(zkp_host_stats_t, proving); FIELD(zkp_host_stats_t, budget_total_bytes); FIELD(zkp_host_stats_t, budget_used_bytes);
  FIELD(zkp_host_stats_t, budget_peak_bytes); FIELD(zkp_host_stats_t, device_count); FIELD(zkp_host_stats_t, workers_per_device);
  FIELD(zkp_host_stats_t, admission_stalls); FIELD(zkp_host_stats_t, admission_interval_ns);
  FIELD(zkp_host_stats_t, device_restarts); FIELD(zkp_host_stats_t, devices_quarantined);
  STRUCT(zkp_log_record_t); FIELD(zkp_log_record_t, header); FIELD(zkp_log_record_t, level);
  FIELD(zkp_log_record_t, logger); FIELD(zkp_log_record_t, message); FIELD(zkp_log_record_t, message_size);
  FIELD(zkp_log_record_t, unix_time_ns);

  /* Scalar typedefs: their size is part of every signature that uses them. */
  STRUCT(zkp_status_t); STRUCT(zkp_curve_t); STRUCT(zkp_log_level_t); STRUCT(zkp_witness_kind_t);
  STRUCT(zkp_pacer_event_kind_t); STRUCT(zkp_shutdown_mode_t);

  CONST(ZKP_ABI_VERSION); CONST(ZKP_ABI_VERSION_MIN_SUPPORTED);
  CONST(ZKP_OK); CONST(ZKP_ERR_INVALID_ARGUMENT); CONST(ZKP_ERR_NOT_FOUND); CONST(ZKP_ERR_ABI_MISMATCH);
  CONST(ZKP_ERR_BAD_INPUT); CONST(ZKP_ERR_UNSATISFIED_WITNESS); CONST(ZKP_ERR_OUT_OF_MEMORY); CONST(ZKP_ERR_DEVICE);
  CONST(ZKP_ERR_BUDGET_EXHAUSTED); CONST(ZKP_ERR_CANCELLED); CONST(ZKP_ERR_SHORT_BUFFER); CONST(ZKP_ERR_UNSUPPORTED);
  CONST(ZKP_ERR_INTERNAL); CONST(ZKP_ERR_TIMEOUT); CONST(ZKP_ERR_INVALID_PROOF); CONST(ZKP_ERR_DEVICE_LOST);
  CONST(ZKP_STATUS_COUNT);
  CONST(ZKP_ERROR_MESSAGE_CAPACITY);
  CONST(ZKP_CURVE_UNKNOWN); CONST(ZKP_CURVE_BN254); CONST(ZKP_CURVE_BLS12_381);
  CONST(ZKP_LOG_TRACE); CONST(ZKP_LOG_DEBUG); CONST(ZKP_LOG_INFO); CONST(ZKP_LOG_WARN); CONST(ZKP_LOG_ERROR);
  CONST(ZKP_SCALAR_SIZE); CONST(ZKP_PROOF_SIZE_BN254); CONST(ZKP_PROOF_SIZE_BLS12_381);
  CONST(ZKP_PROVER_FLAG_SIMULATED); CONST(ZKP_PROVER_FLAG_GPU); CONST(ZKP_PROVER_FLAG_VERIFY);
  CONST(ZKP_WITNESS_NONE); CONST(ZKP_WITNESS_WTNS_FILE); CONST(ZKP_WITNESS_WTNS_BUFFER); CONST(ZKP_WITNESS_ASSIGNMENT);
  CONST(ZKP_PROVE_INPUT_FINAL); CONST(ZKP_PROVE_OUTPUT_VERIFIED);
  CONST(ZKP_PACER_WAIT_FOR_EVENT);
  CONST(ZKP_PACER_EVENT_ADMITTED); CONST(ZKP_PACER_EVENT_SYNTHESIS_DONE); CONST(ZKP_PACER_EVENT_GPU_START);
  CONST(ZKP_PACER_EVENT_GPU_DONE); CONST(ZKP_PACER_EVENT_FAILED); CONST(ZKP_PACER_EVENT_REQUEUED);
  CONST(ZKP_COMPLETION_SIMULATED); CONST(ZKP_COMPLETION_SELF_CHECKED);
  CONST(ZKP_SHUTDOWN_DRAIN); CONST(ZKP_SHUTDOWN_CANCEL);
  STRING(ZKP_PROVER_FACTORY_ID); STRING(ZKP_PACER_FACTORY_ID); STRING(ZKP_PLUGIN_ENTRY_SYMBOL);
  for (zkp_status_t s = 0; s <= ZKP_STATUS_COUNT; ++s) printf("status_name %d %s\n", (int)s, zkp_status_name(s));
  return 0;
}
