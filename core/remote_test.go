package core

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"imas/core/input"
	"imas/internal/gen"
)

// remoteParser parses chunks through the encoded path a parse worker
// takes (request bytes in, parsed-chunk bytes out), checking that every
// answer decodes (a chunk that fell back to the local parse would make
// the comparison below pass without testing the codec).
func remoteParser(t *testing.T, used *atomic.Int64) ChunkParser {
	workers := sync.Pool{New: func() any { return new(ChunkWorker) }}
	return func(_ context.Context, head, data []byte) ([]byte, error) {
		w := workers.Get().(*ChunkWorker)
		defer workers.Put(w)
		b, err := w.Parse(append(slices.Clip(head), data...))
		if err != nil {
			t.Errorf("parse worker: %v", err)
			return nil, err
		}
		if _, err := readChunk(b); err != nil {
			t.Errorf("parsed chunk does not decode: %v", err)
		}
		used.Add(1)
		return b, nil
	}
}

// TestRemoteParseSameReport analyses inputs with their chunks parsed
// through the parse workers' codec and in process: the reports must be
// the same, byte for byte.
func TestRemoteParseSameReport(t *testing.T) {
	type inputs struct {
		name string
		srcs func(t *testing.T) []input.Source
	}
	fromPaths := func(paths ...string) func(t *testing.T) []input.Source {
		return func(t *testing.T) []input.Source {
			srcs, diags := input.FromPaths(paths)
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			return srcs
		}
	}
	generated := func(profile string, size int64) func(t *testing.T) []input.Source {
		return func(t *testing.T) []input.Source {
			p, err := gen.ProfileByName(profile, 0, size)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if _, err := gen.Generate(p, dir); err != nil {
				t.Fatal(err)
			}
			return fromPaths(dir)(t)
		}
	}
	cases := []inputs{
		{"samples", fromPaths("../testdata/samples")},
		{"gen", fromPaths("../testdata/gen")},
		{"poolheavy", generated("poolheavy", 24<<20)},
		{"ranks", generated("ranks", 24<<20)},
		{"hostile", generated("hostile", 0)},
		{"overlong lines, no final newline", func(t *testing.T) []input.Source {
			data := sampleLog(t)
			half := bytes.IndexByte(data[len(data)/2:], '\n') + len(data)/2 + 1
			text := slices.Concat(data[:half], bytes.Repeat([]byte("[IMAS]Set x"), 7<<10), []byte("\n"), data[half:len(data)-1])
			return []input.Source{input.BytesSource("long.log", text)}
		}},
	}
	if real, err := os.ReadDir(realLogsDir); err == nil {
		var paths []string
		for _, e := range real {
			if n := e.Name(); strings.HasSuffix(n, ".log") || strings.HasSuffix(n, ".txt") {
				paths = append(paths, filepath.Join(realLogsDir, n))
			}
		}
		cases = append(cases, inputs{"real logs", fromPaths(paths...)})
	} else if os.Getenv("CI") != "" {
		t.Fatalf("CI needs the real logs in %s: %v", realLogsDir, err)
	} else {
		t.Logf("no real logs in %s: those are not compared", realLogsDir)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srcs := c.srcs(t)
			want, err := Analyze(context.Background(), srcs, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var used atomic.Int64
			got, err := Analyze(context.Background(), srcs, Options{Parser: remoteParser(t, &used), Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			if used.Load() == 0 {
				t.Fatal("no chunk went through the parse workers' path")
			}
			if len(want.Graphs)+len(want.Diagnostics) == 0 {
				t.Fatal("nothing analysed")
			}
			sameReport(t, got, want)
		})
	}
}

const realLogsDir = "../../shared/real-logs"

// sampleLog is a sample log with records of several kinds.
func sampleLog(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../testdata/samples/mixed/plog-20000_20261202080000000.log")
	if err != nil || !bytes.Contains(data, []byte("[IMAS]")) {
		t.Fatalf("sample log: %v", err)
	}
	return data
}

// TestReadChunkDamaged feeds every prefix and some flipped bytes of an
// encoded chunk to the decoder: it must refuse or decode, never panic.
func TestReadChunkDamaged(t *testing.T) {
	data := sampleLog(t)
	var w ChunkWorker
	b, err := w.Parse(AppendChunkRequest(nil, ChunkRequest{Data: data, File: 0, MaxLine: 64 << 10}))
	if err != nil {
		t.Fatal(err)
	}
	r, err := readChunk(b)
	if err != nil || len(r.items) == 0 || r.tape.Len() == 0 || len(r.records) == 0 {
		t.Fatalf("whole chunk: %v (%d items)", err, len(r.items))
	}
	step := max(1, len(b)/3000)
	for n := 0; n < len(b); n += step {
		if _, err := readChunk(b[:n]); err == nil {
			t.Fatalf("a chunk cut at %d of %d bytes decoded", n, len(b))
		}
		c := bytes.Clone(b)
		c[n] ^= 0x5a
		readChunk(c) // must not panic
	}
}
