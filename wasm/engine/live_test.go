package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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
			if l == nil {
				t.Fatalf("%s graph %d: no curve for %d rows", name, i, len(g.Rows))
			}
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

// A graph whose rows are all uncounted (size 0, as the 2023 logs' variable
// graphs) has no curve: the map's meta has no "live", and the page draws no
// timeline for it.
func TestLiveCurveNoCountedTensors(t *testing.T) {
	g := &model.Graph{Rows: []model.Row{{Size: 0, RealSize: 0, LifeBegin: 0, LifeEnd: 4294967294}}}
	if l := LiveCurve(g); l != nil {
		t.Errorf("curve %+v for a graph without counted tensors, want none", l)
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

// A pool's curve is its live block bytes over log time: its top is the
// pool's peak_live, its times are in order and within the map's x extent.
// The real logs' pools (where present) too, and every pool again on the
// allocation clock, which the map falls back to when a time is missing.
func TestPoolLive(t *testing.T) {
	pools := map[string][]*model.Pool{"pool sample": analyzed(t, "pool").Run(SlotRun).Report.Pools}
	if ents, err := os.ReadDir(realLogsDir); err == nil {
		for _, e := range ents {
			s := NewSession()
			src := input.FileSource(filepath.Join(realLogsDir, e.Name()))
			if _, err := s.Analyze(context.Background(), SlotRun, []input.Source{src}, nil); err == nil {
				pools[e.Name()] = s.Run(SlotRun).Report.Pools
			}
		}
	} else if os.Getenv("CI") != "" {
		t.Fatalf("CI needs the real logs in %s: %v", realLogsDir, err)
	}
	timed := 0
	for name, ps := range pools {
		for _, p := range ps {
			if len(p.Rows) == 0 {
				continue
			}
			origin, last, ok := poolTimes(p.Rows)
			if ok {
				timed++
				l := poolLiveTime(p.Rows, origin)
				if slices.Max(l.Counted) != p.PeakLive || l.Reusable != nil || !slices.IsSorted(l.Steps) ||
					l.Steps[0] < 0 || l.Steps[len(l.Steps)-1] > last-origin+1 {
					t.Errorf("%s pool %s: time curve %+v, peak_live %d, events %d..%d", name, p.Allocator, l, p.PeakLive, origin, last)
				}
			}
			if l := poolLive(p.Rows); slices.Max(l.Counted) != p.PeakLive || !slices.IsSorted(l.Steps) {
				t.Errorf("%s pool %s: allocation curve %+v, peak_live %d", name, p.Allocator, l, p.PeakLive)
			}
		}
	}
	if timed == 0 {
		t.Error("no pool with times: the test proves nothing")
	}
}

// realLogsDir holds the real GE logs (read, never copied), from this
// package's folder.
const realLogsDir = "../../../shared/real-logs"

// Events sharing a microsecond: the curve shows their top there and the
// level after them from the next µs on; a pool with an event without a
// time is mapped on its allocation clock.
func TestPoolLiveSameTime(t *testing.T) {
	rows := []model.PoolRow{
		{Address: "0x1000", Size: 100, Begin: 0, End: 1, KernelFree: true, Time: 10, FreeTime: 20},
		{Address: "0x1000", Size: 300, Begin: 1, End: 2, KernelFree: true, Time: 20, FreeTime: 20},
		{Address: "0x2000", Size: 50, Begin: 2, End: model.LifeMax, Time: 40},
	}
	for k := range rows {
		rows[k].Theory = []int64{100, 300, 50}[k]
	}
	l := poolLiveTime(rows, 10)
	want := &Live{Steps: []int64{0, 10, 11, 30}, Counted: []int64{100, 300, 0, 50}}
	if !slices.Equal(l.Steps, want.Steps) || !slices.Equal(l.Counted, want.Counted) {
		t.Errorf("curve %+v, want %+v", l, want)
	}
	s := NewSession()
	s.runs[SlotRun] = &Run{Report: &model.Report{Pools: []*model.Pool{{Allocator: "a", PeakLive: 300, Rows: rows}}}}
	meta, _, err := s.PoolMap(SlotRun, 0)
	if err != nil || meta.Clock != "time" || meta.TimeOrigin != 10 || meta.PeakStep != 10 || meta.MaxStep != 31 {
		t.Errorf("timed pool: %+v, %v", meta, err)
	}
	rows[2].Time = 0
	if meta, _, err := s.PoolMap(SlotRun, 0); err != nil || meta.Clock != "allocation" || meta.PeakStep != 1 {
		t.Errorf("a pool with an event without a time: %+v, %v", meta, err)
	}
}
