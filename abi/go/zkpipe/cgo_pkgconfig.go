//go:build !zkpipe_nopkgconfig

package zkpipe

// #cgo pkg-config: zkpipe
import "C"
