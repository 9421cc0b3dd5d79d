//go:build zkpipe_nopkgconfig

package client

// Headers and the library folder come from CGO_CFLAGS and CGO_LDFLAGS.

// #cgo LDFLAGS: -lzkpipe_client
import "C"
