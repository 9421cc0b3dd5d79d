package zkpipe

// #include <stdlib.h>
// #include <zkpipe/zkpipe.h>
import "C"

import (
	"errors"
	"sync"
	"time"
	"unsafe"
)

// Host is a zkpipe host. Its methods may be called from any goroutine.
type Host struct {
	mu  sync.RWMutex // held for writing only by Close: a method never sees a freed host
	raw *C.zkp_host_t
	// .zkey bytes given to LoadKey, in C memory: the prover reads them until the host frees
	// its keys, at Close.
	keyMu   sync.Mutex
	keyData []unsafe.Pointer
}

// ErrClosed is returned by the methods of a closed Host.
var ErrClosed = errors.New("zkpipe: host is closed")

// NewHost creates a host from an INI config file (configPath; "" for defaults only) and
// "key=value" overrides applied after it ("prover=cpu", "prover.devices=2").
func NewHost(configPath string, overrides ...string) (*Host, error) {
	var path *C.char
	if configPath != "" {
		path = C.CString(configPath)
		defer C.free(unsafe.Pointer(path))
	}
	// The array of strings lives in C memory: cgo forbids passing Go memory that holds Go pointers.
	n := len(overrides)
	arr := (*[1 << 20]*C.char)(C.calloc(C.size_t(n+1), C.size_t(unsafe.Sizeof((*C.char)(nil)))))[: n+1 : n+1]
	defer C.free(unsafe.Pointer(&arr[0]))
	for i, o := range overrides {
		arr[i] = C.CString(o)
		defer C.free(unsafe.Pointer(arr[i]))
	}
	var raw *C.zkp_host_t
	e := newError()
	if err := check(C.zkp_host_create(path, &arr[0], C.size_t(n), &raw, e), e); err != nil {
		return nil, err
	}
	return &Host{raw: raw}, nil
}

// ABIVersion is the ABI version the linked libzkpipe implements.
func ABIVersion() uint32 { return uint32(C.zkp_host_abi_version()) }

// Close drains the host (every submitted partition finishes and is delivered), then frees
// it. Later calls return ErrClosed. Close must not be called while a goroutine is blocked
// in Wait on a job that can only finish after Close returns (none can: Close drains).
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.raw == nil {
		return ErrClosed
	}
	C.zkp_host_destroy(h.raw, C.ZKP_SHUTDOWN_DRAIN)
	h.raw = nil
	for _, p := range h.keyData {
		C.free(p)
	}
	h.keyData = nil
	return nil
}

// with runs f on the live host, or returns ErrClosed.
func (h *Host) with(f func(raw *C.zkp_host_t) error) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.raw == nil {
		return ErrClosed
	}
	return f(h.raw)
}

// KeySource names a proving key: a .zkey file (Path) or its bytes (Data).
// An empty KeySource is what the simulated prover (prover=sim) takes.
type KeySource struct {
	Path string
	Data []byte
	// WitnessGenerator: the circuit's witness generator plugin (zkpipe witness build's output,
	// zkp_key_source_t.witness_generator), for partitions given as Input; "" for none.
	WitnessGenerator string
}

// Curve is a pairing-friendly curve.
type Curve uint32

const (
	CurveUnknown  Curve = C.ZKP_CURVE_UNKNOWN
	CurveBN254    Curve = C.ZKP_CURVE_BN254
	CurveBLS12381 Curve = C.ZKP_CURVE_BLS12_381
)

// KeyInfo describes a loaded key (zkp_key_info_t).
type KeyInfo struct {
	Curve          Curve
	NVars          uint32 // wires, including the constant 1
	NPublic        uint32 // public outputs and inputs, without the constant
	DomainSize     uint32
	SynthesisBytes uint64
	ProofSize      uint32
	PublicSize     uint32
	DeviceBytes    uint64 // device memory the key holds on each device it is loaded on (0 without devices)
}

// Key is a key loaded on a host.
type Key struct {
	ID   uint64
	Info KeyInfo
}

