//! Jobs that borrow their buffers: the scope waits for every job it submitted before the
//! borrow ends, so the host never reads freed memory (zkp_job_t's lifetime rule), and
//! `mem::forget` on a handle cannot break that (the scope, not the handle, waits).
use crate::host::{Host, Key};
use crate::job::JobBuilder;
use std::marker::PhantomData;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Mutex;
use zkpipe_sys as sys;

/// Submits jobs whose partitions borrow data that outlives the scope. See [`Host::scope`].
pub struct Scope<'scope, 'env: 'scope> {
    host: &'env Host,
    jobs: Mutex<Vec<u64>>,
    // Invariant in both lifetimes, as std::thread::Scope, so neither can be shortened.
    _scope: PhantomData<&'scope mut &'scope ()>,
    _env: PhantomData<&'env mut &'env ()>,
}

impl<'scope> Scope<'scope, '_> {
    /// A job whose partitions and closure may borrow for `'scope`.
    pub fn job(&'scope self, key: &Key) -> JobBuilder<'scope, 'scope> {
        JobBuilder::new(self.host, Some(&self.jobs), key)
    }
}

impl Host {
    /// Runs `f` with a [`Scope`] for jobs that borrow buffers, then waits for every job
    /// submitted through it (even if `f` panics) before returning.
    ///
    /// Must not be called from a completion callback: there the host cannot wait, and
    /// rather than let borrowed buffers die under a running job the process aborts.
    pub fn scope<'env, T>(&'env self, f: impl for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> T) -> T {
        let scope = Scope { host: self, jobs: Mutex::new(Vec::new()), _scope: PhantomData, _env: PhantomData };
        let result = catch_unwind(AssertUnwindSafe(|| f(&scope)));
        for id in scope.jobs.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let mut err = sys::zkp_error_t::new();
            if unsafe { sys::zkp_host_wait(self.raw(), *id, -1, &mut err) } != sys::ZKP_OK {
                eprintln!("zkpipe: Host::scope cannot wait for job {id}; aborting rather than free buffers it reads");
                std::process::abort();
            }
        }
        result.unwrap_or_else(|p| resume_unwind(p))
    }

    /// A job whose partitions own their data (files, `Vec`s) and whose closure is `'static`.
    pub fn job(&self, key: &Key) -> JobBuilder<'_, 'static> {
        JobBuilder::new(self, None, key)
    }
}
