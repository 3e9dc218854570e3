package core_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"imas/core"
	"imas/core/gelog"
	"imas/core/input"
	"imas/core/plog"
	"imas/core/scan"
	"imas/internal/gen"
)

var (
	largeOnce sync.Once
	largeLog  []byte
)

// large is ~32 MB of the generator's "large" profile (about 14% [IMAS] lines).
func large(b *testing.B) []byte {
	largeOnce.Do(func() {
		var err error
		if largeLog, err = gen.Log("large", 32<<20); err != nil {
			b.Fatal(err)
		}
	})
	return largeLog
}

// BenchmarkAnalyze is the whole pipeline: scan, parse, build, analyse.
func BenchmarkAnalyze(b *testing.B) {
	data := large(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := core.Analyze(context.Background(), []input.Source{input.BytesSource("large.log", data)}, core.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCandidateLines is the scan for marker lines alone.
func BenchmarkCandidateLines(b *testing.B) {
	data := large(b)
	b.SetBytes(int64(len(data)))
	var dst []int
	for i := 0; i < b.N; i++ {
		dst = scan.CandidateLines(data, dst[:0])
	}
}

// BenchmarkParseCandidates parses every candidate line (envelope + statement).
func BenchmarkParseCandidates(b *testing.B) {
	data := large(b)
	starts := scan.CandidateLines(data, nil)
	var lines [][]byte
	for _, s := range starts {
		e := bytes.IndexByte(data[s:], '\n')
		lines = append(lines, data[s:s+e])
	}
	b.ReportMetric(float64(len(lines)), "lines/op")
	b.ReportAllocs()
	var env plog.Envelope
	for i := 0; i < b.N; i++ {
		for _, l := range lines {
			ok := plog.Parse(l, &env)
			gelog.Parse(&env, ok, l, gelog.Meta{})
		}
	}
}

var (
	mixMu   sync.Mutex
	mixLogs = map[string][]byte{}
)

// mixLog is 32 MB of a generated mix (internal/gen's sized profiles) as
// one log.
func mixLog(b *testing.B, mix string) []byte {
	mixMu.Lock()
	defer mixMu.Unlock()
	if data, ok := mixLogs[mix]; ok {
		return data
	}
	data, err := gen.Log(mix, 32<<20)
	if err != nil {
		b.Fatal(err)
	}
	mixLogs[mix] = data
	return data
}

// BenchmarkTotalMix is what "imas total" computes (a summary build and its
// analyses) for 32 MB of each mix: Set-heavy, pool-heavy, many processes,
// many small graphs.
func BenchmarkTotalMix(b *testing.B) {
	for _, mix := range []string{"large", "poolheavy", "ranks", "smallgraphs"} {
		b.Run(mix, func(b *testing.B) {
			data := mixLog(b, mix)
			src := []input.Source{input.BytesSource(mix+".log", data)}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := core.Analyze(context.Background(), src, core.Options{Summary: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTotalFiles is "imas total DIR" over 64 MB of generated plog
// files of each mix, as they lie in a folder: one process's rotated files
// built chunk by chunk (large), sixteen processes read side by side and
// merged by time (ranks), many small graphs finished as they end
// (smallgraphs).
func BenchmarkTotalFiles(b *testing.B) {
	for _, mix := range []string{"large", "ranks", "smallgraphs"} {
		b.Run(mix, func(b *testing.B) {
			p, err := gen.ProfileByName(mix, 0, 64<<20)
			if err != nil {
				b.Fatal(err)
			}
			dir := b.TempDir()
			if _, err := gen.Generate(p, dir); err != nil {
				b.Fatal(err)
			}
			srcs, _ := input.FromPaths([]string{dir})
			var size int64
			for _, s := range srcs {
				size += s.Size
			}
			b.SetBytes(size)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := core.Analyze(context.Background(), srcs, core.Options{Summary: true, FiguresOnly: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
