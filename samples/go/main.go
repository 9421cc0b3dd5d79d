// zkpipe from Go through the zkpipe package: a host with the simulated prover on two
// devices, one job pinned to gpu_index 1, and every partition's completion (gpu_index,
// gpu_duration) received on the Go side. Exits non-zero if a completion is missing,
// duplicated or ran on the wrong device.
package main

import (
	"context"
	"fmt"
	"os"

	"zkpipe"
)

const partitions = 6
const pinnedGPU = 1

func run() error {
	fmt.Printf("zkpipe ABI version %d\n", zkpipe.ABIVersion())
	host, err := zkpipe.NewHost("", "prover=sim", "pacer=greedy", "prover.devices=2", "prover.gpu_ms=20", "workers_per_device=2")
	if err != nil {
		return err
	}
	defer host.Close()
	key, err := host.LoadKey(zkpipe.KeySource{}) // the simulated prover needs no key
	if err != nil {
		return err
	}
	job, err := host.Submit(context.Background(), key, make([]zkpipe.Partition, partitions), zkpipe.JobOptions{Pin: true, GPUIndex: pinnedGPU})
	if err != nil {
		return err
	}
	seen := make([]int, partitions)
	for c := range job.Completions {
		fmt.Printf("job %d partition %d: gpu_index %d, gpu_duration %.1f ms\n", c.JobID, c.Partition, c.GPUIndex, float64(c.GPUDuration.Microseconds())/1e3)
		if c.Err != nil || c.GPUIndex != pinnedGPU || c.GPUDuration == 0 {
			return fmt.Errorf("partition %d: %v, gpu_index %d, duration %v", c.Partition, c.Err, c.GPUIndex, c.GPUDuration)
		}
		seen[c.Partition]++
	}
	for p, n := range seen {
		if n != 1 {
			return fmt.Errorf("partition %d completed %d times, want exactly once", p, n)
		}
	}
	if s := job.Wait(); s.Succeeded != partitions {
		return fmt.Errorf("summary %+v", s)
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
