package core

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
	"imas/core/spill"
	"imas/internal/gen"
)

// spillRun is one input of the spill tests.
type spillRun struct {
	name  string
	paths []string
	procs int
}

func spillRuns(t *testing.T, size int64) []spillRun {
	t.Helper()
	var runs []spillRun
	for _, prof := range []string{"basic", "mixed", "conflicts", "pool", "hostile", "large", "poolheavy", "ranks", "smallgraphs"} {
		p, err := gen.ProfileByName(prof, 0, size)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := gen.Generate(p, dir); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, spillRun{prof, []string{dir}, len(p.Processes)})
	}
	for _, s := range []string{"basic", "conflicts", "mixed", "pool"} {
		runs = append(runs, spillRun{"sample " + s, []string{"../testdata/samples/" + s}, 0})
	}
	// The real logs, where they are (reallogs_test.go requires them in CI).
	const realLogs = "../../shared/real-logs"
	ents, _ := os.ReadDir(realLogs)
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".log") || strings.HasSuffix(n, ".txt") {
			runs = append(runs, spillRun{"real " + n, []string{filepath.Join(realLogs, n)}, 0})
		}
	}
	return runs
}

// spillOutputs are the option sets whose outputs must not depend on the
// spill: the default, the proto trace of every graph, report.json without
// rows.
var spillOutputs = []export.TraceOptions{
	{},
	{Format: export.TraceProto, Scope: export.TraceScope{Graphs: export.AllGraphs}},
	{OmitRows: true, Scope: export.TraceScope{Graphs: 2}},
}

// TestSpilledReportEqualsRetained: "imas report" with a spill store
// (Options.Spill: each finished graph analysed at once and its rows moved
// to a temporary file) writes every output byte for byte as the report
// that keeps every row, on every generated mix, the samples and the real
// logs, merged or built in order; and few graphs hold their rows at once.
func TestSpilledReportEqualsRetained(t *testing.T) {
	for _, r := range spillRuns(t, 6<<20) {
		t.Run(r.name, func(t *testing.T) {
			srcs, _ := input.FromPaths(r.paths)
			for _, merge := range []bool{false, true} {
				want, _ := analyzeHeld(t, srcs, Options{alwaysMerge: merge})
				store, err := spill.New(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				// A few address rows held at once: they are moved to the
				// store on these small inputs too.
				const held = 7
				p, srcs := planned(t.Context(), srcs, Options{Spill: store, alwaysMerge: merge, addrRowsHeld: held})
				p.readAll(srcs)
				got, err := p.finish()
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range spillOutputs {
					for _, out := range export.OutputsWith(o) {
						sameOutput(t, fmt.Sprintf("merge %v, %+v", merge, o), out, want, got)
					}
				}
				open := p.consumer.built.MaxOpenGraphs()
				if limit := max(8, 6*r.procs); len(got.Graphs) >= 3*limit && (open > limit || store.Graphs() < len(got.Graphs)-limit) {
					t.Errorf("merge %v: %d graphs, up to %d held rows at once, %d spilled", merge, len(got.Graphs), open, store.Graphs())
				}
				if r.name == "smallgraphs" && store.Graphs() == 0 {
					t.Error("smallgraphs: no graph spilled, the comparison checks nothing")
				}
				if inMemory, moved := addrRowsKept(got); inMemory > held || r.name == "smallgraphs" && moved == 0 {
					t.Errorf("merge %v: %d address rows kept in memory (at most %d), %d moved to the store", merge, inMemory, held, moved)
				}
				if err := store.Close(); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestSpillKeepsFewRows: as the input grows, the rows a spilled report
// keeps in memory do not: the graphs still holding rows at the end, and
// the most open at once, stay below a bound set by the processes, while
// the spill store takes the rest.
func TestSpillKeepsFewRows(t *testing.T) {
	var spilled []int
	for _, size := range []int64{2 << 20, 8 << 20} {
		p, err := gen.ProfileByName("smallgraphs", 0, size)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := gen.Generate(p, dir); err != nil {
			t.Fatal(err)
		}
		store, err := spill.New(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		srcs, _ := input.FromPaths([]string{dir})
		rep, _ := analyzeHeld(t, srcs, Options{Spill: store})
		inMemory := 0
		for _, g := range rep.Graphs {
			inMemory += len(g.Rows) + len(g.Reassign) + len(g.AtomicPieces)
		}
		limit := max(8, 6*len(p.Processes))
		open := 0
		for _, g := range rep.Graphs {
			if len(g.Rows) > 0 {
				open++
			}
		}
		if open > limit || rep.Spilled == nil {
			t.Errorf("%d MiB: %d of %d graphs hold rows at the end (%d rows); want at most %d", size>>20, open, len(rep.Graphs), inMemory, limit)
		}
		total := 0
		for _, g := range rep.Graphs {
			total += rep.RowCount(g)
		}
		if total < 4*inMemory {
			t.Errorf("%d MiB: %d of %d rows in memory; want most in the store", size>>20, inMemory, total)
		}
		spilled = append(spilled, store.Graphs())
	}
	if spilled[1] <= 2*spilled[0] {
		t.Errorf("the store took %d then %d graphs: the larger input should spill more", spilled[0], spilled[1])
	}
}

// addrRowsKept is how many address rows of rep's checks are in memory and
// how many in its spill store.
func addrRowsKept(rep *model.Report) (inMemory, moved int) {
	for i := range rep.AddressChecks {
		inMemory += len(rep.AddressChecks[i].Rows)
		moved += rep.AddressChecks[i].AddrRowsMoved()
	}
	return inMemory, moved
}
