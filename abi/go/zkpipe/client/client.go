package client

// #include <stdlib.h>
// #include <zkpipe/zkp_client.h>
// #include <zkpipe/zkp_host.h>
import "C"

import (
	"errors"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"zkpipe"
)

// The statuses of zkp_client.h beside zkp_common.h's.
const (
	// StatusUnavailable: no zkpipe serve answers at the address. Try again later.
	StatusUnavailable zkpipe.Status = C.ZKP_CLIENT_ERR_UNAVAILABLE
	// StatusUnauthenticated: the server refused the bearer token (none, or a wrong one).
	StatusUnauthenticated zkpipe.Status = C.ZKP_CLIENT_ERR_UNAUTHENTICATED
)

// KeyFormat is how a key file is written (zkp_key_format_t).
type KeyFormat uint32

const (
	KeyFormatZkey       KeyFormat = C.ZKP_KEY_FORMAT_ZKEY       // a snarkjs Groth16 .zkey
	KeyFormatBellperson KeyFormat = C.ZKP_KEY_FORMAT_BELLPERSON // bellperson/Filecoin parameters
)

// Options say where and how to connect.
type Options struct {
	Address        string        // "unix:PATH" (or an absolute path) or "HOST:PORT"; "": serve.socket's default
	Token          string        // the bearer token every call carries (TCP servers require one) ...
	TokenFile      string        // ... or the file holding it; not both
	TLSCAFile      string        // PEM certificates to trust: TLS on; "": plaintext
	TLSServerName  string        // the name the certificate must hold, when not the address's host
	ConnectTimeout time.Duration // how long Connect waits for the server; 0: 10 s
	CallTimeout    time.Duration // each call's deadline (a Prove's included); 0: none
}

// Client is a connection to one zkpipe serve.
type Client struct {
	mu  sync.RWMutex // calls hold it shared; Close holds it alone (close must not overlap a call)
	raw *C.zkp_client_t
}

// RemoteKey is a key the server holds (zkp_client_key_t).
type RemoteKey struct {
	ID             uint64
	Format         KeyFormat
	Curve          zkpipe.Curve
	NVars, NPublic uint32
	DomainSize     uint32
	ProofSize      uint32
	SynthesisBytes uint64
	DeviceBytes    uint64 // device memory the key holds on each device it is loaded on (0 without devices)
	LoadedUnixMs   uint64
	LoadTime       time.Duration
	JobsSubmitted  uint64
	AlreadyLoaded  bool // from LoadKey: it was loaded already (warm)
}

// Partition is one finished partition: the host's completion, and the proof as snarkjs JSON.
type Partition struct {
	zkpipe.Completion
	ProofJSON  string // proof.json as snarkjs writes it; "" on failure
	PublicJSON string // public.json as snarkjs writes it; "" on failure
}

// JobResult is a job's partitions: by index from Prove, in completion order from Await.
type JobResult struct {
	JobID      uint64
	Partitions []Partition
}

// JobOptions say how a job runs.
type JobOptions struct {
	Pin      bool // run on GPUIndex; else on any device
	GPUIndex uint32
	Priority int32 // higher first; FIFO among equals
	// Inputs: the witnesses are the circuit's input.json texts, which the key's witness
	// generator turns into witnesses (LoadKeyWithGenerator).
	Inputs bool
}

// ServerStatus is what the server reports of itself (zkp_client_status_t).
type ServerStatus struct {
	Prover, Version                                    string
	Simulated                                          bool
	DeviceCount, KeysLoaded, JobsOpen                  uint32
	JobsSubmitted, JobsFinished                        uint64
	PartitionsSucceeded, PartitionsFailed              uint64
	Pending, Synthesizing, Waiting, Proving            uint32
	BudgetTotalBytes, BudgetUsedBytes, BudgetPeakBytes uint64
	Uptime                                             time.Duration
}

var errClosed = errors.New("zkpipe client: the client is closed")

func newError() *C.zkp_error_t {
	e := (*C.zkp_error_t)(C.calloc(1, C.sizeof_zkp_error_t))
	e.header.struct_size = C.sizeof_zkp_error_t
	e.header.struct_version = 1
	return e
}

// check turns a status and its record into an error (*zkpipe.Error), and frees the record.
func check(status C.zkp_status_t, err *C.zkp_error_t) error {
	defer C.free(unsafe.Pointer(err))
	if status == C.ZKP_OK {
		return nil
	}
	return &zkpipe.Error{Status: zkpipe.Status(status), Message: C.GoString(&err.message[0])}
}

