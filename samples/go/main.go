// A Go caller of zkpipe's C API through cgo: creates a host with the simulated prover
// on two devices, submits one job pinned to gpu_index 1, and receives every
// partition's completion (gpu_index, gpu_duration_ns) on the Go side. Exits non-zero
// if a completion is missing, duplicated or ran on the wrong device.
package main

/*
#cgo CFLAGS: -I${SRCDIR}/../../abi
#cgo LDFLAGS: -lzkpipe
#include <stdlib.h>
#include <zkpipe/zkp_host.h>

void zkp_go_set_callbacks(zkp_job_t *job);
*/
import "C"

import (
	"fmt"
	"os"
	"runtime/cgo"
	"sync"
	"unsafe"
)

const partitions = 6
const pinnedGPU = 1

type completion struct {
	partition  uint32
	gpuIndex   int32
	durationNs uint64
	status     int32
}

// collector receives callbacks on the host's completion thread.
type collector struct {
	mu          sync.Mutex
	completions []completion
	jobsDone    int
}

// The host hands user_data back untouched; it points at C memory holding a cgo.Handle,
// since cgo forbids C from keeping Go pointers.
func collectorFrom(user unsafe.Pointer) *collector {
	return cgo.Handle(*(*C.uintptr_t)(user)).Value().(*collector)
}

//export goOnPartition
func goOnPartition(user unsafe.Pointer, record *C.zkp_completion_t) {
	c := collectorFrom(user)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.completions = append(c.completions, completion{uint32(record.partition), int32(record.gpu_index),
		uint64(record.gpu_duration_ns), int32(record.status)})
}

//export goOnJob
func goOnJob(user unsafe.Pointer, summary *C.zkp_job_summary_t) {
	c := collectorFrom(user)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.jobsDone++
}

func newError() *C.zkp_error_t {
	e := (*C.zkp_error_t)(C.calloc(1, C.sizeof_zkp_error_t))
	e.header.struct_size = C.sizeof_zkp_error_t
	e.header.struct_version = 1
	return e
}

func run() error {
	fmt.Printf("zkpipe ABI version %d\n", uint32(C.zkp_host_abi_version()))
	overrides := []string{"prover=sim", "pacer=greedy", "prover.devices=2", "prover.gpu_ms=20", "workers_per_device=2"}
	cOverrides := make([]*C.char, len(overrides))
	for i, s := range overrides {
		cOverrides[i] = C.CString(s)
		defer C.free(unsafe.Pointer(cOverrides[i]))
	}
	err := newError()
	defer C.free(unsafe.Pointer(err))

	var host *C.zkp_host_t
	if C.zkp_host_create(nil, &cOverrides[0], C.size_t(len(cOverrides)), &host, err) != C.ZKP_OK {
		return fmt.Errorf("zkp_host_create: %s", C.GoString(&err.message[0]))
	}
	defer C.zkp_host_destroy(host, C.ZKP_SHUTDOWN_DRAIN)

	var source C.zkp_key_source_t
	source.header.struct_size = C.sizeof_zkp_key_source_t
	source.header.struct_version = 1
	var keyID C.uint64_t
	if C.zkp_host_load_key(host, &source, &keyID, err) != C.ZKP_OK {
		return fmt.Errorf("zkp_host_load_key: %s", C.GoString(&err.message[0]))
	}

	// The partition array and the job live in C memory: the host reads them during submit.
	parts := (*[partitions]C.zkp_partition_t)(C.calloc(partitions, C.sizeof_zkp_partition_t))
	defer C.free(unsafe.Pointer(parts))
	for i := range parts {
		parts[i].header.struct_size = C.sizeof_zkp_partition_t
		parts[i].header.struct_version = 1
		parts[i].witness.header.struct_size = C.sizeof_zkp_witness_t
		parts[i].witness.header.struct_version = 1
		parts[i].witness.kind = C.ZKP_WITNESS_NONE
	}

	c := &collector{}
	handle := cgo.NewHandle(c)
	defer handle.Delete()
	user := (*C.uintptr_t)(C.malloc(C.sizeof_uintptr_t))
	defer C.free(unsafe.Pointer(user))
	*user = C.uintptr_t(handle)

	job := (*C.zkp_job_t)(C.calloc(1, C.sizeof_zkp_job_t))
	defer C.free(unsafe.Pointer(job))
	job.header.struct_size = C.sizeof_zkp_job_t
	job.header.struct_version = 1
	job.key_id = keyID
	job.partitions = &parts[0]
	job.partition_count = partitions
	job.gpu_index = pinnedGPU
	job.user_data = unsafe.Pointer(user)
	C.zkp_go_set_callbacks(job)

	var jobID C.uint64_t
	if C.zkp_host_submit(host, job, &jobID, err) != C.ZKP_OK {
		return fmt.Errorf("zkp_host_submit: %s", C.GoString(&err.message[0]))
	}
	if C.zkp_host_wait(host, jobID, 60000, err) != C.ZKP_OK {
		return fmt.Errorf("zkp_host_wait: %s", C.GoString(&err.message[0]))
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	seen := make([]int, partitions)
	for _, r := range c.completions {
		fmt.Printf("job %d partition %d: gpu_index %d, gpu_duration %.1f ms, status %d\n",
			uint64(jobID), r.partition, r.gpuIndex, float64(r.durationNs)/1e6, r.status)
		if r.status != C.ZKP_OK || r.gpuIndex != pinnedGPU || r.durationNs == 0 {
			return fmt.Errorf("partition %d: status %d, gpu_index %d, duration %d", r.partition, r.status, r.gpuIndex, r.durationNs)
		}
		seen[r.partition]++
	}
	for p, n := range seen {
		if n != 1 {
			return fmt.Errorf("partition %d completed %d times, want exactly once", p, n)
		}
	}
	if c.jobsDone != 1 {
		return fmt.Errorf("job callback ran %d times, want once", c.jobsDone)
	}
	fmt.Printf("go sample: %d completions on gpu_index %d (simulated device: no proofs)\n", partitions, pinnedGPU)
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "go sample failed:", err)
		os.Exit(1)
	}
}
