package main

import (
	"bytes"
	"compress/gzip"

	"imas/internal/gen"
)

// SampleProfile is the log behind the page's "Try a sample" button: one
// process of the current templates with three graphs, a reuse conflict,
// device mallocs and a little noise. Generated, never a real log.
var SampleProfile = gen.Profile{Name: "sample", Seed: 7, NoiseRatio: 0.05, Processes: []gen.ProcessSpec{{
	PID: 4242, Generation: gen.Gen2025, Graphs: 3, Ops: 10, Streams: 2, Continuous: 0.5, Inplace: 0.05,
	Atomic: 1, Conflicts: 1, Mallocs: true,
}}}

// Sample returns SampleProfile's log, gzipped: a few KB inlined in the
// page, read as any .gz is.
func Sample() ([]byte, error) {
	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := gen.GenerateStream(SampleProfile, zw, "plog-sample.log"); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return z.Bytes(), nil
}
