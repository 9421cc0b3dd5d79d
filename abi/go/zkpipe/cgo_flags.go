//go:build zkpipe_nopkgconfig

package zkpipe

// Headers and the library folder come from CGO_CFLAGS and CGO_LDFLAGS.

// #cgo LDFLAGS: -lzkpipe
import "C"
