//! Building, submitting and following a job.
use crate::callbacks::{self, JobState, Outcome, Released, Sink};
use crate::completion::{Completion, Summary};
use crate::error::{call, Error, Result};
use crate::host::{cstring, Host, Key};
use crate::partition::{Density, Input, Partition, Synthesized};
use crate::scalar::Scalar;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;
use std::{ffi::c_void, ptr};
use zkpipe_sys as sys;

/// A job being put together: `host.job(&key)` or, for borrowed buffers,
/// `scope.job(&key)` inside [`Host::scope`].
///
/// Completions go to the closure given to [`on_completion`](Self::on_completion), or, without
/// one, to the job's channel ([`Job::completions`]).
#[must_use = "a job does nothing until it is submitted"]
pub struct JobBuilder<'h, 'a> {
    host: &'h Host,
    scope_jobs: Option<&'h Mutex<Vec<u64>>>,
    key_id: u64,
    gpu_index: i32,
    priority: i32,
    randomness: Option<Vec<u8>>,
    partitions: Vec<Partition<'a>>,
    on_completion: Option<Box<dyn FnMut(Completion) + Send + 'a>>,
}

impl<'h, 'a> JobBuilder<'h, 'a> {
    pub(crate) fn new(host: &'h Host, scope_jobs: Option<&'h Mutex<Vec<u64>>>, key: &Key) -> Self {
        JobBuilder { host, scope_jobs, key_id: key.id, gpu_index: -1, priority: 0, randomness: None, partitions: Vec::new(), on_completion: None }
    }

    /// Runs every partition on this device (default: any device).
    pub fn gpu_index(mut self, gpu_index: u32) -> Self {
        self.gpu_index = i32::try_from(gpu_index).unwrap_or(i32::MAX);
        self
    }

    /// Higher runs first; FIFO among equals (default 0).
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    pub fn partition(mut self, partition: Partition<'a>) -> Self {
        self.partitions.push(partition);
        self
    }

    pub fn partitions(mut self, partitions: impl IntoIterator<Item = Partition<'a>>) -> Self {
        self.partitions.extend(partitions);
        self
    }

    /// Fixed (r, s) per partition, in partition order, for reproducible tests. Without it
    /// every proof draws fresh randomness from the OS CSPRNG, which zero knowledge needs.
    pub fn fixed_randomness(mut self, r_s: &[(Scalar, Scalar)]) -> Self {
        self.randomness = Some(r_s.iter().flat_map(|(r, s)| r.0.into_iter().chain(s.0)).collect());
        self
    }

    /// Delivers each completion to `f`, on the host's completion thread, one at a time.
    /// A panic in `f` is caught there; `f` is not called again for this job and
    /// [`Job::wait`] returns [`Error::CallbackPanicked`].
    pub fn on_completion(mut self, f: impl FnMut(Completion) + Send + 'a) -> Self {
        self.on_completion = Some(Box::new(f));
        self
    }

    /// Submits the job. On failure nothing was submitted.
    pub fn submit(self) -> Result<Job<'h>> {
        if let Some(r) = &self.randomness {
            if r.len() != self.partitions.len() * 64 {
                return Err(Error::InvalidArgument(format!("{} (r, s) pairs for {} partitions", r.len() / 64, self.partitions.len())));
            }
        }
        let partition_count = u32::try_from(self.partitions.len()).map_err(|_| Error::InvalidArgument("too many partitions".into()))?;
        let outcome = Arc::new(Mutex::new(Outcome::default()));
        let (sink, completions) = match self.on_completion {
            Some(f) => (Sink::Closure(f), None),
            None => {
                let (tx, rx) = mpsc::channel();
                (Sink::Channel(tx), Some(rx))
            }
        };
        let released = Arc::new(Released::default());
        let mut state = Box::new(JobState {
            partitions: self.partitions,
            paths: Vec::new(),
            synthesized: Vec::new(),
            sink: Mutex::new(sink),
            outcome: Arc::clone(&outcome),
            released: Arc::clone(&released),
        });
        let raw_partitions = raw_partitions(&mut state)?;
        let job = sys::zkp_job_t {
            header: sys::zkp_struct_header_t::of::<sys::zkp_job_t>(),
            key_id: self.key_id,
            partitions: raw_partitions.as_ptr(),
            partition_count,
            gpu_index: self.gpu_index,
            priority: self.priority,
            randomness: self.randomness.as_ref().map_or(ptr::null(), |r| r.as_ptr()),
            on_partition: Some(callbacks::on_partition),
            on_job: Some(callbacks::on_job),
            user_data: Box::into_raw(state).cast::<c_void>(),
            on_input_released: Some(callbacks::on_input_released),
        };
        let mut id = 0u64;
        if let Err(e) = call(|err| unsafe { sys::zkp_host_submit(self.host.raw(), &job, &mut id, err) }) {
            // Nothing was submitted, so no callback will free the state.
            drop(unsafe { Box::from_raw(job.user_data.cast::<JobState>()) });
            return Err(e);
        }
        if let Some(jobs) = self.scope_jobs {
            jobs.lock().unwrap_or_else(|e| e.into_inner()).push(id);
        }
        Ok(Job { host: self.host, id, outcome, completions, released, partitions: partition_count })
    }
}

