package engine

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"imas/core"
	"imas/core/input"
	"imas/core/model"
	"imas/internal/gen"
)

// TestEarlyGraphsWhileReading: an analysis that shows its finished graphs
// (AnalyzeShowing) has graphs to show while later bytes are still to be
// read — its reads stop halfway until some are there — each with the
// figures the final report gives it, the largest first and at most
// EarlyCap of them; and its report is the one Analyze gives, byte for
// byte.
func TestEarlyGraphsWhileReading(t *testing.T) {
	// Several chunks (input.ChunkSize) in the first half.
	p, err := gen.ProfileByName("smallgraphs", 0, 24<<20)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := gen.Generate(p, dir); err != nil {
		t.Fatal(err)
	}
	srcs, diags := input.FromPaths([]string{dir})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	early := &EarlyList{}
	g := &halfGate{early: early}
	var gated []input.Source
	for _, s := range srcs {
		g.total += s.Size
		open := s.Open
		s.Open = func() (io.ReadCloser, error) {
			r, err := open()
			return gatedReader{r, g}, err
		}
		gated = append(gated, s)
	}
	s := NewSession()
	run, err := s.AnalyzeShowing(context.Background(), SlotRun, gated, nil, early)
	if err != nil {
		t.Fatal(err)
	}
	beforeEnd := g.seen
	if beforeEnd == nil || beforeEnd.Graphs == 0 {
		t.Fatal("no graph finished before the second half of the input was read")
	}
	final := map[string]*model.Graph{}
	for _, g := range run.Report.Graphs {
		final[fmt.Sprintf("%s/%s/%d", g.PID, g.Graph, g.MemType)] = g
	}
	if beforeEnd.Graphs >= len(final) || len(beforeEnd.Report.Graphs) != min(beforeEnd.Graphs, EarlyCap) {
		t.Errorf("%d graphs finished of %d, %d listed", beforeEnd.Graphs, len(final), len(beforeEnd.Report.Graphs))
	}
	if len(beforeEnd.Counts) != len(beforeEnd.Report.Graphs) {
		t.Errorf("%d counts for %d graphs", len(beforeEnd.Counts), len(beforeEnd.Report.Graphs))
	}
	for i, eg := range beforeEnd.Report.Graphs {
		g := final[fmt.Sprintf("%s/%s/%d", eg.PID, eg.Graph, eg.MemType)]
		if g == nil {
			t.Errorf("%s/%s/%d shown early, not in the report", eg.PID, eg.Graph, eg.MemType)
			continue
		}
		if eg.Figures != g.Figures || beforeEnd.Counts[i].Conflicts != len(g.Conflicts) || eg.Rows != nil {
			t.Errorf("%s/%s/%d shown with %+v (%d conflicts, %d rows), reported with %+v (%d)", eg.PID, eg.Graph, eg.MemType, eg.Figures, beforeEnd.Counts[i].Conflicts, len(eg.Rows), g.Figures, len(g.Conflicts))
		}
		if i > 0 && beforeEnd.Report.Graphs[i-1].MemorySize < eg.MemorySize {
			t.Errorf("row %d (%d bytes) after a smaller one (%d)", i, eg.MemorySize, beforeEnd.Report.Graphs[i-1].MemorySize)
		}
	}
	plain := NewSession()
	if _, err := plain.Analyze(context.Background(), SlotRun, srcs, nil); err != nil {
		t.Fatal(err)
	}
	a, _, err := s.Output(SlotRun, "report.json")
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := plain.Output(SlotRun, "report.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("report.json differs when the finished graphs are shown")
	}
}

// TestEarlyListKeepsLargest: the list keeps the EarlyCap largest graphs,
// largest first, equals in the order they finished; a new build starts
// it again; a snapshot comes only when something changed.
func TestEarlyListKeepsLargest(t *testing.T) {
	var e EarlyList
	if got, v := e.Snapshot(0); got != nil || v != 0 {
		t.Fatalf("an empty list gave %+v", got)
	}
	var gs []*model.Graph
	for i := range 3 * EarlyCap {
		g := &model.Graph{PID: "1", Graph: fmt.Sprint("g", i), MemType: 2}
		g.MemorySize = int64(i%7) << 20
		gs = append(gs, g)
	}
	e.Finished(0, gs[:EarlyCap])
	e.Finished(0, gs[EarlyCap:])
	got, v := e.Snapshot(0)
	if got == nil || got.Graphs != len(gs) || len(got.Report.Graphs) != EarlyCap {
		t.Fatalf("after %d graphs: %+v", len(gs), got)
	}
	for i := 1; i < len(got.Report.Graphs); i++ {
		prev, eg := got.Report.Graphs[i-1], got.Report.Graphs[i]
		var a, b int
		fmt.Sscanf(prev.Graph, "g%d", &a)
		fmt.Sscanf(eg.Graph, "g%d", &b)
		if prev.MemorySize < eg.MemorySize || prev.MemorySize == eg.MemorySize && a > b {
			t.Errorf("row %d: %s (%d) after %s (%d)", i, eg.Graph, eg.MemorySize, prev.Graph, prev.MemorySize)
		}
	}
	if last := got.Report.Graphs[EarlyCap-1].MemorySize; got.Report.Graphs[0].MemorySize != 6<<20 || last < 3<<20 {
		t.Errorf("the largest %d, the last %d bytes", got.Report.Graphs[0].MemorySize, last)
	}
	if again, v2 := e.Snapshot(v); again != nil || v2 != v {
		t.Error("a snapshot without news")
	}
	e.Finished(1, gs[:1])
	if got, _ := e.Snapshot(v); got == nil || got.Graphs != 1 || len(got.Report.Graphs) != 1 || got.Report.Graphs[0].Graph != "g0" {
		t.Errorf("a new build: %+v", got)
	}
}

