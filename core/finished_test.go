package core

import (
	"fmt"
	"testing"

	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
)

// TestFinishedHookSameReport: a run that is told of each compilation's
// graphs as they are finished (Options.Finished: analysed then, rows
// kept) writes every output byte for byte as the run that analyses all
// graphs at the end, merged or built in order; the graphs it is told of
// are those of the report, each once, with the report's figures, and on
// the mixes of many compilations most graphs are told of before the end.
func TestFinishedHookSameReport(t *testing.T) {
	for _, r := range spillRuns(t, 6<<20) {
		t.Run(r.name, func(t *testing.T) {
			srcs, _ := input.FromPaths(r.paths)
			for _, merge := range []bool{false, true} {
				want, _ := analyzeHeld(t, srcs, Options{alwaysMerge: merge})
				type told struct {
					build int
					fig   model.Figures
					confl int
				}
				seen := map[*model.Graph]told{}
				last := -1
				finished := func(build int, gs []*model.Graph) {
					if build < last {
						t.Errorf("build %d told after build %d", build, last)
					}
					last = build
					for _, g := range gs {
						if _, dup := seen[g]; dup {
							t.Errorf("graph %s/%s/%d told twice", g.PID, g.Graph, g.MemType)
						}
						seen[g] = told{build, g.Figures, len(g.Conflicts)}
					}
				}
				got, _ := analyzeHeld(t, srcs, Options{alwaysMerge: merge, Finished: finished})
				for _, o := range spillOutputs {
					for _, out := range export.OutputsWith(o) {
						sameOutput(t, fmt.Sprintf("merge %v, %+v", merge, o), out, want, got)
					}
				}
				inReport := map[*model.Graph]bool{}
				for _, g := range got.Graphs {
					inReport[g] = true
				}
				early := 0
				for g, tl := range seen {
					if tl.build != last {
						continue // an earlier build, started again
					}
					early++
					if !inReport[g] {
						t.Errorf("graph %s/%s/%d told of, not in the report", g.PID, g.Graph, g.MemType)
					}
					if tl.fig != g.Figures || tl.confl != len(g.Conflicts) {
						t.Errorf("graph %s/%s/%d told with %+v (%d conflicts), reported %+v (%d)", g.PID, g.Graph, g.MemType, tl.fig, tl.confl, g.Figures, len(g.Conflicts))
					}
				}
				if limit := max(8, 6*r.procs); len(got.Graphs) >= 3*limit && early < len(got.Graphs)-limit {
					t.Errorf("merge %v: %d of %d graphs told of before the end", merge, early, len(got.Graphs))
				}
				if r.name == "smallgraphs" && early == 0 {
					t.Error("smallgraphs: no graph told of, the comparison checks nothing")
				}
			}
		})
	}
}
