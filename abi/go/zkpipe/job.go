package zkpipe

/*
#include <stdlib.h>
#include <zkpipe/zkpipe.h>

void zkp_go_set_callbacks(zkp_job_t *job);
*/
import "C"

import (
	"context"
	"fmt"
	"runtime/cgo"
	"sync"
	"time"
	"unsafe"
)

// ScalarSize is the bytes of one scalar: little-endian, standard form, below the group order.
const ScalarSize = C.ZKP_SCALAR_SIZE

// Synthesized holds inputs the caller synthesized (the bellperson path): A·w, B·w and C·w
// on the domain (one length, each a multiple of ScalarSize bytes) and the full assignment.
type Synthesized struct {
	A, B, C, Assignment []byte
}

// Partition is one proof of a job; set exactly one field (none: the simulated prover).
type Partition struct {
	WitnessFile string       // a snarkjs .wtns file
	Witness     []byte       // .wtns bytes
	Assignment  []byte       // the full assignment, n_vars scalars
	Synthesized *Synthesized // caller-synthesized inputs
	// Input: the circuit's input.json text; the host computes the witness with the key's
	// witness generator (KeySource.WitnessGenerator).
	Input []byte
}

// JobOptions are the job's placement and order.
type JobOptions struct {
	Pin      bool  // false (the zero value): any device; true: every partition runs on GPUIndex
	GPUIndex int32 // the device, when Pin is set
	Priority int32 // higher runs first; FIFO among equals
	// Randomness: nil for fresh (r, s) from the OS CSPRNG per proof, which zero knowledge
	// needs; else 64 bytes r || s per partition, for reproducible tests.
	Randomness []byte
}

// Completion is one finished partition.
type Completion struct {
	JobID        uint64
	Partition    uint32
	Err          error // nil on success, else an *Error
	GPUIndex     int32 // -1 if it never reached a device
	Worker       uint32
	GPUDuration  time.Duration
	Synthesis    time.Duration
	QueueWait    time.Duration
	Total        time.Duration
	Curve        Curve
	Simulated    bool   // a simulated prover: no proof
	SelfChecked  bool   // the proof was verified before delivery
	Proof        []byte // A | B | C in the ABI's format; nil if none
	PublicInputs []byte // n_public scalars; nil if none
}

// Summary is a finished job.
type Summary struct {
	JobID                                    uint64
	Err                                      error // nil if every partition succeeded, else the first failure's status
	Partitions, Succeeded, Failed, Cancelled uint32
	Wall                                     time.Duration
}

// Job is a submitted job. Read its completions from Completions (closed once all have
// been delivered) or just Wait.
type Job struct {
	ID             uint64
	Completions    <-chan Completion
	host           *Host
	done           chan struct{}
	inputsReleased chan struct{}
	summary        Summary
}

// jobState is what the callbacks reach through the handle: the channel, and the C memory
// the host reads until the summary arrives.
type jobState struct {
	mu          sync.Mutex
	job         *Job
	completions chan Completion
	allocs      []unsafe.Pointer   // the job's own C memory (records, randomness)
	parts       [][]unsafe.Pointer // each partition's C copies, freed once zkpipe reads them no more
	released    int                // partitions whose inputs were released, of `partitions`
	partitions  int
	handle      cgo.Handle
	userData    *C.uintptr_t
}

func (s *jobState) cbytes(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	p := C.CBytes(b)
	s.allocs = append(s.allocs, p)
	return p
}

func (s *jobState) calloc(size C.size_t) unsafe.Pointer {
	p := C.calloc(1, size)
	s.allocs = append(s.allocs, p)
	return p
}

func (s *jobState) free() {
	for _, p := range s.allocs {
		C.free(p)
	}
	s.allocs = nil
	for _, part := range s.parts {
		freeAll(part)
	}
	s.parts = nil
	C.free(unsafe.Pointer(s.userData))
	s.handle.Delete()
}

