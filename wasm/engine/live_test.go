package engine

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"imas/core/analyze"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
)

// The timeline's curve reaches theory_min at its peak (max reusable + base),
// thinning keeps every maximum, and the tensors listed at the peak step are
// the report's peak list (what imas peak prints).
func TestLiveCurve(t *testing.T) {
	for _, name := range []string{"basic", "mixed", "conflicts"} {
		s := analyzed(t, name)
		rep := s.Run(SlotRun).Report
		for i, g := range rep.Graphs {
			if len(g.Rows) == 0 {
				continue
			}
			l := LiveCurve(g)
			if len(l.Steps) == 0 || len(l.Steps) != len(l.Counted) || len(l.Steps) != len(l.Reusable) {
				t.Fatalf("%s graph %d: curve of %d/%d/%d points", name, i, len(l.Steps), len(l.Counted), len(l.Reusable))
			}
			if got := slices.Max(l.Reusable) + l.Base; got != g.TheoryMin {
				t.Errorf("%s %s: max reusable + base = %d, theory_min %d", name, export.MemTypeName(g.MemType), got, g.TheoryMin)
			}
			if !slices.IsSorted(l.Steps) || l.Counted[len(l.Counted)-1] != 0 {
				t.Errorf("%s graph %d: steps not sorted, or live bytes left after the last step: %v", name, i, l.Counted)
			}
			for _, n := range []int{1, 3, 7} {
				th := l.thin(n)
				if len(th.Steps) > n || slices.Max(th.Counted) != slices.Max(l.Counted) || slices.Max(th.Reusable) != slices.Max(l.Reusable) {
					t.Errorf("%s graph %d: thinned to %d: %d points, max %d/%d, want %d/%d", name, i, n, len(th.Steps),
						slices.Max(th.Counted), slices.Max(th.Reusable), slices.Max(l.Counted), slices.Max(l.Reusable))
				}
			}
			_, step := analyze.PeakStep(g.Rows)
			at, err := s.At(SlotRun, i, step)
			if err != nil {
				t.Fatal(err)
			}
			want := analyze.Peak(g, analyze.PeakTop)
			if at.Step != want.Step || at.Live != want.Live || !slices.Equal(peakKeys(at.Tensors), peakKeys(want.Tensors)) {
				t.Errorf("%s graph %d: at the peak step %d: %d live %v; the peak list: step %d, %d live %v", name, i, step,
					at.Live, peakKeys(at.Tensors), want.Step, want.Live, peakKeys(want.Tensors))
			}
		}
	}
}

func peakKeys(items []model.PeakItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Key)
	}
	return out
}

// A saved report.json opened again writes the same graph CSV, lifetimes
// printed as "12--13" included.
func TestReportKeepsLifetimeText(t *testing.T) {
	for _, name := range []string{"basic", "mixed", "conflicts"} {
		s := analyzed(t, name)
		want, _, err := s.Output(SlotRun, "imas_mem_graph.csv")
		if err != nil {
			t.Fatal(err)
		}
		js, _, err := s.Output(SlotRun, "report.json")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Analyze(context.Background(), SlotRun, []input.Source{input.BytesSource("saved/report.json", js)}, nil); err != nil {
			t.Fatal(err)
		}
		got, _, err := s.Output(SlotRun, "imas_mem_graph.csv")
		if err != nil {
			t.Fatal(err)
		}
		if !s.Run(SlotRun).Loaded || !bytes.Equal(got, want) {
			t.Errorf("%s: the graph CSV of the reopened report.json differs (%d bytes, %d before)", name, len(got), len(want))
		}
		if name == "basic" && !bytes.Contains(want, []byte("--")) {
			t.Errorf("%s: no lifetime printed with --: the test proves nothing", name)
		}
	}
}

// A pool's curve is its live block bytes on the map's allocation clock:
// its top is the pool's peak_live.
func TestPoolLive(t *testing.T) {
	s := analyzed(t, "pool")
	for i, p := range s.Run(SlotRun).Report.Pools {
		meta, _, err := s.PoolMap(SlotRun, i)
		if err != nil {
			t.Fatal(err)
		}
		if l := meta.Live; l == nil || slices.Max(l.Counted) != p.PeakLive || l.Reusable != nil || !slices.IsSorted(l.Steps) {
			t.Errorf("pool %s: curve %+v, peak_live %d", p.Allocator, l, p.PeakLive)
		}
	}
}
