package zkpipe_test

import (
	"context"
	"fmt"

	"zkpipe"
)

// A job of three partitions pinned to device 1 of a simulated two-device host; the
// completions arrive on the job's channel, which closes when the job ends.
func ExampleHost_Submit() {
	host, err := zkpipe.NewHost("", "prover=sim", "prover.devices=2", "prover.gpu_ms=1", "log_level=warn")
	if err != nil {
		panic(err)
	}
	defer host.Close()
	key, err := host.LoadKey(zkpipe.KeySource{}) // the simulated prover takes no key
	if err != nil {
		panic(err)
	}
	job, err := host.Submit(context.Background(), key, make([]zkpipe.Partition, 3), zkpipe.JobOptions{Pin: true, GPUIndex: 1})
	if err != nil {
		panic(err)
	}
	ran := 0
	for c := range job.Completions {
		if c.Err == nil && c.GPUIndex == 1 {
			ran++
		}
	}
	fmt.Printf("%d of %d partitions ran on gpu_index 1\n", ran, job.Wait().Succeeded)
	// Output: 3 of 3 partitions ran on gpu_index 1
}