// Submit submits a job of partitions for key. Cancelling ctx cancels the job: pending
// partitions complete with StatusCancelled, those on a device finish. Every buffer is
// copied into C memory (freed when the job ends), so the caller may reuse its slices.
func (h *Host) Submit(ctx context.Context, key Key, parts []Partition, opts JobOptions) (*Job, error) {
	if opts.Randomness != nil && len(opts.Randomness) != 64*len(parts) {
		return nil, &Error{StatusInvalidArgument, fmt.Sprintf("%d bytes of randomness for %d partitions (64 each)", len(opts.Randomness), len(parts))}
	}
	j := &Job{host: h, done: make(chan struct{}), inputsReleased: make(chan struct{})}
	// Buffered for every partition: the callback never blocks the host's completion thread.
	st := &jobState{job: j, completions: make(chan Completion, len(parts))}
	j.Completions = st.completions

	n := len(parts)
	var cparts *C.zkp_partition_t
	if n > 0 {
		cparts = (*C.zkp_partition_t)(st.calloc(C.size_t(n) * C.sizeof_zkp_partition_t))
	}
	list := unsafe.Slice(cparts, n)
	st.parts = make([][]unsafe.Pointer, n)
	st.partitions = n
	for i, p := range parts {
		// What fill allocates is the partition's: freed when zkpipe releases its input.
		before := len(st.allocs)
		err := st.fill(&list[i], p)
		st.parts[i] = append([]unsafe.Pointer(nil), st.allocs[before:]...)
		st.allocs = st.allocs[:before]
		if err != nil {
			freeAll(st.allocs)
			for _, part := range st.parts {
				freeAll(part)
			}
			return nil, err
		}
	}
	if n == 0 {
		close(j.inputsReleased)
	}
	job := (*C.zkp_job_t)(st.calloc(C.sizeof_zkp_job_t))
	job.header.struct_size = C.sizeof_zkp_job_t
	job.header.struct_version = 1
	job.key_id = C.uint64_t(key.ID)
	job.partitions = cparts
	job.partition_count = C.uint32_t(n)
	job.gpu_index = -1
	if opts.Pin {
		job.gpu_index = C.int32_t(opts.GPUIndex)
	}
	job.priority = C.int32_t(opts.Priority)
	job.randomness = (*C.uint8_t)(st.cbytes(opts.Randomness))
	st.handle = cgo.NewHandle(st)
	// user_data points at C memory holding the handle: C never holds a Go pointer.
	st.userData = (*C.uintptr_t)(C.malloc(C.sizeof_uintptr_t))
	*st.userData = C.uintptr_t(st.handle)
	job.user_data = unsafe.Pointer(st.userData)
	C.zkp_go_set_callbacks(job)

	// The state's lock is held until j.ID is set, so a fast callback waits for it.
	st.mu.Lock()
	err := h.with(func(raw *C.zkp_host_t) error {
		var id C.uint64_t
		e := newError()
		if err := check(C.zkp_host_submit(raw, job, &id, e), e); err != nil {
			return err
		}
		j.ID = uint64(id)
		return nil
	})
	st.mu.Unlock()
	if err != nil {
		st.free() // nothing was submitted: no callback will free it
		return nil, err
	}
	go j.cancelOnDone(ctx)
	return j, nil
}

func freeAll(ps []unsafe.Pointer) {
	for _, p := range ps {
		C.free(p)
	}
}

func (s *jobState) fill(cp *C.zkp_partition_t, p Partition) error {
	cp.header.struct_size = C.sizeof_zkp_partition_t
	cp.header.struct_version = 1
	w := &cp.witness
	w.header.struct_size = C.sizeof_zkp_witness_t
	w.header.struct_version = 1
	switch {
	case p.Synthesized != nil:
		sy := p.Synthesized
		if len(sy.A) != len(sy.B) || len(sy.B) != len(sy.C) || len(sy.A)%ScalarSize != 0 || len(sy.Assignment)%ScalarSize != 0 {
			return &Error{StatusInvalidArgument, fmt.Sprintf("a, b, c (%d, %d, %d bytes) must have one length, and they and the assignment (%d bytes) whole scalars",
				len(sy.A), len(sy.B), len(sy.C), len(sy.Assignment))}
		}
		cs := (*C.zkp_synthesized_t)(s.calloc(C.sizeof_zkp_synthesized_t))
		cs.header.struct_size = C.sizeof_zkp_synthesized_t
		cs.header.struct_version = 1
		cs.a = (*C.uint8_t)(s.cbytes(sy.A))
		cs.b = (*C.uint8_t)(s.cbytes(sy.B))
		cs.c = (*C.uint8_t)(s.cbytes(sy.C))
		cs.abc_length = C.uint64_t(len(sy.A) / ScalarSize)
		cs.assignment = (*C.uint8_t)(s.cbytes(sy.Assignment))
		cs.assignment_length = C.uint64_t(len(sy.Assignment) / ScalarSize)
		cp.synthesized = cs
	case p.WitnessFile != "":
		w.kind = C.ZKP_WITNESS_WTNS_FILE
		path := C.CString(p.WitnessFile)
		s.allocs = append(s.allocs, unsafe.Pointer(path))
		w.path = path
	case p.Witness != nil:
		w.kind = C.ZKP_WITNESS_WTNS_BUFFER
		w.data, w.size = s.cbytes(p.Witness), C.size_t(len(p.Witness))
	case p.Assignment != nil:
		w.kind = C.ZKP_WITNESS_ASSIGNMENT
		w.data, w.size = s.cbytes(p.Assignment), C.size_t(len(p.Assignment))
	case p.Input != nil:
		w.kind = C.ZKP_WITNESS_INPUT_JSON
		w.data, w.size = s.cbytes(p.Input), C.size_t(len(p.Input))
	default:
		w.kind = C.ZKP_WITNESS_NONE
	}
	return nil
}