func millis(d time.Duration) C.uint32_t {
	if d <= 0 {
		return 0
	}
	if ms := d.Milliseconds(); ms >= 1 {
		return C.uint32_t(ms)
	}
	return 1 // 0 means the default to the C API
}

// cString is s in C memory, or NULL for "".
func cString(s string) *C.char {
	if s == "" {
		return nil
	}
	return C.CString(s)
}

// Connect connects and waits until the server answers (the token is checked by the first call).
func Connect(o Options) (*Client, error) {
	options := (*C.zkp_client_options_t)(C.calloc(1, C.sizeof_zkp_client_options_t))
	defer C.free(unsafe.Pointer(options))
	options.header.struct_size = C.sizeof_zkp_client_options_t
	options.header.struct_version = 1
	for _, f := range []struct {
		dst **C.char
		src string
	}{{&options.address, o.Address}, {&options.token, o.Token}, {&options.token_file, o.TokenFile},
		{&options.tls_ca_file, o.TLSCAFile}, {&options.tls_server_name, o.TLSServerName}} {
		*f.dst = cString(f.src)
		defer C.free(unsafe.Pointer(*f.dst))
	}
	options.connect_timeout_ms = millis(o.ConnectTimeout)
	options.call_timeout_ms = millis(o.CallTimeout)
	var raw *C.zkp_client_t
	e := newError()
	if err := check(C.zkp_client_connect(options, &raw, e), e); err != nil {
		return nil, err
	}
	c := &Client{raw: raw}
	runtime.SetFinalizer(c, func(c *Client) { c.Close() })
	return c, nil
}

// Close closes the connection; later calls fail. It waits for calls in progress.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.raw != nil {
		C.zkp_client_close(c.raw)
		c.raw = nil
	}
	return nil
}

// with runs f on the open handle, beside other calls.
func (c *Client) with(f func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t) error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.raw == nil {
		return errClosed
	}
	e := newError()
	return check(f(c.raw, e), e)
}

func keyOf(k *C.zkp_client_key_t) RemoteKey {
	return RemoteKey{
		ID: uint64(k.key_id), Format: KeyFormat(k.format), Curve: zkpipe.Curve(k.curve),
		NVars: uint32(k.n_vars), NPublic: uint32(k.n_public), DomainSize: uint32(k.domain_size),
		ProofSize: uint32(k.proof_size), SynthesisBytes: uint64(k.synthesis_bytes), DeviceBytes: uint64(k.device_bytes),
		LoadedUnixMs: uint64(k.loaded_unix_ms), LoadTime: time.Duration(k.load_ns),
		JobsSubmitted: uint64(k.jobs_submitted), AlreadyLoaded: k.already_loaded != 0,
	}
}

func newKeys(n int) *C.zkp_client_key_t {
	keys := (*C.zkp_client_key_t)(C.calloc(C.size_t(n), C.sizeof_zkp_client_key_t))
	slice := unsafe.Slice(keys, n)
	for i := range slice {
		slice[i].header.struct_size = C.sizeof_zkp_client_key_t
		slice[i].header.struct_version = 1
	}
	return keys
}

// LoadKey loads the key file path (on the server's machine) on every device of the server,
// or finds it loaded: the same file and format give the same key, warm.
func (c *Client) LoadKey(path string, format KeyFormat) (RemoteKey, error) {
	return c.LoadKeyWithGenerator(path, format, "")
}

// LoadKeyWithGenerator is LoadKey with the circuit's witness generator, a plugin file on the
// server's machine inside its serve.generator_dirs ("": none): jobs of the key may then send
// input.json texts (JobOptions.Inputs).
func (c *Client) LoadKeyWithGenerator(path string, format KeyFormat, witnessGenerator string) (RemoteKey, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var cgen *C.char
	if witnessGenerator != "" {
		cgen = C.CString(witnessGenerator)
		defer C.free(unsafe.Pointer(cgen))
	}
	key := newKeys(1)
	defer C.free(unsafe.Pointer(key))
	err := c.with(func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t {
		if cgen == nil {
			return C.zkp_client_load_key(raw, cpath, C.zkp_key_format_t(format), key, e)
		}
		return C.zkp_client_load_key_with_generator(raw, cpath, C.zkp_key_format_t(format), cgen, key, e)
	})
	if err != nil {
		return RemoteKey{}, err
	}
	return keyOf(key), nil
}

