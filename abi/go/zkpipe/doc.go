// Package zkpipe is the Go API of zkpipe, a Groth16 proving engine, through cgo.
//
// A Host owns one prover plugin and one pacer plugin, chosen by its configuration. Load a
// proving key, Submit a job of partitions (witness files, .wtns bytes, assignments, or
// a/b/c synthesized by the caller), and read one Completion per partition from the job's
// channel; Wait returns the job's Summary. Cancelling the context passed to Submit cancels
// the job (zkp_host_cancel). Verify checks a proof against a loaded key with the host's
// prover (zkp_host_verify); UnloadKey drops a key (zkp_host_unload_key); DeviceInfo,
// PacerStatus and Stats describe the host. Close drains the host and frees it.
//
// Building: the package finds libzkpipe and its headers with `pkg-config zkpipe`. Without
// an installed zkpipe.pc, build with -tags zkpipe_nopkgconfig and set CGO_CFLAGS to
// -I<repo>/abi and CGO_LDFLAGS to -L<lib dir> (tests/bindings/CMakeLists.txt does).
//
// cgo's pointer rules: the host keeps pointers to a job's buffers until the job ends, so
// Submit copies every buffer into C memory, freed when the job's summary arrives; the
// host's user_data holds a cgo.Handle in C memory, never a Go pointer. Callbacks run on
// the host's completion thread and only copy the record and send it on a channel whose
// buffer holds every partition, so they never block the host.
//
// Host, Job and their methods are safe for concurrent use.
package zkpipe
