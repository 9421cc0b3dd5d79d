//! zkpipe-sys against the C compiler: layout.c prints, for the headers of abi/zkpipe/zkpipe.h,
//! every struct's size and alignment, every field's offset and every constant; this test prints
//! the same facts from the Rust declarations and asserts the two lists are equal.
//! The compiler is $CC (CMake passes its own), else `cc`.
use std::collections::BTreeSet;
use std::mem::{align_of, offset_of, size_of};
use std::path::Path;
use std::process::Command;
use zkpipe_sys::*;

fn c_facts() -> BTreeSet<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let abi = manifest.join("../..");
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("zkpipe_layout_c");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(&abi)
        .arg(manifest.join("tests/layout.c"))
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {cc:?}: {e}"));
    assert!(status.success(), "{cc} failed to compile tests/layout.c");
    let out = Command::new(&exe).output().expect("run the layout program");
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_owned).collect()
}

macro_rules! layout {
    ($out:ident, $t:ident $(, $f:ident $(= $cname:ident)?)*) => {{
        $out.insert(format!("size {} {}", stringify!($t), size_of::<$t>()));
        $out.insert(format!("align {} {}", stringify!($t), align_of::<$t>()));
        $( $out.insert(format!("offset {}.{} {}", stringify!($t), layout!(@name $f $($cname)?), offset_of!($t, $f))); )*
    }};
    (@name $f:ident) => { stringify!($f) };
    (@name $f:ident $cname:ident) => { stringify!($cname) };
}

macro_rules! consts {
    ($out:ident, $($c:ident),* $(,)?) => {
        $( $out.insert(format!("const {} {}", stringify!($c), $c as u64)); )*
    };
}