// UnloadKey drops a key; refused while partitions of it are in flight.
func (c *Client) UnloadKey(keyID uint64) error {
	return c.with(func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t {
		return C.zkp_client_unload_key(raw, C.uint64_t(keyID), e)
	})
}

// ListKeys returns the keys the server holds.
func (c *Client) ListKeys() ([]RemoteKey, error) {
	for {
		// The count, then the keys; another client may load one in between: ask again then.
		var count C.size_t
		err := c.with(func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t {
			return C.zkp_client_list_keys(raw, nil, 0, &count, e)
		})
		if err == nil {
			return nil, nil
		}
		if !errors.Is(err, zkpipe.StatusShortBuffer) {
			return nil, err
		}
		n := int(count)
		keys := newKeys(n)
		err = c.with(func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t {
			return C.zkp_client_list_keys(raw, keys, C.size_t(n), &count, e)
		})
		if err == nil {
			out := make([]RemoteKey, int(count))
			for i, k := range unsafe.Slice(keys, n)[:int(count)] {
				out[i] = keyOf(&k)
			}
			C.free(unsafe.Pointer(keys))
			return out, nil
		}
		C.free(unsafe.Pointer(keys))
		if !errors.Is(err, zkpipe.StatusShortBuffer) {
			return nil, err
		}
	}
}

// job is a zkp_client_job_t in C memory, the witnesses copied there (cgo's pointer rules
// forbid handing C a Go array of Go pointers).
type job struct {
	raw    *C.zkp_client_job_t
	buffer []unsafe.Pointer
}

// jobInputs is ZKP_CLIENT_JOB_INPUTS (its tests read it too: cgo is not for test files).
const jobInputs = C.ZKP_CLIENT_JOB_INPUTS

func newJob(keyID uint64, witnesses [][]byte, o JobOptions) *job {
	j := &job{raw: (*C.zkp_client_job_t)(C.calloc(1, C.sizeof_zkp_client_job_t))}
	j.raw.header.struct_size = C.sizeof_zkp_client_job_t
	j.raw.header.struct_version = 1
	j.raw.key_id = C.uint64_t(keyID)
	j.raw.gpu_index = -1
	if o.Pin {
		j.raw.gpu_index = C.int32_t(o.GPUIndex)
	}
	j.raw.priority = C.int32_t(o.Priority)
	if o.Inputs {
		j.raw.flags = jobInputs
	}
	n := len(witnesses)
	if n > 0 {
		pointers := (**C.uint8_t)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(uintptr(0)))))
		sizes := (*C.size_t)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.size_t(0)))))
		j.buffer = append(j.buffer, unsafe.Pointer(pointers), unsafe.Pointer(sizes))
		for i, w := range witnesses {
			if len(w) > 0 {
				data := C.CBytes(w)
				j.buffer = append(j.buffer, data)
				unsafe.Slice(pointers, n)[i] = (*C.uint8_t)(data)
			}
			unsafe.Slice(sizes, n)[i] = C.size_t(len(w))
		}
		j.raw.witnesses = pointers
		j.raw.witness_sizes = sizes
	}
	j.raw.witness_count = C.size_t(n)
	return j
}

func (j *job) free() {
	for _, p := range j.buffer {
		C.free(p)
	}
	C.free(unsafe.Pointer(j.raw))
}

