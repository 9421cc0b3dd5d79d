package zkpipe

// #include <stdlib.h>
// #include <zkpipe/zkpipe.h>
// zkp_status_t zkp_go_set_log_sink(int route, zkp_error_t *err);
import "C"

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"
	"unsafe"
)

// LogLevel is a log line's level (ZKP_LOG_*).
type LogLevel int32

const (
	LogTrace LogLevel = C.ZKP_LOG_TRACE
	LogDebug LogLevel = C.ZKP_LOG_DEBUG
	LogInfo  LogLevel = C.ZKP_LOG_INFO
	LogWarn  LogLevel = C.ZKP_LOG_WARN
	LogError LogLevel = C.ZKP_LOG_ERROR
)

func (l LogLevel) String() string {
	switch l {
	case LogTrace:
		return "trace"
	case LogDebug:
		return "debug"
	case LogInfo:
		return "info"
	case LogWarn:
		return "warn"
	case LogError:
		return "error"
	}
	return fmt.Sprintf("LogLevel(%d)", int32(l))
}

// LogRecord is one of the host's log lines.
type LogRecord struct {
	Level   LogLevel
	Logger  string // the logger's name: "zkpipe"
	Message string // one line, no trailing newline
	Time    time.Time
}

type logSink struct {
	min LogLevel
	fn  func(LogRecord)
}

// The installed sink. The host calls goOnLog with every line (it filters at ZKP_LOG_TRACE and
// the host's log_level); the level filter is here, next to the func it belongs with, so two
// SetLogSink calls at once can never pair one's level with the other's func.
var currentLogSink atomic.Pointer[logSink]

// SetLogSink routes the process's log lines at minLevel and above (and at the host's
// log_level and above, which filters first) to fn instead of stderr, replacing any previous
// sink. The sink is per process, not per Host: the host, its plugins and `zkpipe serve` share
// one logger. Set it before NewHost to see the lines of creating the host too.
//
// fn runs on the thread that logged: any host thread, or the caller's inside a host call,
// and on several at once, so it must be safe for concurrent use. A slow fn slows the thread
// that logged (a GPU worker, the completion thread); one that may block should queue the line
// and return. When SetLogSink returns, the previous fn is no longer running and will not be
// called again. Calling SetLogSink or ResetLogSink from inside fn fails with
// StatusInvalidArgument. A panic in fn is recovered and its line dropped. To feed the standard library's logger:
//
//	zkpipe.SetLogSink(zkpipe.LogInfo, func(r zkpipe.LogRecord) { log.Printf("zkpipe %s: %s", r.Level, r.Message) })
func SetLogSink(minLevel LogLevel, fn func(LogRecord)) error {
	if fn == nil {
		return ResetLogSink()
	}
	if minLevel < LogTrace || minLevel > LogError {
		return &Error{StatusInvalidArgument, fmt.Sprintf("SetLogSink: minLevel %d is not a LogLevel (LogTrace..LogError)", int32(minLevel))}
	}
	sink := &logSink{min: minLevel, fn: fn}
	// Stored first: the C call then waits for calls in flight, which may have read the
	// previous sink, so none of them runs once it returns.
	previous := currentLogSink.Swap(sink)
	if err := setLogRoute(true); err != nil {
		currentLogSink.CompareAndSwap(sink, previous) // refused (from inside fn): keep the previous
		return err
	}
	return nil
}

// ResetLogSink sends the log lines to stderr again; the previous fn is not called after it returns.
func ResetLogSink() error {
	if err := setLogRoute(false); err != nil {
		return err
	}
	currentLogSink.Store(nil)
	return nil
}

func setLogRoute(route bool) error {
	flag := C.int(0)
	if route {
		flag = 1
	}
	e := newError()
	return check(C.zkp_go_set_log_sink(flag, e), e)
}

//export goOnLog
func goOnLog(_ unsafe.Pointer, r *C.zkp_log_record_t) {
	record := LogRecord{
		Level:   LogLevel(r.level),
		Message: C.GoStringN(r.message, C.int(r.message_size)),
		Time:    time.Unix(0, int64(r.unix_time_ns)),
	}
	if r.logger != nil {
		record.Logger = C.GoString(r.logger)
	}
	sink := currentLogSink.Load()
	if sink == nil {
		// Only while a SetLogSink and a ResetLogSink race: the line is not lost.
		fmt.Fprintf(os.Stderr, "[%s] [%s] %s\n", record.Logger, record.Level, record.Message)
		return
	}
	if record.Level >= sink.min {
		// A panic must not unwind into the host's C++ frames: the line is dropped.
		defer func() { _ = recover() }()
		sink.fn(record)
	}
}