// TestRecentRate: the rate follows the last RateWindow seconds, not the
// whole read: after a fast start and a slow stretch longer than the
// window, it is the slow rate.
func TestRecentRate(t *testing.T) {
	var r recentRate
	if got := r.add(0, 0); got != 0 {
		t.Errorf("at the start: %v", got)
	}
	if got := r.add(0.5, 50e6); got != 100e6 {
		t.Errorf("in the first second: %v, want the rate so far", got)
	}
	read := int64(50e6)
	for tm := 1.0; tm <= 4; tm++ { // 100 MB/s
		read += 100e6
		r.add(tm, read)
	}
	var got float64
	for tm := 5.0; tm <= 12; tm++ { // 10 MB/s
		read += 10e6
		got = r.add(tm, read)
	}
	if math.Abs(got-10e6) > 1 {
		t.Errorf("after 8 s at 10 MB/s: %v", got)
	}
	if len(r.samples) > int(RateWindow)+2 {
		t.Errorf("%d samples kept", len(r.samples))
	}
}

// TestFinalCounts: the last progress message counts every line and
// record of the run (the report's), whatever the core reported last; a
// saved report's are left alone.
func TestFinalCounts(t *testing.T) {
	s := NewSession()
	var last core.Progress
	run, err := s.Analyze(context.Background(), SlotRun, samples(t, "mixed"), func(p core.Progress) { last = p })
	if err != nil {
		t.Fatal(err)
	}
	in := run.Report.Inputs
	if in.Lines == 0 || in.Records == 0 {
		t.Fatalf("the sample has %d lines, %d records", in.Lines, in.Records)
	}
	last.Lines, last.Records, last.Candidates = 0, 0, 0 // as with every chunk parsed after the last report
	finalCounts(&last, run)
	if last.Lines != in.Lines || last.Records != in.Records || last.Candidates != in.Candidates {
		t.Errorf("final counts %+v, report %+v", last, in)
	}
	saved := &core.Progress{Lines: 7}
	finalCounts(saved, &Run{Report: run.Report, Loaded: true})
	if saved.Lines != 7 {
		t.Errorf("a saved report's counts were changed: %+v", saved)
	}
}

// halfGate holds the reads of a run once half of its bytes are read,
// until early has graphs (or 20 s went by), and keeps what early had.
type halfGate struct {
	early       *EarlyList
	total, read int64
	mu          sync.Mutex
	held        bool // the reads were held once
	seen        *Early
}

type gatedReader struct {
	io.ReadCloser
	g *halfGate
}

func (r gatedReader) Read(p []byte) (int, error) {
	g := r.g
	g.mu.Lock()
	hold := g.read >= g.total/2 && !g.held
	g.held = g.held || hold
	g.mu.Unlock()
	if hold {
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			if e, _ := g.early.Snapshot(0); e != nil {
				g.mu.Lock()
				g.seen = e
				g.mu.Unlock()
				break
			}
		}
	}
	n, err := r.ReadCloser.Read(p[:min(len(p), 256<<10)])
	g.mu.Lock()
	g.read += int64(n)
	g.mu.Unlock()
	return n, err
}

// TestEarlyListFloorKeepsLargest: with snapshots taken between batches
// (so that graphs at or below the shown list's smallest are skipped), the
// list is still the largest EarlyCap of all graphs told of, equals in the
// order they finished.
func TestEarlyListFloorKeepsLargest(t *testing.T) {
	var e EarlyList
	var all []*model.Graph
	v := 0
	for batch := range 40 {
		var gs []*model.Graph
		for i := range 7 {
			g := &model.Graph{PID: "1", Graph: fmt.Sprint("g", len(all)), MemType: 2}
			g.MemorySize = int64((batch*7+i)*37%23) << 10
			gs = append(gs, g)
			all = append(all, g)
		}
		e.Finished(0, gs)
		_, v = e.Snapshot(v)
	}
	want := slices.Clone(all)
	slices.SortStableFunc(want, func(a, b *model.Graph) int { return cmp.Compare(b.MemorySize, a.MemorySize) })
	want = want[:EarlyCap]
	got, _ := e.Snapshot(0)
	if got == nil || got.Graphs != len(all) || len(got.Report.Graphs) != EarlyCap {
		t.Fatalf("after %d graphs: %+v", len(all), got)
	}
	for i, g := range got.Report.Graphs {
		if g.Graph != want[i].Graph {
			t.Errorf("row %d: %s (%d), want %s (%d)", i, g.Graph, g.MemorySize, want[i].Graph, want[i].MemorySize)
		}
	}
}
