package zkpipe

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// lines collects the records a sink receives, from any thread.
type lines struct {
	mu  sync.Mutex
	got []LogRecord
}

func (l *lines) add(r LogRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, r)
}

func (l *lines) snapshot() []LogRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]LogRecord(nil), l.got...)
}

func createSimHost(t *testing.T) {
	h, err := NewHost("", "prover=sim", "log_level=info")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestLogSinkReceivesTheHostsReadyLine(t *testing.T) {
	t.Cleanup(func() { _ = ResetLogSink() })
	var l lines
	if err := SetLogSink(LogTrace, l.add); err != nil {
		t.Fatal(err)
	}
	before := time.Now().Add(-time.Second) // the host's clock is read at millisecond steps elsewhere
	createSimHost(t)
	found := false
	for _, r := range l.snapshot() {
		if r.Level == LogInfo && r.Logger == "zkpipe" && strings.HasPrefix(r.Message, "host ready: prover 'sim") {
			found = true
			if r.Time.Before(before) || r.Time.After(time.Now()) {
				t.Errorf("time %v is not the line's", r.Time)
			}
		}
	}
	if !found {
		t.Fatalf("no 'host ready' line at info in %v", l.snapshot())
	}
}

func TestLogSinkMinLevelAndReset(t *testing.T) {
	t.Cleanup(func() { _ = ResetLogSink() })
	var l lines
	if err := SetLogSink(LogWarn, l.add); err != nil {
		t.Fatal(err)
	}
	createSimHost(t)
	for _, r := range l.snapshot() {
		if r.Level < LogWarn {
			t.Errorf("a %s line passed minLevel warn: %s", r.Level, r.Message)
		}
	}
	var after lines
	if err := SetLogSink(LogTrace, after.add); err != nil {
		t.Fatal(err)
	}
	if err := ResetLogSink(); err != nil {
		t.Fatal(err)
	}
	createSimHost(t)
	if got := after.snapshot(); len(got) != 0 {
		t.Errorf("a reset sink received %d lines", len(got))
	}
}

func TestLogSinkRefusesBadLevelsAndCallsFromInside(t *testing.T) {
	t.Cleanup(func() { _ = ResetLogSink() })
	var e *Error
	if err := SetLogSink(LogLevel(9), func(LogRecord) {}); !errors.As(err, &e) || e.Status != StatusInvalidArgument {
		t.Fatalf("minLevel 9: %v", err)
	}
	var once sync.Once
	var inside error
	done := make(chan struct{})
	err := SetLogSink(LogTrace, func(LogRecord) {
		once.Do(func() {
			inside = ResetLogSink()
			close(done)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	createSimHost(t)
	<-done
	if !errors.As(inside, &e) || e.Status != StatusInvalidArgument {
		t.Fatalf("ResetLogSink from inside the sink: %v", inside)
	}
}

func TestLogSinkSurvivesAPanic(t *testing.T) {
	t.Cleanup(func() { _ = ResetLogSink() })
	if err := SetLogSink(LogTrace, func(LogRecord) { panic("a sink that panics") }); err != nil {
		t.Fatal(err)
	}
	createSimHost(t) // the host carries on; the lines are dropped
}
