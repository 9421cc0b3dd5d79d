package zkpipe

/*
#include <stdlib.h>
#include "verifier.h"
*/
import "C"

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unsafe"
)

// Verifier checks proofs against a proving key with a prover plugin's pairing (the C host
// API has no verify). It opens its own instance of the plugin; zkpipe's plugins accept a
// host and a verifier initialising them in one process. Safe for concurrent use.
type Verifier struct {
	v       *C.zkp_go_verifier
	keyData unsafe.Pointer // .zkey bytes in C memory, read by the prover until Close
}

// findPlugin resolves a prover plugin as the host does: a path, or libzkp_prover_NAME.so in
// $ZKPIPE_PLUGIN_PATH, then libzkpipe's folder and its ../lib/zkpipe and ../lib.
func findPlugin(name string) (string, error) {
	if strings.Contains(name, "/") || strings.HasSuffix(name, ".so") {
		return name, nil
	}
	file := "libzkp_prover_" + name + ".so"
	var folders []string
	for _, f := range filepath.SplitList(os.Getenv("ZKPIPE_PLUGIN_PATH")) {
		if f != "" {
			folders = append(folders, f)
		}
	}
	buf := make([]byte, 4096)
	if n := C.zkp_go_libzkpipe_path((*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf))); n > 0 && int(n) < len(buf) {
		if lib, err := filepath.EvalSymlinks(string(buf[:n])); err == nil {
			own := filepath.Dir(lib)
			folders = append(folders, own, filepath.Join(own, "../lib/zkpipe"), filepath.Join(own, "../lib"))
		}
	}
	for _, f := range folders {
		if _, err := os.Stat(filepath.Join(f, file)); err == nil {
			return filepath.Join(f, file), nil
		}
	}
	return "", &Error{StatusNotFound, fmt.Sprintf("prover plugin %q: no %s in %v (set ZKPIPE_PLUGIN_PATH)", name, file, folders)}
}

// NewVerifier opens prover plugin `prover` ("cpu", or a path to a .so) and loads key into it.
func NewVerifier(prover string, key KeySource) (*Verifier, error) {
	path, err := findPlugin(prover)
	if err != nil {
		return nil, err
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	source := (*C.zkp_key_source_t)(C.calloc(1, C.sizeof_zkp_key_source_t))
	defer C.free(unsafe.Pointer(source))
	source.header.struct_size = C.sizeof_zkp_key_source_t
	source.header.struct_version = 1
	out := &Verifier{}
	switch {
	case key.Path != "":
		source.path = C.CString(key.Path)
		defer C.free(unsafe.Pointer(source.path))
	case len(key.Data) > 0:
		out.keyData = C.CBytes(key.Data)
		source.data, source.size = out.keyData, C.size_t(len(key.Data))
	default:
		return nil, &Error{StatusInvalidArgument, "a Verifier needs a key"}
	}
	e := newError()
	if err := check(C.zkp_go_verifier_open(cpath, source, &out.v, e), e); err != nil {
		C.free(out.keyData)
		return nil, err
	}
	return out, nil
}

// Verify checks a proof (the ABI's bytes) and its public inputs: true valid, false invalid,
// an error if it could not check.
func (v *Verifier) Verify(proof, public []byte) (bool, error) {
	if len(proof) == 0 {
		return false, &Error{StatusInvalidArgument, "no proof"}
	}
	var pub *C.uint8_t
	if len(public) > 0 {
		pub = (*C.uint8_t)(unsafe.Pointer(&public[0])) // read during the call only
	}
	var valid C.int32_t
	e := newError()
	err := check(C.zkp_go_verify(v.v, (*C.uint8_t)(unsafe.Pointer(&proof[0])), C.size_t(len(proof)), pub, C.size_t(len(public)), &valid, e), e)
	return valid == 1, err
}

// Close frees the key and the plugin instance.
func (v *Verifier) Close() {
	C.zkp_go_verifier_close(v.v)
	C.free(v.keyData)
	v.v, v.keyData = nil, nil
}