// LoadKey loads a proving key on every device of the host.
func (h *Host) LoadKey(src KeySource) (Key, error) {
	var key Key
	err := h.with(func(raw *C.zkp_host_t) error {
		source := (*C.zkp_key_source_t)(C.calloc(1, C.sizeof_zkp_key_source_t))
		defer C.free(unsafe.Pointer(source))
		source.header.struct_size = C.sizeof_zkp_key_source_t
		source.header.struct_version = 1
		var data unsafe.Pointer
		if src.Path != "" {
			source.path = C.CString(src.Path)
			defer C.free(unsafe.Pointer(source.path))
		} else if len(src.Data) > 0 {
			data = C.CBytes(src.Data)
			source.data = data
			source.size = C.size_t(len(src.Data))
		}
		if src.WitnessGenerator != "" {
			source.witness_generator = C.CString(src.WitnessGenerator)
			defer C.free(unsafe.Pointer(source.witness_generator))
		}
		var id C.uint64_t
		e := newError()
		if err := check(C.zkp_host_load_key(raw, source, &id, e), e); err != nil {
			C.free(data)
			return err
		}
		if data != nil {
			h.keyMu.Lock()
			h.keyData = append(h.keyData, data)
			h.keyMu.Unlock()
		}
		key.ID = uint64(id)
		info := (*C.zkp_key_info_t)(C.calloc(1, C.sizeof_zkp_key_info_t))
		defer C.free(unsafe.Pointer(info))
		info.header.struct_size = C.sizeof_zkp_key_info_t
		info.header.struct_version = 1
		e = newError()
		if err := check(C.zkp_host_key_info(raw, id, info, e), e); err != nil {
			return err
		}
		key.Info = KeyInfo{Curve(info.curve), uint32(info.n_vars), uint32(info.n_public), uint32(info.domain_size),
			uint64(info.synthesis_bytes), uint32(info.proof_size), uint32(info.public_size), uint64(info.device_bytes)}
		return nil
	})
	return key, err
}

// UnloadKey drops key (zkp_host_unload_key): later jobs and key lookups with it fail with
// StatusNotFound, and the prover frees the key once nothing holds it. It is refused with
// StatusInvalidArgument, the key kept, while partitions of a job that uses it have not all
// completed; StatusNotFound for a key this host does not hold (unloaded already, or another
// host's). Key ids are never reused. The bytes of a key loaded from Data stay with the host
// until Close (the prover may read them until it frees the key).
func (h *Host) UnloadKey(key Key) error {
	return h.with(func(raw *C.zkp_host_t) error {
		e := newError()
		return check(C.zkp_host_unload_key(raw, C.uint64_t(key.ID), e), e)
	})
}

// Stats are the pipeline's counters (zkp_host_stats_t).
type Stats struct {
	JobsSubmitted, JobsFinished, PartitionsSucceeded, PartitionsFailed uint64
	DeviceCount, WorkersPerDevice                                      uint32
	// AdmissionStalls counts the stalls the host's admission watchdog reported: partitions
	// waited, the budget had room and the pacer admitted nothing for too long.
	AdmissionStalls uint64
	// AdmissionIntervalNs is the time between the pipeline's last two admissions (0 before two).
	AdmissionIntervalNs uint64
	// DeviceRestarts counts device processes restarted after they died (isolation = process).
	DeviceRestarts uint64
	// DevicesQuarantined is how many devices are quarantined now after a device error.
	DevicesQuarantined uint32
}

// Stats reads the pipeline's counters.
func (h *Host) Stats() (Stats, error) {
	var s Stats
	err := h.with(func(raw *C.zkp_host_t) error {
		out := (*C.zkp_host_stats_t)(C.calloc(1, C.sizeof_zkp_host_stats_t))
		defer C.free(unsafe.Pointer(out))
		out.header.struct_size = C.sizeof_zkp_host_stats_t
		out.header.struct_version = 1
		e := newError()
		if err := check(C.zkp_host_stats(raw, out, e), e); err != nil {
			return err
		}
		s = Stats{uint64(out.jobs_submitted), uint64(out.jobs_finished), uint64(out.partitions_succeeded),
			uint64(out.partitions_failed), uint32(out.device_count), uint32(out.workers_per_device),
			uint64(out.admission_stalls), uint64(out.admission_interval_ns), uint64(out.device_restarts),
			uint32(out.devices_quarantined)}
		return nil
	})
	return s, err
}

