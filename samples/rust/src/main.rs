//! A Rust caller of zkpipe's C API: creates a host with the simulated prover on two
//! devices, submits one job pinned to gpu_index 1, and receives every partition's
//! completion (gpu_index, gpu_duration_ns) on the Rust side of the boundary. Exits
//! non-zero if any completion is missing, duplicated or ran on the wrong device.

mod ffi;

use ffi::*;
use std::ffi::{CStr, CString};
use std::os::raw::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::ptr;
use std::sync::Mutex;

const PARTITIONS: u32 = 6;
const PINNED_GPU: i32 = 1;

/// What the callbacks collect; shared with the host's completion thread through user_data.
#[derive(Default)]
struct Collected {
    completions: Vec<(u32, i32, u64, i32)>, // partition, gpu_index, gpu_duration_ns, status
    jobs_done: u32,
}

fn new_error() -> zkp_error_t {
    zkp_error_t { header: zkp_struct_header_t::of::<zkp_error_t>(), status: 0, message: [0; ZKP_ERROR_MESSAGE_CAPACITY] }
}

fn message(err: &zkp_error_t) -> String {
    unsafe { CStr::from_ptr(err.message.as_ptr()) }.to_string_lossy().into_owned()
}

// A panic must never unwind into C: catch it here and record nothing.
unsafe extern "C" fn on_partition(user: *mut c_void, record: *const zkp_completion_t) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let collected = &*(user as *const Mutex<Collected>);
        let r = &*record;
        collected.lock().unwrap().completions.push((r.partition, r.gpu_index, r.gpu_duration_ns, r.status));
    }));
}

unsafe extern "C" fn on_job(user: *mut c_void, _summary: *const zkp_job_summary_t) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let collected = &*(user as *const Mutex<Collected>);
        collected.lock().unwrap().jobs_done += 1;
    }));
}

fn run() -> Result<(), String> {
    println!("zkpipe ABI version {}", unsafe { zkp_host_abi_version() });
    let overrides: Vec<CString> = ["prover=sim", "pacer=greedy", "prover.devices=2", "prover.gpu_ms=20", "workers_per_device=2"]
        .iter()
        .map(|s| CString::new(*s).unwrap())
        .collect();
    let override_ptrs: Vec<*const i8> = overrides.iter().map(|s| s.as_ptr()).collect();

    let mut err = new_error();
    let mut host: *mut zkp_host_t = ptr::null_mut();
    if unsafe { zkp_host_create(ptr::null(), override_ptrs.as_ptr(), override_ptrs.len(), &mut host, &mut err) } != ZKP_OK {
        return Err(format!("zkp_host_create: {}", message(&err)));
    }

    let result = (|| {
        let source = zkp_key_source_t { header: zkp_struct_header_t::of::<zkp_key_source_t>(), path: ptr::null(), data: ptr::null(), size: 0 };
        let mut key_id = 0u64;
        if unsafe { zkp_host_load_key(host, &source, &mut key_id, &mut err) } != ZKP_OK {
            return Err(format!("zkp_host_load_key: {}", message(&err)));
        }

        let partitions: Vec<zkp_partition_t> = (0..PARTITIONS)
            .map(|_| zkp_partition_t {
                header: zkp_struct_header_t::of::<zkp_partition_t>(),
                witness: zkp_witness_t {
                    header: zkp_struct_header_t::of::<zkp_witness_t>(),
                    kind: ZKP_WITNESS_NONE,
                    path: ptr::null(),
                    data: ptr::null(),
                    size: 0,
                },
                synthesized: ptr::null(),
            })
            .collect();
        let collected = Box::new(Mutex::new(Collected::default()));
        let job = zkp_job_t {
            header: zkp_struct_header_t::of::<zkp_job_t>(),
            key_id,
            partitions: partitions.as_ptr(),
            partition_count: PARTITIONS,
            gpu_index: PINNED_GPU,
            priority: 0,
            randomness: ptr::null(),
            on_partition: Some(on_partition),
            on_job: Some(on_job),
            user_data: &*collected as *const Mutex<Collected> as *mut c_void,
        };
        let mut job_id = 0u64;
        if unsafe { zkp_host_submit(host, &job, &mut job_id, &mut err) } != ZKP_OK {
            return Err(format!("zkp_host_submit: {}", message(&err)));
        }
        if unsafe { zkp_host_wait(host, job_id, 60_000, &mut err) } != ZKP_OK {
            return Err(format!("zkp_host_wait: {}", message(&err)));
        }

        let c = collected.lock().unwrap();
        let mut seen = vec![0u32; PARTITIONS as usize];
        for &(partition, gpu, duration, status) in &c.completions {
            println!("job {job_id} partition {partition}: gpu_index {gpu}, gpu_duration {:.1} ms, status {status}", duration as f64 / 1e6);
            if status != ZKP_OK || gpu != PINNED_GPU || duration == 0 {
                return Err(format!("partition {partition}: status {status}, gpu_index {gpu}, duration {duration}"));
            }
            seen[partition as usize] += 1;
        }
        if seen.iter().any(|&n| n != 1) || c.jobs_done != 1 {
            return Err(format!("each partition must complete exactly once: {seen:?}, job callbacks {}", c.jobs_done));
        }
        println!("rust sample: {PARTITIONS} completions on gpu_index {PINNED_GPU} (simulated device: no proofs)");
        Ok(())
    })();
    unsafe { zkp_host_destroy(host, ZKP_SHUTDOWN_DRAIN) };
    result
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rust sample failed: {e}");
            ExitCode::FAILURE
        }
    }
}
