package main

import (
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// watchHeap writes the heap profile to path each time the live heap (as
// the last collection measured it) is a tenth above the largest one
// written, so that the file ends up describing the run's largest heap, not
// its last one: what a run keeps is often let go before it ends. The
// returned function stops the watch and writes a last profile if the heap
// grew since.
func watchHeap(path string) (stop func()) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var written uint64
	write := func(force bool) {
		metrics.Read(sample)
		live := sample[0].Value.Uint64()
		if !force && live <= written+written/10 || live <= written {
			return
		}
		f, err := os.Create(path)
		if err != nil {
			return
		}
		// The profile describes the heap of the last collection but one:
		// a collection now makes it describe the heap just measured.
		runtime.GC()
		pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
		written = live
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				write(true)
				return
			case <-t.C:
				write(false)
			}
		}
	}()
	return func() { close(done); <-finished }
}
