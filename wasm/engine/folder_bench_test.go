package engine

import (
	"context"
	"os"
	"testing"

	"imas/core/input"
)

// BenchmarkAnalyzeFolder analyses the plog folder IMAS_BENCH_DIR (the
// page benchmarks' /tmp/imas-page-ranks-1G, say) as the page's engine
// does, with the finished graphs shown (early) and without (plain), to
// compare their cost natively; run each alone, under GOMAXPROCS=1 as in
// wasm, and compare CPU times.
func BenchmarkAnalyzeFolder(b *testing.B) {
	dir := os.Getenv("IMAS_BENCH_DIR")
	if dir == "" {
		b.Skip("IMAS_BENCH_DIR names no folder")
	}
	srcs, diags := input.FromPaths([]string{dir})
	if len(diags) > 0 {
		b.Fatal(diags)
	}
	for _, early := range []bool{false, true} {
		name := "plain"
		if early {
			name = "early"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var e *EarlyList
				if early {
					e = &EarlyList{}
				}
				if _, err := NewSession().AnalyzeShowing(context.Background(), SlotRun, srcs, nil, e); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
