// A client of `zkpipe serve` from Go (the zkpipe/client package): load a key on the server,
// prove a witness there, check what came back, and write proof.json and public.json. It
// starts no server: tests/client/with_serve.sh does, and passes where it listens
// (ZKPIPE_CLIENT_SOCKET, ZKPIPE_CLIENT_TCP and ZKPIPE_CLIENT_TOKEN_FILE), the vector to prove
// (ZKPIPE_CLIENT_KEY, ZKPIPE_CLIENT_WITNESS) and the folder for the proof (ZKPIPE_CLIENT_OUT),
// which it then checks with `zkpipe verify`.
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"zkpipe"
	"zkpipe/client"
)

func env(name string) string {
	v := os.Getenv(name)
	if v == "" {
		fmt.Fprintf(os.Stderr, "client: %s is not set (tests/client/with_serve.sh sets it)\n", name)
		os.Exit(2)
	}
	return v
}

func run() error {
	// The unix socket needs no token: its file mode is the access control.
	c, err := client.Connect(client.Options{Address: env("ZKPIPE_CLIENT_SOCKET")})
	if err != nil {
		return err
	}
	defer c.Close()
	key, err := c.LoadKey(env("ZKPIPE_CLIENT_KEY"), client.KeyFormatZkey)
	if err != nil {
		return err
	}
	fmt.Printf("key %d: curve %s, %d variables, %d public\n", key.ID, key.Curve.SnarkjsName(), key.NVars, key.NPublic)

	witness, err := os.ReadFile(env("ZKPIPE_CLIENT_WITNESS"))
	if err != nil {
		return err
	}
	job, err := c.Prove(key.ID, [][]byte{witness}, client.JobOptions{})
	if err != nil {
		return err
	}
	if len(job.Partitions) != 1 {
		return fmt.Errorf("job %d has %d partitions, expected 1", job.JobID, len(job.Partitions))
	}
	p := job.Partitions[0]
	if p.Err != nil {
		return p.Err
	}
	fmt.Printf("job %d partition %d: gpu_index %d, gpu_duration %.1f ms, total %.1f ms\n", job.JobID, p.Partition,
		p.GPUIndex, float64(p.GPUDuration.Microseconds())/1e3, float64(p.Total.Microseconds())/1e3)
	// The proof bytes, encoded here, say what the server's snarkjs JSON says.
	mine, err := zkpipe.ProofToSnarkjsJSON(p.Curve, p.Proof)
	if err != nil {
		return err
	}
	curve, theirs, err := zkpipe.ProofFromSnarkjsJSON([]byte(p.ProofJSON))
	if err != nil || curve != p.Curve || string(theirs) != string(p.Proof) {
		return fmt.Errorf("the proof bytes and the server's proof.json disagree (%v)", err)
	}
	out := env("ZKPIPE_CLIENT_OUT")
	if err := os.WriteFile(filepath.Join(out, "proof.json"), mine, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "public.json"), []byte(p.PublicJSON), 0o644); err != nil {
		return err
	}

	// TCP: every call carries the bearer token, or the server refuses it.
	anonymous, err := client.Connect(client.Options{Address: env("ZKPIPE_CLIENT_TCP")})
	if err != nil {
		return err
	}
	defer anonymous.Close()
	if _, err := anonymous.Health(); !errors.Is(err, client.StatusUnauthenticated) {
		return fmt.Errorf("TCP without the token: %v, expected unauthenticated", err)
	}
	fmt.Println("TCP without the token: refused")
	authorized, err := client.Connect(client.Options{Address: env("ZKPIPE_CLIENT_TCP"), TokenFile: env("ZKPIPE_CLIENT_TOKEN_FILE")})
	if err != nil {
		return err
	}
	defer authorized.Close()
	status, err := authorized.Status()
	if err != nil {
		return err
	}
	fmt.Printf("over TCP with the token: prover %s, %d keys, %d partitions proved\n", status.Prover, status.KeysLoaded, status.PartitionsSucceeded)
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "client: %v\n", err)
		os.Exit(1)
	}
}