// Verify checks a proof (the ABI's bytes, as a Completion holds them) and its public inputs
// against key with the host's prover (zkp_host_verify: the pairing of the host's
// self-check, on the key the host already holds). It returns true if the proof is valid,
// false if it was checked and does not verify, and an error if it could not check: a key
// this host did not load (StatusNotFound), a proof or a number of public inputs that is not
// the key's (StatusBadInput), a prover that cannot verify, such as sim (StatusUnsupported).
// key must come from this host's LoadKey (ids are per host). Safe to call from any
// goroutine, also while jobs run.
func (h *Host) Verify(key Key, proof, public []byte) (bool, error) {
	valid := false
	err := h.with(func(raw *C.zkp_host_t) error {
		// Read by C during the call only: Go memory without Go pointers may be passed.
		var p, s *C.uint8_t
		if len(proof) > 0 {
			p = (*C.uint8_t)(unsafe.Pointer(&proof[0]))
		}
		if len(public) > 0 {
			s = (*C.uint8_t)(unsafe.Pointer(&public[0]))
		}
		e := newError()
		err := check(C.zkp_host_verify(raw, C.uint64_t(key.ID), p, C.size_t(len(proof)), s, C.size_t(len(public)), e), e)
		if errors.Is(err, StatusInvalidProof) {
			return nil
		}
		valid = err == nil
		return err
	})
	return valid, err
}

// DeviceInfo describes one device of the host's prover (zkp_device_info_t).
type DeviceInfo struct {
	Name              string        // "NVIDIA H200", "cpu (16 threads)", "simulated device 1"
	MemoryBytes       uint64        // total device memory, 0 if not applicable
	MemoryFreeBytes   uint64        // free device memory now, 0 if not applicable
	PartitionsStarted uint64        // proofs started on this device
	PartitionsProved  uint64        // proofs finished on this device
	Busy              time.Duration // device time of the proofs on this device
}

// DeviceInfo describes device gpuIndex (0..Stats().DeviceCount-1) of the host's prover;
// StatusInvalidArgument for an index out of range.
func (h *Host) DeviceInfo(gpuIndex uint32) (DeviceInfo, error) {
	var d DeviceInfo
	err := h.with(func(raw *C.zkp_host_t) error {
		out := (*C.zkp_device_info_t)(C.calloc(1, C.sizeof_zkp_device_info_t))
		defer C.free(unsafe.Pointer(out))
		out.header.struct_size = C.sizeof_zkp_device_info_t
		out.header.struct_version = 1
		e := newError()
		if err := check(C.zkp_host_device_info(raw, C.uint32_t(gpuIndex), out, e), e); err != nil {
			return err
		}
		out.name[len(out.name)-1] = 0
		d = DeviceInfo{C.GoString(&out.name[0]), uint64(out.memory_bytes), uint64(out.memory_free_bytes),
			uint64(out.partitions_started), uint64(out.partitions_proved), time.Duration(out.busy_ns)}
		return nil
	})
	return d, err
}

// PacerStatus is the pacer's one-line status (zkp_host_pacer_status), as the host logs it.
func (h *Host) PacerStatus() (string, error) {
	var line string
	err := h.with(func(raw *C.zkp_host_t) error {
		capacity := C.size_t(256)
		for {
			buf := (*C.char)(C.malloc(capacity))
			var needed C.size_t
			e := newError()
			err := check(C.zkp_host_pacer_status(raw, buf, capacity, &needed, e), e)
			if err == nil && needed < capacity {
				line = C.GoStringN(buf, C.int(needed))
			}
			C.free(unsafe.Pointer(buf))
			if err != nil || needed < capacity {
				return err
			}
			capacity = needed + 1
		}
	})
	return line, err
}
