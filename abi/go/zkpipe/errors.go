package zkpipe

// #include <stdlib.h>
// #include <zkpipe/zkpipe.h>
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// Status is a failure class of the C API (zkp_status_t).
type Status int32

const (
	StatusOK                 Status = C.ZKP_OK
	StatusInvalidArgument    Status = C.ZKP_ERR_INVALID_ARGUMENT
	StatusNotFound           Status = C.ZKP_ERR_NOT_FOUND
	StatusABIMismatch        Status = C.ZKP_ERR_ABI_MISMATCH
	StatusBadInput           Status = C.ZKP_ERR_BAD_INPUT
	StatusUnsatisfiedWitness Status = C.ZKP_ERR_UNSATISFIED_WITNESS
	StatusOutOfMemory        Status = C.ZKP_ERR_OUT_OF_MEMORY
	StatusDevice             Status = C.ZKP_ERR_DEVICE
	StatusBudgetExhausted    Status = C.ZKP_ERR_BUDGET_EXHAUSTED
	StatusCancelled          Status = C.ZKP_ERR_CANCELLED
	StatusShortBuffer        Status = C.ZKP_ERR_SHORT_BUFFER
	StatusUnsupported        Status = C.ZKP_ERR_UNSUPPORTED
	StatusInternal           Status = C.ZKP_ERR_INTERNAL
	StatusTimeout            Status = C.ZKP_ERR_TIMEOUT
	// StatusInvalidProof: a proof that was checked and does not verify (Host.Verify
	// reports it as false, not as an error).
	StatusInvalidProof Status = C.ZKP_ERR_INVALID_PROOF
	// StatusDeviceLost: the device is unusable for good in the process that proved on it
	// (a sticky fault); with isolation = process the host restarts that process.
	StatusDeviceLost Status = C.ZKP_ERR_DEVICE_LOST
)

// String is the C API's name of the status ("bad input").
func (s Status) String() string { return C.GoString(C.zkp_status_name(C.zkp_status_t(s))) }

// Error is a failed call: its status and the message the host wrote.
// errors.Is(err, StatusCancelled) tests the status.
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return e.Status.String()
	}
	return fmt.Sprintf("%s: %s", e.Status, e.Message)
}

// Is reports whether target is this error's Status.
func (e *Error) Is(target error) bool {
	var s Status
	if errors.As(target, &s) {
		return s == e.Status
	}
	return false
}

// Error makes a Status usable as an errors.Is target.
func (s Status) Error() string { return s.String() }

// newError returns an error record on the C heap (the callee writes into it).
func newError() *C.zkp_error_t {
	e := (*C.zkp_error_t)(C.calloc(1, C.sizeof_zkp_error_t))
	e.header.struct_size = C.sizeof_zkp_error_t
	e.header.struct_version = 1
	return e
}

// check turns a status and its record into an error, and frees the record.
func check(status C.zkp_status_t, err *C.zkp_error_t) error {
	defer C.free(unsafe.Pointer(err))
	if status == C.ZKP_OK {
		return nil
	}
	return &Error{Status: Status(status), Message: C.GoString(&err.message[0])}
}