fn rust_facts() -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    layout!(s, zkp_struct_header_t, struct_size, struct_version);
    layout!(s, zkp_error_t, header, status, message);
    layout!(s, zkp_option_t, key, value);
    layout!(s, zkp_host_services_t, header, host_data, log, now_ns);
    layout!(s, zkp_plugin_entry_t, header, abi_version_min, abi_version_max, name, version, description, init, deinit, get_factory);
    layout!(s, zkp_device_info_t, header, name, memory_bytes, memory_free_bytes, partitions_started, partitions_proved, busy_ns);
    layout!(s, zkp_key_source_t, header, path, data, size, format, witness_generator);
    layout!(s, zkp_key_info_t, header, curve, n_vars, n_public, domain_size, synthesis_bytes, proof_size, public_size,
        synthesized_bytes, device_bytes);
    layout!(s, zkp_witness_t, header, kind, path, data, size);
    layout!(s, zkp_synthesized_t, header, a, b, c, abc_length, assignment, assignment_length, flags, aux_assignment,
        aux_assignment_length, a_aux_density, a_aux_bit_len, b_input_density, b_input_bit_len, b_aux_density, b_aux_bit_len);
    layout!(s, zkp_prove_input_t, header, synthesis, external, randomness, flags);
    layout!(s, zkp_prove_output_t, header, proof, proof_capacity, proof_size, public_inputs, public_capacity, public_size,
        gpu_index, gpu_duration_ns, epilogue_ns, msm_ns, ntt_ns, flags);
    layout!(s, zkp_prover_t, header, impl_ = impl, name, flags, destroy, device_count, device_info, key_load, key_info,
        key_free, synthesize, synthesis_free, prove_start, prove_finish, verify, synthesize_into, prove_wait);
    layout!(s, zkp_prover_facts_t, header, workers_per_device, synthesis_threads, ops_per_worker);
    layout!(s, zkp_prover_factory_t, header, options_help, create, create_with_facts);
    layout!(s, zkp_pacer_facts_t, header, device_count, workers_per_device, synthesis_threads, budget_bytes, start_ns);
    layout!(s, zkp_pipeline_state_t, header, now_ns, pending, synthesizing, waiting, proving, budget_used_bytes,
        budget_total_bytes, next_partition_bytes);
    layout!(s, zkp_pacer_event_t, header, kind, job_id, partition, gpu_index, worker, gpu_duration_ns, synthesis_ns, bytes, state);
    layout!(s, zkp_pacer_t, header, impl_ = impl, name, destroy, on_event, next_admission_ns, status_line);
    layout!(s, zkp_pacer_factory_t, header, options_help, create);
    layout!(s, zkp_witness_circuit_t, header, curve, n_signals, n_outputs, n_inputs, name);
    layout!(s, zkp_witness_generator_t, header, impl_ = impl, name, destroy, circuit, calculate);
    layout!(s, zkp_witness_factory_t, header, options_help, create);
    layout!(s, zkp_partition_t, header, witness, synthesized);
    layout!(s, zkp_completion_t, header, job_id, partition, status, message, gpu_index, worker, gpu_duration_ns,
        synthesis_ns, queue_wait_ns, total_ns, curve, flags, proof, proof_size, public_inputs, public_size);
    layout!(s, zkp_job_summary_t, header, job_id, status, partitions, succeeded, failed, cancelled, wall_ns);
    layout!(s, zkp_job_t, header, key_id, partitions, partition_count, gpu_index, priority, randomness, on_partition, on_job, user_data,
        on_input_released);
    layout!(s, zkp_host_stats_t, header, jobs_submitted, jobs_finished, partitions_succeeded, partitions_failed, pending,
        synthesizing, waiting, proving, budget_total_bytes, budget_used_bytes, budget_peak_bytes, device_count, workers_per_device,
        admission_stalls, admission_interval_ns, device_restarts, devices_quarantined);
    layout!(s, zkp_log_record_t, header, level, logger, message, message_size, unix_time_ns);
    layout!(s, zkp_status_t);
    layout!(s, zkp_curve_t);
    layout!(s, zkp_log_level_t);
    layout!(s, zkp_witness_kind_t);
    layout!(s, zkp_pacer_event_kind_t);
    layout!(s, zkp_shutdown_mode_t);
    consts!(s, ZKP_ABI_VERSION, ZKP_ABI_VERSION_MIN_SUPPORTED,
        ZKP_OK, ZKP_ERR_INVALID_ARGUMENT, ZKP_ERR_NOT_FOUND, ZKP_ERR_ABI_MISMATCH, ZKP_ERR_BAD_INPUT,
        ZKP_ERR_UNSATISFIED_WITNESS, ZKP_ERR_OUT_OF_MEMORY, ZKP_ERR_DEVICE, ZKP_ERR_BUDGET_EXHAUSTED, ZKP_ERR_CANCELLED,
        ZKP_ERR_SHORT_BUFFER, ZKP_ERR_UNSUPPORTED, ZKP_ERR_INTERNAL, ZKP_ERR_TIMEOUT, ZKP_ERR_INVALID_PROOF, ZKP_ERR_DEVICE_LOST,
        ZKP_STATUS_COUNT,
        ZKP_ERROR_MESSAGE_CAPACITY,
        ZKP_CURVE_UNKNOWN, ZKP_CURVE_BN254, ZKP_CURVE_BLS12_381,
        ZKP_LOG_TRACE, ZKP_LOG_DEBUG, ZKP_LOG_INFO, ZKP_LOG_WARN, ZKP_LOG_ERROR,
        ZKP_SCALAR_SIZE, ZKP_PROOF_SIZE_BN254, ZKP_PROOF_SIZE_BLS12_381,
        ZKP_PROVER_FLAG_SIMULATED, ZKP_PROVER_FLAG_GPU, ZKP_PROVER_FLAG_VERIFY,
        ZKP_WITNESS_NONE, ZKP_WITNESS_WTNS_FILE, ZKP_WITNESS_WTNS_BUFFER, ZKP_WITNESS_ASSIGNMENT,
        ZKP_PROVE_INPUT_FINAL, ZKP_PROVE_OUTPUT_VERIFIED, ZKP_PACER_WAIT_FOR_EVENT,
        ZKP_PACER_EVENT_ADMITTED, ZKP_PACER_EVENT_SYNTHESIS_DONE, ZKP_PACER_EVENT_GPU_START,
        ZKP_PACER_EVENT_GPU_DONE, ZKP_PACER_EVENT_FAILED, ZKP_PACER_EVENT_REQUEUED,
        ZKP_COMPLETION_SIMULATED, ZKP_COMPLETION_SELF_CHECKED, ZKP_SHUTDOWN_DRAIN, ZKP_SHUTDOWN_CANCEL);
    for (name, id) in [("ZKP_PROVER_FACTORY_ID", ZKP_PROVER_FACTORY_ID), ("ZKP_PACER_FACTORY_ID", ZKP_PACER_FACTORY_ID),
        ("ZKP_PLUGIN_ENTRY_SYMBOL", ZKP_PLUGIN_ENTRY_SYMBOL)] {
        s.insert(format!("string {name} {}", id.to_str().unwrap()));
    }
    for status in 0..=ZKP_STATUS_COUNT {
        s.insert(format!("status_name {status} {}", zkp_status_name(status)));
    }
    s
}

#[test]
fn rust_declarations_match_the_c_headers() {
    let c = c_facts();
    let rust = rust_facts();
    assert!(c.len() > 300, "the C program printed only {} facts", c.len());
    let only_c: Vec<_> = c.difference(&rust).collect();
    let only_rust: Vec<_> = rust.difference(&c).collect();
    assert!(only_c.is_empty() && only_rust.is_empty(), "C says {only_c:#?}\nRust says {only_rust:#?}");
}

#[test]
fn header_of_records_the_size_of_the_type() {
    let e = zkp_error_t::new();
    assert_eq!(e.header, zkp_struct_header_t { struct_size: size_of::<zkp_error_t>() as u32, struct_version: 1 });
}

#[test]
fn the_linked_library_speaks_this_abi_version() {
    assert_eq!(unsafe { zkp_host_abi_version() }, ZKP_ABI_VERSION);
}

#[test]
fn the_linked_library_exports_zkp_host_verify() {
    // Added after the first release: it links, and a NULL host is refused by name.
    let mut err = zkp_error_t::new();
    let status = unsafe { zkp_host_verify(std::ptr::null_mut(), 1, std::ptr::null(), 0, std::ptr::null(), 0, &mut err) };
    assert_eq!(status, ZKP_ERR_INVALID_ARGUMENT);
    assert_eq!(err.status, ZKP_ERR_INVALID_ARGUMENT);
    let message: Vec<u8> = err.message.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    assert_eq!(message, b"host is NULL");
}