// take copies a result out of C and frees it.
func take(r *C.zkp_client_result_t) JobResult {
	defer C.zkp_client_result_free(r)
	out := JobResult{JobID: uint64(C.zkp_client_result_job_id(r))}
	n := int(C.zkp_client_result_count(r))
	for i := 0; i < n; i++ {
		p := C.zkp_client_result_partition(r, C.size_t(i))
		var perr error
		if p.status != C.ZKP_OK {
			perr = &zkpipe.Error{Status: zkpipe.Status(p.status), Message: C.GoString(p.message)}
		}
		part := Partition{
			Completion: zkpipe.Completion{
				JobID: out.JobID, Partition: uint32(p.partition), Err: perr, GPUIndex: int32(p.gpu_index),
				Worker: uint32(p.worker), GPUDuration: time.Duration(p.gpu_duration_ns),
				Synthesis: time.Duration(p.synthesis_ns), QueueWait: time.Duration(p.queue_wait_ns),
				Total: time.Duration(p.total_ns), Curve: zkpipe.Curve(p.curve),
				Simulated:   p.flags&C.ZKP_COMPLETION_SIMULATED != 0,
				SelfChecked: p.flags&C.ZKP_COMPLETION_SELF_CHECKED != 0,
			},
			ProofJSON:  C.GoString(p.proof_json),
			PublicJSON: C.GoString(p.public_json),
		}
		if p.proof != nil && p.proof_size > 0 {
			part.Proof = C.GoBytes(unsafe.Pointer(p.proof), C.int(p.proof_size))
		}
		if p.public_inputs != nil && p.public_inputs_size > 0 {
			part.PublicInputs = C.GoBytes(unsafe.Pointer(p.public_inputs), C.int(p.public_inputs_size))
		}
		out.Partitions = append(out.Partitions, part)
	}
	return out
}

// Prove proves one partition per witness (snarkjs .wtns bytes) and waits for them. A nil
// error means the server ran the job: each partition has its own Err.
func (c *Client) Prove(keyID uint64, witnesses [][]byte, o JobOptions) (JobResult, error) {
	j := newJob(keyID, witnesses, o)
	defer j.free()
	var r *C.zkp_client_result_t
	if err := c.with(func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t {
		return C.zkp_client_prove(raw, j.raw, &r, e)
	}); err != nil {
		return JobResult{}, err
	}
	return take(r), nil
}

// Submit queues a job and returns its id at once (Await waits for it).
func (c *Client) Submit(keyID uint64, witnesses [][]byte, o JobOptions) (uint64, error) {
	j := newJob(keyID, witnesses, o)
	defer j.free()
	var id C.uint64_t
	err := c.with(func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t {
		return C.zkp_client_submit(raw, j.raw, &id, e)
	})
	return uint64(id), err
}

// Await waits for a submitted job: its partitions in completion order. Giving up (a call
// timeout) cancels nothing.
func (c *Client) Await(jobID uint64) (JobResult, error) {
	var r *C.zkp_client_result_t
	if err := c.with(func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t {
		return C.zkp_client_await(raw, C.uint64_t(jobID), &r, e)
	}); err != nil {
		return JobResult{}, err
	}
	return take(r), nil
}

// Cancel cancels a job's pending partitions (those on a device finish first).
func (c *Client) Cancel(jobID uint64) error {
	return c.with(func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t {
		return C.zkp_client_cancel(raw, C.uint64_t(jobID), e)
	})
}

// Status returns the server's state.
func (c *Client) Status() (ServerStatus, error) {
	s := (*C.zkp_client_status_t)(C.calloc(1, C.sizeof_zkp_client_status_t))
	defer C.free(unsafe.Pointer(s))
	s.header.struct_size = C.sizeof_zkp_client_status_t
	s.header.struct_version = 1
	if err := c.with(func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t {
		return C.zkp_client_status(raw, s, e)
	}); err != nil {
		return ServerStatus{}, err
	}
	return ServerStatus{
		Prover: C.GoString(&s.prover[0]), Version: C.GoString(&s.version[0]), Simulated: s.simulated != 0,
		DeviceCount: uint32(s.device_count), KeysLoaded: uint32(s.keys_loaded), JobsOpen: uint32(s.jobs_open),
		JobsSubmitted: uint64(s.jobs_submitted), JobsFinished: uint64(s.jobs_finished),
		PartitionsSucceeded: uint64(s.partitions_succeeded), PartitionsFailed: uint64(s.partitions_failed),
		Pending: uint32(s.pending), Synthesizing: uint32(s.synthesizing), Waiting: uint32(s.waiting),
		Proving: uint32(s.proving), BudgetTotalBytes: uint64(s.budget_total_bytes),
		BudgetUsedBytes: uint64(s.budget_used_bytes), BudgetPeakBytes: uint64(s.budget_peak_bytes),
		Uptime: time.Duration(s.uptime_ms) * time.Millisecond,
	}, nil
}

// Health reports whether the server accepts work (false once it shuts down).
func (c *Client) Health() (bool, error) {
	var serving C.uint32_t
	err := c.with(func(raw *C.zkp_client_t, e *C.zkp_error_t) C.zkp_status_t {
		return C.zkp_client_health(raw, &serving, e)
	})
	return serving != 0, err
}
