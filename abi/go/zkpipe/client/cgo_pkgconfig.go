//go:build !zkpipe_nopkgconfig

package client

// #cgo pkg-config: zkpipe-client
import "C"
