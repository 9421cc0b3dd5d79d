// Package client is a Go client of `zkpipe serve`, zkpipe's proving service, through cgo over
// libzkpipe_client (zkpipe/zkp_client.h: gRPC lives in that library, so this package needs
// no Go module beyond the standard library and the zkpipe package).
//
// Connect to a server's unix socket or TCP address, LoadKey there (a path on the server's
// machine; the key stays warm across calls and clients), and Prove: each Partition carries
// the proof (bytes and snarkjs JSON) and every field of the host's completion.
//
// Errors are the zkpipe package's *zkpipe.Error, with the server's status (StatusNotFound for
// an unknown key or job, StatusBadInput for a malformed witness, ...) or one of this package's:
// StatusUnavailable (no server answers) and StatusUnauthenticated (a TCP server refused the
// token); errors.Is(err, client.StatusUnauthenticated) tests it. The message names the call,
// the gRPC code and the server's words.
//
// Building: the package finds libzkpipe_client and its header with `pkg-config
// zkpipe-client`. Without an installed zkpipe-client.pc, build with -tags zkpipe_nopkgconfig
// and set CGO_CFLAGS to -I<repo>/abi (zkp_client.h is an ABI header, abi/zkpipe/zkp_client.h)
// and CGO_LDFLAGS to -L<lib dir> (tests/bindings/CMakeLists.txt does).
//
// A Client is safe for concurrent use: one connection carries calls from many goroutines.
// samples/go/client is a complete program, run by CTest against a real server.
package client
