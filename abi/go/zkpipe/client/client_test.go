package client

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"zkpipe"
)

// Nothing listening: StatusUnavailable, naming the address (a server is samples/go/client's test).
func TestNothingListeningIsUnavailable(t *testing.T) {
	address := "unix:" + filepath.Join(t.TempDir(), "nothing.sock")
	c, err := Connect(Options{Address: address, ConnectTimeout: 200 * time.Millisecond})
	if c != nil || !errors.Is(err, StatusUnavailable) {
		t.Fatalf("Connect(%s) = %v, %v; want StatusUnavailable", address, c, err)
	}
	if !strings.Contains(err.Error(), "no zkpipe serve answers on "+address) {
		t.Errorf("the message does not name the address: %v", err)
	}
	var e *zkpipe.Error
	if !errors.As(err, &e) || e.Status != StatusUnavailable {
		t.Errorf("not a *zkpipe.Error with the status: %#v", err)
	}
}

func TestBadOptionsNameTheField(t *testing.T) {
	_, err := Connect(Options{Address: "unix:/x", Token: "t", TokenFile: "/tmp/t"})
	if !errors.Is(err, zkpipe.StatusInvalidArgument) || !strings.Contains(err.Error(), "token_file") {
		t.Errorf("token and token file: %v; want invalid argument naming token_file", err)
	}
	_, err = Connect(Options{Address: "unix:/x", TokenFile: "/nonexistent/token"})
	if !errors.Is(err, zkpipe.StatusNotFound) || !strings.Contains(err.Error(), "/nonexistent/token") {
		t.Errorf("a missing token file: %v; want not found naming it", err)
	}
}

// A job in C memory says what the Go side asked for (its bytes: samples/go/client's test).
func TestJobDescribesItsWitnesses(t *testing.T) {
	j := newJob(7, [][]byte{{1, 2, 3}, {4}}, JobOptions{Pin: true, GPUIndex: 1, Priority: 3})
	defer j.free()
	if j.raw.key_id != 7 || j.raw.witness_count != 2 || j.raw.gpu_index != 1 || j.raw.priority != 3 || j.raw.flags != 0 {
		t.Fatalf("job = %+v", *j.raw)
	}
	// Inputs: the witnesses are input.json texts (ZKP_CLIENT_JOB_INPUTS).
	if in := newJob(1, [][]byte{[]byte(`{"x": "3"}`)}, JobOptions{Inputs: true}); in.raw.flags != jobInputs {
		t.Errorf("Inputs: flags %d", in.raw.flags)
	} else {
		in.free()
	}
	if k := newJob(1, [][]byte{{1}}, JobOptions{}); k.raw.gpu_index != -1 {
		t.Errorf("no Pin: gpu_index %d, want -1", k.raw.gpu_index)
	} else {
		k.free()
	}
}
