package zkpipe

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

const repo = "../../.."

// vectorDirs lists every committed vector folder (circuit.zkey + witness.wtns).
func vectorDirs(t *testing.T) []string {
	var dirs []string
	for _, parent := range []string{"tests/vectors/data", "tests/groth16/data", "samples/circuits"} {
		found, err := filepath.Glob(filepath.Join(repo, parent, "*", "witness.wtns"))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range found {
			if _, err := os.Stat(filepath.Join(filepath.Dir(w), "circuit.zkey")); err == nil {
				dirs = append(dirs, filepath.Dir(w))
			}
		}
	}
	sort.Strings(dirs)
	if len(dirs) < 11 {
		t.Fatalf("found only %d vector folders", len(dirs))
	}
	return dirs
}

func read(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wtnsAssignment is the full assignment of a snarkjs .wtns file.
func wtnsAssignment(t *testing.T, b []byte) []byte {
	u32 := func(i int) int { return int(binary.LittleEndian.Uint32(b[i:])) }
	at, nVars := 12, 0
	for s := 0; s < u32(8); s++ {
		kind, size := u32(at), int(binary.LittleEndian.Uint64(b[at+4:]))
		at += 12
		switch kind {
		case 1:
			nVars = u32(at + 4 + u32(at))
		case 2:
			return b[at : at+nVars*ScalarSize]
		}
		at += size
	}
	t.Fatal("no witness section")
	return nil
}

func newHost(t *testing.T, overrides ...string) *Host {
	h, err := NewHost("", append([]string{"log_level=warn"}, overrides...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

func collect(t *testing.T, j *Job) []Completion {
	var got []Completion
	for c := range j.Completions {
		got = append(got, c)
	}
	sort.Slice(got, func(a, b int) bool { return got[a].Partition < got[b].Partition })
	return got
}

// Every committed vector, from a witness file, a .wtns buffer and an assignment: each proof
// self-checked by the host, verified by Host.Verify (on the key loaded from its path and
// from its bytes), rejected with a tampered public input; public inputs equal snarkjs's
// public.json; snarkjs's own proof.json verifies.
func TestEveryVectorProves(t *testing.T) {
	h := newHost(t, "prover=cpu", "workers_per_device=1", "synthesis_threads=2")
	for _, dir := range vectorDirs(t) {
		key, err := h.LoadKey(KeySource{Path: filepath.Join(dir, "circuit.zkey")})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if key.Info.DeviceBytes != 0 || key.Info.DomainSize == 0 { // the cpu prover holds nothing on a device
			t.Fatalf("%s: key info %+v", dir, key.Info)
		}
		wtns := read(t, filepath.Join(dir, "witness.wtns"))
		parts := []Partition{{WitnessFile: filepath.Join(dir, "witness.wtns")}, {Witness: wtns}, {Assignment: wtnsAssignment(t, wtns)}}
		job, err := h.Submit(context.Background(), key, parts, JobOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := PublicFromSnarkjsJSON(read(t, filepath.Join(dir, "public.json")))
		if err != nil {
			t.Fatal(err)
		}
		got := collect(t, job)
		if s := job.Wait(); s.Err != nil || s.Succeeded != 3 {
			t.Fatalf("%s: summary %+v", dir, s)
		}
		fromBytes, err := h.LoadKey(KeySource{Data: read(t, filepath.Join(dir, "circuit.zkey"))})
		if err != nil {
			t.Fatal(err)
		}
		_, snarkjs, err := ProofFromSnarkjsJSON(read(t, filepath.Join(dir, "proof.json")))
		if ok, err := h.Verify(key, snarkjs, want); err != nil || !ok {
			t.Fatalf("%s: snarkjs's proof.json does not verify (%v)", dir, err)
		}
		for _, c := range got {
			if c.Err != nil || !c.SelfChecked || c.Curve != key.Info.Curve {
				t.Fatalf("%s partition %d: %+v", dir, c.Partition, c)
			}
			if !bytes.Equal(c.PublicInputs, want) {
				t.Fatalf("%s: public inputs differ from snarkjs's public.json", dir)
			}
			for _, k := range []Key{key, fromBytes} {
				if ok, err := h.Verify(k, c.Proof, c.PublicInputs); err != nil || !ok {
					t.Fatalf("%s: Verify rejects zkpipe's proof with key %d (%v)", dir, k.ID, err)
				}
			}
			tampered := append([]byte(nil), c.PublicInputs...)
			tampered[0] ^= 1
			if ok, err := h.Verify(key, c.Proof, tampered); err != nil || ok {
				t.Fatalf("%s: a tampered public input verifies (%v)", dir, err)
			}
			js, err := ProofToSnarkjsJSON(c.Curve, c.Proof)
			if err != nil {
				t.Fatal(err)
			}
			if curve, back, err := ProofFromSnarkjsJSON(js); err != nil || curve != c.Curve || !bytes.Equal(back, c.Proof) {
				t.Fatalf("%s: proof.json does not round-trip: %v", dir, err)
			}
		}
	}
}

func TestFixedRandomnessReproducesSnarkjs(t *testing.T) {
	h := newHost(t, "prover=cpu")
	dets, _ := filepath.Glob(filepath.Join(repo, "tests/groth16/data/*/det/proof.json"))
	if len(dets) != 4 {
		t.Fatalf("expected the four det/ folders, found %d", len(dets))
	}
	for _, det := range dets {
		dir := filepath.Dir(filepath.Dir(det))
		key, err := h.LoadKey(KeySource{Data: read(t, filepath.Join(dir, "circuit.zkey"))})
		if err != nil {
			t.Fatal(err)
		}
		job, err := h.Submit(context.Background(), key, []Partition{{WitnessFile: filepath.Join(dir, "witness.wtns")}},
			JobOptions{Randomness: make([]byte, 64)})
		if err != nil {
			t.Fatal(err)
		}
		c := collect(t, job)[0]
		_, want, err := ProofFromSnarkjsJSON(read(t, det))
		if err != nil || c.Err != nil || !bytes.Equal(c.Proof, want) {
			t.Fatalf("%s: zkpipe's r = s = 0 proof is not snarkjs's (%v, %v)", dir, err, c.Err)
		}
	}
}

func TestCallerSynthesizedPartitions(t *testing.T) {
	dir := filepath.Join(repo, "tests/groth16/data/chain7_bn128")
	h := newHost(t, "prover=cpu")
	key, err := h.LoadKey(KeySource{Path: filepath.Join(dir, "circuit.zkey")})
	if err != nil {
		t.Fatal(err)
	}
	s := &Synthesized{read(t, filepath.Join(dir, "det/a_eval.bin")), read(t, filepath.Join(dir, "det/b_eval.bin")),
		read(t, filepath.Join(dir, "det/c_eval.bin")), wtnsAssignment(t, read(t, filepath.Join(dir, "witness.wtns")))}
	job, err := h.Submit(context.Background(), key, []Partition{{Synthesized: s}, {Synthesized: s}}, JobOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := PublicFromSnarkjsJSON(read(t, filepath.Join(dir, "public.json")))
	for _, c := range collect(t, job) {
		if c.Err != nil || !c.SelfChecked || !bytes.Equal(c.PublicInputs, want) {
			t.Fatalf("partition %d: %+v", c.Partition, c)
		}
	}
	// Every input was released (the cpu prover says so after its arithmetic) before the job
	// ended, and the package's C copies with it.
	job.Wait()
	select {
	case <-job.InputsReleased():
	default:
		t.Fatal("the job finished, but InputsReleased is still open")
	}
	bad := &Synthesized{s.A[:len(s.A)-ScalarSize], s.B, s.C, s.Assignment}
	if _, err := h.Submit(context.Background(), key, []Partition{{Synthesized: bad}}, JobOptions{}); !errors.Is(err, StatusInvalidArgument) {
		t.Fatalf("a short a: %v", err)
	}
}

func TestPinnedJobRunsOnItsDevice(t *testing.T) {
	h := newHost(t, "prover=sim", "prover.devices=2", "prover.gpu_ms=5")
	key, err := h.LoadKey(KeySource{})
	if err != nil {
		t.Fatal(err)
	}
	job, err := h.Submit(context.Background(), key, make([]Partition, 6), JobOptions{Pin: true, GPUIndex: 1, Priority: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, job)
	if len(got) != 6 {
		t.Fatalf("%d completions, want 6", len(got))
	}
	for i, c := range got {
		if c.Err != nil || c.Partition != uint32(i) || c.GPUIndex != 1 || c.GPUDuration < 4*time.Millisecond || !c.Simulated {
			t.Fatalf("completion %+v", c)
		}
	}
	if s := job.Wait(); s.JobID != job.ID || s.Succeeded != 6 {
		t.Fatalf("summary %+v", s)
	}
}

// UnloadKey drops the key: a job with it and a second unload are refused with StatusNotFound,
// another key of the host is untouched.
func TestUnloadKey(t *testing.T) {
	h := newHost(t, "prover=sim", "prover.devices=1", "prover.gpu_ms=1")
	key, err := h.LoadKey(KeySource{})
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := h.LoadKey(KeySource{})
	job, err := h.Submit(context.Background(), key, make([]Partition, 1), JobOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := job.Wait(); s.Succeeded != 1 {
		t.Fatalf("summary %+v", s)
	}
	if err := h.UnloadKey(key); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Submit(context.Background(), key, make([]Partition, 1), JobOptions{}); !errors.Is(err, StatusNotFound) {
		t.Fatalf("a job with an unloaded key: %v", err)
	}
	if err := h.UnloadKey(key); !errors.Is(err, StatusNotFound) {
		t.Fatalf("a second unload: %v", err)
	}
	job, err = h.Submit(context.Background(), kept, make([]Partition, 1), JobOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := job.Wait(); s.Succeeded != 1 {
		t.Fatalf("the other key: summary %+v", s)
	}
}

func TestContextCancelsTheJob(t *testing.T) {
	h := newHost(t, "prover=sim", "prover.devices=1", "prover.gpu_ms=40")
	key, _ := h.LoadKey(KeySource{})
	ctx, cancel := context.WithCancel(context.Background())
	job, err := h.Submit(ctx, key, make([]Partition, 20), JobOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	cancelled := 0
	for c := range job.Completions {
		if errors.Is(c.Err, StatusCancelled) {
			cancelled++
		}
	}
	s := job.Wait()
	if s.Cancelled == 0 || int(s.Cancelled) != cancelled || !errors.Is(s.Err, StatusCancelled) {
		t.Fatalf("summary %+v, %d cancelled completions", s, cancelled)
	}
	if err := job.Cancel(); !errors.Is(err, StatusNotFound) {
		t.Fatalf("cancel after the end: %v", err)
	}
}

func TestErrorsCarryTheHostsMessage(t *testing.T) {
	if _, err := NewHost("", "no_such_key=1"); !errors.Is(err, StatusInvalidArgument) || !bytes.Contains([]byte(err.Error()), []byte("no_such_key")) {
		t.Fatalf("unknown key: %v", err)
	}
	cpu := newHost(t, "prover=cpu")
	if _, err := cpu.LoadKey(KeySource{Path: "/nonexistent.zkey"}); err == nil || !bytes.Contains([]byte(err.Error()), []byte("/nonexistent.zkey")) {
		t.Fatalf("a missing zkey: %v", err)
	}
	h := newHost(t, "prover=sim", "prover.devices=2")
	key, _ := h.LoadKey(KeySource{})
	if _, err := h.Submit(context.Background(), key, make([]Partition, 1), JobOptions{Pin: true, GPUIndex: 2}); !errors.Is(err, StatusInvalidArgument) {
		t.Fatalf("gpu_index 2 of 2 devices: %v", err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := h.LoadKey(KeySource{}); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

func TestSnarkjsProofJSONRoundTrips(t *testing.T) {
	js := read(t, filepath.Join(repo, "samples/circuits/multiplier_bn128/proof.json"))
	curve, proof, err := ProofFromSnarkjsJSON(js)
	if err != nil || curve != CurveBN254 || len(proof) != 256 {
		t.Fatalf("%v %v %d", err, curve, len(proof))
	}
	again, _ := ProofToSnarkjsJSON(curve, proof)
	if _, back, _ := ProofFromSnarkjsJSON(again); !bytes.Equal(back, proof) {
		t.Fatal("proof.json does not round-trip")
	}
	pub, _ := PublicFromSnarkjsJSON([]byte(`["33"]`))
	if pub[0] != 33 || len(pub) != 32 {
		t.Fatalf("%v", pub)
	}
}

// Verify's answers: true, false for a proof that was checked and does not verify, and an
// error with its status when it cannot check. Goroutines verify at once while a job runs
// (go test -race checks the package's side of that).
func TestVerifyThroughTheHost(t *testing.T) {
	dir := filepath.Join(repo, "samples/circuits/multiplier_bn128")
	h := newHost(t, "prover=cpu", "workers_per_device=1")
	key, err := h.LoadKey(KeySource{Path: filepath.Join(dir, "circuit.zkey")})
	if err != nil {
		t.Fatal(err)
	}
	prove := func() Completion {
		job, err := h.Submit(context.Background(), key, []Partition{{WitnessFile: filepath.Join(dir, "witness.wtns")}}, JobOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c := collect(t, job)[0]
		if c.Err != nil {
			t.Fatal(c.Err)
		}
		return c
	}
	c := prove()
	if ok, err := h.Verify(key, c.Proof, c.PublicInputs); err != nil || !ok {
		t.Fatalf("a valid proof: %v %v", ok, err)
	}
	tampered := append([]byte(nil), c.Proof...)
	tampered[0] ^= 1
	if ok, err := h.Verify(key, tampered, c.PublicInputs); err != nil || ok {
		t.Fatalf("a tampered proof: %v %v", ok, err)
	}
	other, _ := PublicFromSnarkjsJSON([]byte(`["34"]`))
	if ok, err := h.Verify(key, c.Proof, other); err != nil || ok {
		t.Fatalf("another public input: %v %v", ok, err)
	}

	cases := []struct {
		name          string
		key           Key
		proof, public []byte
		want          Status
		says          string
	}{
		{"an unknown key", Key{ID: key.ID + 100}, c.Proof, c.PublicInputs, StatusNotFound, "is unknown"},
		{"a short proof", key, c.Proof[:100], c.PublicInputs, StatusBadInput, "the proof is 100 bytes"},
		{"no proof", key, nil, c.PublicInputs, StatusBadInput, "the proof is 0 bytes"},
		{"two public inputs", key, c.Proof, append(append([]byte(nil), c.PublicInputs...), c.PublicInputs...), StatusBadInput, "2 public input(s)"},
		{"no public inputs", key, c.Proof, nil, StatusBadInput, "0 public input(s)"},
	}
	for _, tc := range cases {
		ok, err := h.Verify(tc.key, tc.proof, tc.public)
		if ok || !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, %v; want %v saying %q", tc.name, ok, err, tc.want, tc.says)
		}
	}

	var wg sync.WaitGroup
	failures := make(chan string, 64)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 4; i++ {
				if ok, err := h.Verify(key, c.Proof, c.PublicInputs); err != nil || !ok {
					failures <- fmt.Sprintf("valid: %v %v", ok, err)
				}
				if ok, err := h.Verify(key, tampered, c.PublicInputs); err != nil || ok {
					failures <- fmt.Sprintf("tampered: %v %v", ok, err)
				}
			}
		}()
	}
	again := prove() // a job in flight beside the goroutines
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	if ok, err := h.Verify(key, again.Proof, again.PublicInputs); err != nil || !ok {
		t.Fatalf("the second proof: %v %v", ok, err)
	}

	sim := newHost(t, "prover=sim")
	simKey, _ := sim.LoadKey(KeySource{})
	if _, err := sim.Verify(simKey, c.Proof, c.PublicInputs); !errors.Is(err, StatusUnsupported) {
		t.Fatalf("the sim prover: %v", err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Verify(key, c.Proof, c.PublicInputs); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

func TestDeviceInfoAndPacerStatus(t *testing.T) {
	h := newHost(t, "prover=sim", "prover.devices=2", "prover.gpu_ms=1")
	key, _ := h.LoadKey(KeySource{})
	job, err := h.Submit(context.Background(), key, make([]Partition, 3), JobOptions{Pin: true, GPUIndex: 1})
	if err != nil {
		t.Fatal(err)
	}
	collect(t, job)
	job.Wait()
	for gpu, proved := range []uint64{0, 3} {
		d, err := h.DeviceInfo(uint32(gpu))
		if err != nil || !strings.Contains(d.Name, "simulated") || d.PartitionsProved != proved || d.PartitionsStarted != proved {
			t.Fatalf("device %d: %+v %v", gpu, d, err)
		}
		if proved > 0 && d.Busy < 3*time.Millisecond {
			t.Fatalf("device %d busy %v after 3 partitions of 1 ms", gpu, d.Busy)
		}
	}
	if _, err := h.DeviceInfo(2); !errors.Is(err, StatusInvalidArgument) || !strings.Contains(err.Error(), "out of range") {
		t.Fatalf("device 2 of 2: %v", err)
	}
	line, err := h.PacerStatus()
	if err != nil || line == "" || strings.ContainsRune(line, 0) {
		t.Fatalf("pacer status %q: %v", line, err)
	}
	cpu := newHost(t, "prover=cpu")
	if d, err := cpu.DeviceInfo(0); err != nil || !strings.HasPrefix(d.Name, "cpu (") || d.MemoryBytes == 0 {
		t.Fatalf("cpu device: %+v %v", d, err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := h.PacerStatus(); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
	if _, err := h.DeviceInfo(0); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// KeySource.WitnessGenerator and Partition.Input reach the host (the end-to-end path, a
// generator built from circom's output, is tests/witness/circom_witness.sh's): a generator
// file that does not exist fails the load; an input partition of a key without one is refused.
func TestInputsNeedAWitnessGeneratorThatExists(t *testing.T) {
	h := newHost(t, "prover=cpu", "workers_per_device=1", "synthesis_threads=1")
	dir := vectorDirs(t)[0]
	zkey := filepath.Join(dir, "circuit.zkey")
	_, err := h.LoadKey(KeySource{Path: zkey, WitnessGenerator: filepath.Join(dir, "no-such.witness.so")})
	var e *Error
	if !errors.As(err, &e) || e.Status != StatusNotFound || !strings.Contains(e.Message, "no-such.witness.so") {
		t.Fatalf("load with a missing generator: %v", err)
	}
	key, err := h.LoadKey(KeySource{Path: zkey})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.Submit(context.Background(), key, []Partition{{Input: []byte(`{"x": "3"}`)}}, JobOptions{})
	if !errors.As(err, &e) || e.Status != StatusInvalidArgument || !strings.Contains(e.Message, "has no witness generator") {
		t.Fatalf("an input without a generator: %v", err)
	}
}