// cancelOnDone maps the context's cancellation to zkp_host_cancel until the job ends.
func (j *Job) cancelOnDone(ctx context.Context) {
	select {
	case <-ctx.Done():
		_ = j.Cancel() // StatusNotFound if it finished meanwhile: nothing to cancel
	case <-j.done:
	}
}

// Cancel cancels the job. StatusNotFound once it has finished.
func (j *Job) Cancel() error {
	return j.host.with(func(raw *C.zkp_host_t) error {
		e := newError()
		return check(C.zkp_host_cancel(raw, C.uint64_t(j.ID), e), e)
	})
}

// Wait blocks until the job has finished and every completion has been delivered to the
// channel, and returns its summary. Partition failures are in the summary and the
// completions, not in the returned error.
func (j *Job) Wait() Summary {
	<-j.done
	return j.summary
}

// Done is closed when the job has finished.
func (j *Job) Done() <-chan struct{} { return j.done }

// InputsReleased is closed once zkpipe reads none of the job's inputs (zkp_job_t's
// on_input_released for every partition); by then the package has freed its C copies of
// them. On a prover that says so early (cuda, cpu) a caller-synthesized partition's copy goes
// before its proof's epilogue; every other partition's at its completion, so the channel is
// closed before Done.
func (j *Job) InputsReleased() <-chan struct{} { return j.inputsReleased }

func stateOf(user unsafe.Pointer) *jobState {
	return cgo.Handle(*(*C.uintptr_t)(user)).Value().(*jobState)
}

func statusErr(status C.zkp_status_t, message string) error {
	if status == C.ZKP_OK {
		return nil
	}
	return &Error{Status(status), message}
}

//export goOnPartition
func goOnPartition(user unsafe.Pointer, r *C.zkp_completion_t) {
	st := stateOf(user)
	var msg string
	if r.message != nil {
		msg = C.GoString(r.message)
	}
	c := Completion{
		JobID: uint64(r.job_id), Partition: uint32(r.partition), Err: statusErr(r.status, msg),
		GPUIndex: int32(r.gpu_index), Worker: uint32(r.worker),
		GPUDuration: time.Duration(r.gpu_duration_ns), Synthesis: time.Duration(r.synthesis_ns),
		QueueWait: time.Duration(r.queue_wait_ns), Total: time.Duration(r.total_ns), Curve: Curve(r.curve),
		Simulated: r.flags&C.ZKP_COMPLETION_SIMULATED != 0, SelfChecked: r.flags&C.ZKP_COMPLETION_SELF_CHECKED != 0,
	}
	if r.proof != nil && r.proof_size > 0 {
		c.Proof = C.GoBytes(unsafe.Pointer(r.proof), C.int(r.proof_size))
	}
	if r.public_inputs != nil && r.public_size > 0 {
		c.PublicInputs = C.GoBytes(unsafe.Pointer(r.public_inputs), C.int(r.public_size))
	}
	st.completions <- c // never blocks: the buffer holds every partition
}

//export goOnInputReleased
func goOnInputReleased(user unsafe.Pointer, partition C.uint32_t) {
	st := stateOf(user)
	st.mu.Lock() // Submit has set the job's ID; goOnJob frees under the same lock
	defer st.mu.Unlock()
	if int(partition) < len(st.parts) {
		freeAll(st.parts[partition])
		st.parts[partition] = nil
	}
	st.released++
	if st.released == st.partitions {
		close(st.job.inputsReleased)
	}
}

//export goOnJob
func goOnJob(user unsafe.Pointer, s *C.zkp_job_summary_t) {
	st := stateOf(user)
	st.mu.Lock() // Submit has set the job's ID
	defer st.mu.Unlock()
	st.job.summary = Summary{
		JobID: uint64(s.job_id), Err: statusErr(s.status, ""), Partitions: uint32(s.partitions),
		Succeeded: uint32(s.succeeded), Failed: uint32(s.failed), Cancelled: uint32(s.cancelled), Wall: time.Duration(s.wall_ns),
	}
	close(st.completions)
	st.free()
	close(st.job.done)
}