/// The raw partition records for `state`, pointing into it. The array itself is copied
/// at submit; what it points to lives in the state.
fn raw_partitions(state: &mut JobState<'_>) -> Result<Vec<sys::zkp_partition_t>> {
    let blank_witness = sys::zkp_witness_t {
        header: sys::zkp_struct_header_t::of::<sys::zkp_witness_t>(),
        kind: sys::ZKP_WITNESS_NONE,
        path: ptr::null(),
        data: ptr::null(),
        size: 0,
    };
    // First every owned C string and synthesized record, so the Vecs do not move later.
    for p in &state.partitions {
        match &p.0 {
            Input::WtnsFile(path) => state.paths.push(cstring(path.as_os_str().as_encoded_bytes(), "witness path")?),
            Input::Synthesized(s) => state.synthesized.push(raw_synthesized(s)?),
            _ => {}
        }
    }
    let (mut paths, mut synthesized) = (state.paths.iter(), state.synthesized.iter());
    let raw = state
        .partitions
        .iter()
        .map(|p| {
            let mut w = blank_witness;
            let mut external = ptr::null();
            match &p.0 {
                Input::Simulated => {}
                Input::WtnsFile(_) => {
                    w.kind = sys::ZKP_WITNESS_WTNS_FILE;
                    w.path = paths.next().expect("one path per file partition").as_ptr();
                }
                Input::WtnsBuffer(b) => {
                    w.kind = sys::ZKP_WITNESS_WTNS_BUFFER;
                    (w.data, w.size) = (b.as_ptr().cast(), b.len());
                }
                Input::Assignment(a) => {
                    w.kind = sys::ZKP_WITNESS_ASSIGNMENT;
                    (w.data, w.size) = (a.as_ptr().cast(), a.len() * 32);
                }
                Input::Json(j) => {
                    w.kind = sys::ZKP_WITNESS_INPUT_JSON;
                    (w.data, w.size) = (j.as_ptr().cast(), j.len());
                }
                Input::Synthesized(_) => external = synthesized.next().expect("one record per synthesized partition") as *const _,
            }
            sys::zkp_partition_t { header: sys::zkp_struct_header_t::of::<sys::zkp_partition_t>(), witness: w, synthesized: external }
        })
        .collect();
    Ok(raw)
}

/// The raw record of `s`, pointing into its buffers (which the job state keeps).
fn raw_synthesized(s: &Synthesized<'_>) -> Result<sys::zkp_synthesized_t> {
    let abc_length = s.check()?;
    let density = |d: &Option<Density<'_>>| d.as_ref().map_or((ptr::null(), 0), |d| (d.words.as_ptr(), d.bit_len));
    let (a_aux_density, a_aux_bit_len) = density(&s.a_aux_density);
    let (b_input_density, b_input_bit_len) = density(&s.b_input_density);
    let (b_aux_density, b_aux_bit_len) = density(&s.b_aux_density);
    let aux = s.aux_assignment.as_deref();
    Ok(sys::zkp_synthesized_t {
        header: sys::zkp_struct_header_t::of::<sys::zkp_synthesized_t>(),
        a: s.a.as_ptr().cast(),
        b: s.b.as_ptr().cast(),
        c: s.c.as_ptr().cast(),
        abc_length,
        assignment: s.assignment.as_ptr().cast(),
        assignment_length: s.assignment.len() as u64,
        flags: if s.montgomery { sys::ZKP_SYNTHESIZED_MONTGOMERY } else { 0 },
        aux_assignment: aux.map_or(ptr::null(), |a| a.as_ptr().cast()),
        aux_assignment_length: aux.map_or(0, |a| a.len() as u64),
        a_aux_density,
        a_aux_bit_len,
        b_input_density,
        b_input_bit_len,
        b_aux_density,
        b_aux_bit_len,
    })
}

/// A submitted job. It does not own the job: dropping the handle leaves the job running
/// (its buffers stay alive until its summary arrives) and drops its undelivered completions.
///
/// `Send`; not `Sync` when completions come through the channel (an `mpsc::Receiver`).
pub struct Job<'h> {
    host: &'h Host,
    id: u64,
    outcome: Arc<Mutex<Outcome>>,
    completions: Option<mpsc::Receiver<Completion>>,
    released: Arc<Released>,
    partitions: u32,
}

