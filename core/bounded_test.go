package core

import (
	"fmt"
	"testing"

	"imas/core/input"
	"imas/core/model"
	"imas/internal/gen"
)

// TestMergeKeepsLittle: plain files of one or many processes that log at
// the same time are merged while they are read, and the parsed chunks
// waiting to be built stay about one per process, while a merge after the
// last file (the path of sources whose heads are unknown) holds them all.
// Both give the same report, in summary and in full.
func TestMergeKeepsLittle(t *testing.T) {
	for _, prof := range []string{"large", "poolheavy", "ranks", "smallgraphs"} {
		t.Run(prof, func(t *testing.T) {
			p, err := gen.ProfileByName(prof, 0, 16<<20)
			if err != nil {
				t.Fatal(err)
			}
			p.RotateBytes = 192 << 10 // many files, a chunk each
			dir := t.TempDir()
			if _, err := gen.Generate(p, dir); err != nil {
				t.Fatal(err)
			}
			procs := max(1, len(p.Processes))
			srcs, _ := input.FromPaths([]string{dir})
			for _, summary := range []bool{true, false} {
				t.Run(fmt.Sprint("summary=", summary), func(t *testing.T) {
					got, held := analyzeHeld(t, srcs, Options{Summary: summary})
					want, all := analyzeHeld(t, srcs, Options{Summary: summary, alwaysMerge: true})
					sameReport(t, got, want)
					if held > procs+2 || 3*held > all {
						t.Errorf("%d files (%d processes): %d parsed chunks held at once, %d by the merge after the last file", len(srcs), procs, held, all)
					}
				})
			}
		})
	}
}

// analyzeHeld is analyzePlanned that also returns the most parsed chunks
// held at once.
func analyzeHeld(t *testing.T, srcs []input.Source, opt Options) (*model.Report, int) {
	t.Helper()
	p := newPipeline(t.Context(), opt.withDefaults())
	p.plan(newHeads(srcs, opt.withDefaults().MaxLine))
	for k := range srcs {
		p.source(srcs[p.sourceAt(k)])
	}
	rep, err := p.finish()
	if err != nil {
		t.Fatal(err)
	}
	return rep, p.consumer.maxHeld
}
