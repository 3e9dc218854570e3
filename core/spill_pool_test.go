package core

import (
	"bytes"
	"fmt"
	"testing"

	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
	"imas/core/spill"
	"imas/internal/gen"
)

// TestSpilledPoolRowsEqualRetained: on pool-heavy logs large enough that
// every pool moves rows to the spill store (model.Builder.PoolRows), a
// spilled "imas report" writes every output byte for byte as the report
// that keeps every row, merged or built in order, while each pool holds
// in memory only its latest rows and the store takes most of them.
func TestSpilledPoolRowsEqualRetained(t *testing.T) {
	for _, prof := range []string{"poolheavy"} {
		t.Run(prof, func(t *testing.T) {
			p, err := gen.ProfileByName(prof, 0, 48<<20)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if _, err := gen.Generate(p, dir); err != nil {
				t.Fatal(err)
			}
			srcs, _ := input.FromPaths([]string{dir})
			for _, merge := range []bool{false, true} {
				want, _ := analyzeHeld(t, srcs, Options{alwaysMerge: merge})
				store, err := spill.New(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				got, _ := analyzeHeld(t, srcs, Options{Spill: store, alwaysMerge: merge})
				held, total := 0, 0
				for _, pl := range got.Pools {
					held += len(pl.Rows)
					total += pl.RowCount()
					if len(pl.Rows) > 512 {
						t.Errorf("merge %v: pool %s %s holds %d of its %d rows", merge, pl.PID, pl.Allocator, len(pl.Rows), pl.RowCount())
					}
				}
				if total < 3*held || total < 10000 {
					t.Errorf("merge %v: %d of %d pool rows in memory; want most in the store", merge, held, total)
				}
				for _, o := range spillOutputs {
					for _, out := range export.OutputsWith(o) {
						sameOutput(t, fmt.Sprintf("merge %v, %+v", merge, o), out, want, got)
					}
				}
				if err := store.Close(); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// sameOutput fails t when out written from got differs from out written
// from want, showing where; what says which run it is.
func sameOutput(t *testing.T, what string, out export.Output, want, got *model.Report) {
	t.Helper()
	var a, b bytes.Buffer
	if err := out.Write(&a, want); err != nil {
		t.Fatal(err)
	}
	if err := out.Write(&b, got); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		i := 0
		for i < a.Len() && i < b.Len() && a.Bytes()[i] == b.Bytes()[i] {
			i++
		}
		lo := max(0, i-200)
		t.Errorf("%s: %s differs at byte %d:\n got …%.400q\nwant …%.400q", what, out.Name, i, b.Bytes()[lo:], a.Bytes()[lo:])
	}
}