impl Job<'_> {
    /// The host's id of the job (never 0).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Cancels the job: pending partitions complete as cancelled, those on a device finish.
    /// Fails with `Status::NotFound` once the job has finished.
    pub fn cancel(&self) -> Result<()> {
        call(|err| unsafe { sys::zkp_host_cancel(self.host.raw(), self.id, err) })
    }

    /// Waits until the job has finished and every callback has returned. Must not be
    /// called from a completion callback (the host refuses: `Status::InvalidArgument`).
    pub fn wait(&self) -> Result<Summary> {
        self.wait_ms(-1)
    }

    /// As [`wait`](Self::wait), at most `timeout`; then `Status::Timeout`, nothing lost.
    pub fn wait_timeout(&self, timeout: Duration) -> Result<Summary> {
        self.wait_ms(i64::try_from(timeout.as_millis()).unwrap_or(i64::MAX))
    }

    fn wait_ms(&self, ms: i64) -> Result<Summary> {
        call(|err| unsafe { sys::zkp_host_wait(self.host.raw(), self.id, ms, err) })?;
        let o = self.outcome.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = &o.panic {
            return Err(Error::CallbackPanicked(p.clone()));
        }
        o.summary.ok_or_else(|| Error::InvalidArgument(format!("job {} finished without a summary", self.id)))
    }

    /// Waits until zkpipe reads nothing more of any partition's input (`zkp_job_t.on_input_released`):
    /// the buffers a partition borrows may be reused from then on, before the job finishes.
    /// A partition's input is released before its completion is delivered, early where the
    /// prover can say so (a caller-synthesized partition on the cuda or cpu prover: once its
    /// proof's arithmetic is done, before the epilogue; such a partition is not retried on
    /// another device). Returns at once for a job whose partitions have all completed.
    pub fn wait_inputs_released(&self) {
        self.released.wait_for(self.partitions);
    }

    /// The completions, in the order partitions finish; the iterator ends when the job
    /// has finished. Empty when the job was given an `on_completion` closure.
    pub fn completions(&self) -> impl Iterator<Item = Completion> + '_ {
        self.completions.iter().flat_map(|rx| rx.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bellperson_synthesis_reaches_the_record_in_place() {
        let (abc, inp, aux) = (vec![Scalar::ONE; 4], vec![Scalar::ONE; 2], vec![Scalar::ONE; 70]);
        let (a_aux, b_inp, b_aux) = ([u64::MAX, 1], [0b10], [7, 0]);
        let s = Synthesized::new(&abc[..], &abc[..], &abc[..], &inp[..])
            .with_aux_assignment(&aux[..])
            .with_densities(Density::new(&a_aux[..], 70), Density::new(&b_inp[..], 2), Density::new(&b_aux[..], 70))
            .in_montgomery_form();
        let r = raw_synthesized(&s).unwrap();
        assert_eq!((r.flags, r.abc_length, r.assignment_length, r.aux_assignment_length), (sys::ZKP_SYNTHESIZED_MONTGOMERY, 4, 2, 70));
        assert_eq!((r.a.cast::<Scalar>(), r.assignment.cast::<Scalar>(), r.aux_assignment.cast::<Scalar>()), (abc.as_ptr(), inp.as_ptr(), aux.as_ptr()));
        assert_eq!((r.a_aux_density, r.b_input_density, r.b_aux_density), (a_aux.as_ptr(), b_inp.as_ptr(), b_aux.as_ptr()));
        assert_eq!((r.a_aux_bit_len, r.b_input_bit_len, r.b_aux_bit_len), (70, 2, 70));
        assert_eq!(r.header.struct_size as usize, std::mem::size_of::<sys::zkp_synthesized_t>());
    }

    #[test]
    fn a_zkey_synthesis_leaves_the_bellperson_fields_empty() {
        let v = [Scalar::ONE; 3];
        let r = raw_synthesized(&Synthesized::new(&v[..], &v[..], &v[..], &v[..])).unwrap();
        assert_eq!((r.flags, r.aux_assignment, r.aux_assignment_length), (0, ptr::null(), 0));
        assert_eq!((r.a_aux_density, r.b_input_density, r.b_aux_density), (ptr::null(), ptr::null(), ptr::null()));
        assert_eq!((r.a_aux_bit_len, r.b_input_bit_len, r.b_aux_bit_len), (0, 0, 0));
    }

    #[test]
    fn a_density_shorter_than_its_bit_length_is_refused_by_name() {
        let v = [Scalar::ONE; 3];
        let s = |d: Density<'static>| Synthesized::new(&v[..], &v[..], &v[..], &v[..]).with_densities(Density::new(vec![0], 1), d, Density::new(vec![0], 64));
        let e = raw_synthesized(&s(Density::new(vec![0], 65))).unwrap_err();
        assert_eq!(e, Error::InvalidArgument("b_input_density has 1 words (64 bits) for a bit length of 65".into()));
        raw_synthesized(&s(Density::new(vec![0], 64))).unwrap();
        let e = raw_synthesized(&Synthesized::new(&v[..], &v[..2], &v[..], &v[..])).unwrap_err();
        assert!(e.to_string().contains("they have 3, 2 and 3"), "{e}");
    }
}
