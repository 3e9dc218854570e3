package ui

import (
	"strings"
	"testing"

	"imas/core/analyze"
	"imas/core/model"
)

// The tables the page sorts on its own rows: each header sorts, numbers
// by exact value (not the shown 8.13M) largest first, text in order, again
// the other way; aria-sort says which; equal rows keep the report's order.
func TestTableSorts(t *testing.T) {
	g := &model.Graph{
		Conflicts: []model.Conflict{
			{A: "b", B: "x", Offset: 2048, Size: 1 << 20, Lifetime: [2]int64{9, 12}, Stream: "s1"},
			{A: "a", B: "y", Offset: 1024, Size: 1<<20 + 1, Lifetime: [2]int64{10, 11}, Stream: "s0"},
			{A: "c", B: "z", Offset: 4096, Size: 1 << 20, Lifetime: [2]int64{2, 30}, Stream: "s1"}},
		Waste: &model.Waste{
			Parts: []model.WastePart{{Cause: "b", Bytes: 100}, {Cause: "a", Bytes: 2000}, {Cause: "c", Bytes: 30}},
			Holes: []model.Hole{{Offset: 10, Size: 5}, {Offset: 0, Size: 7}, {Offset: 99, Size: 6}}},
	}
	at := &model.Peak{Tensors: []model.PeakItem{
		{Key: "b", OpType: "Add", Offset: 512, Size: 3 << 20, Life: "10→20"},
		{Key: "a", OpType: "Mul", Offset: 0, Size: 3<<20 + 7, Life: "9→∞"},
		{Key: "c", OpType: "Add", Offset: 64, Size: 1 << 10, Life: "100→101"}}}
	tabs := &GraphTabs{S: &State{Info: g, At: at}}
	run := &Loaded{pools: []PoolInfo{{PID: "2", Allocator: "b", PeakLive: 5}, {PID: "1", Allocator: "a", PeakLive: 50}, {PID: "3", Allocator: "c", PeakLive: 5}}}
	run.Report = &model.Report{
		Devmm:       []model.Devmm{{PID: "1", Module: "b", Peak: 10}, {PID: "2", Module: "a", Peak: 3000}, {PID: "3", Module: "c", Peak: 200}},
		Diagnostics: []model.Diagnostic{{Path: "b", Line: 9, Reason: "x"}, {Path: "a", Line: 10, Reason: "y"}, {Path: "c", Line: 100, Reason: "x"}}}
	over := &Overview{S: &State{Run: run}}
	secs := &Sections{S: &State{Run: run}}
	gd := &analyze.GraphDiff{Movers: []analyze.TensorChange{{Key: "b", Delta: -500, NewReal: 1}, {Key: "a", Delta: 40, NewReal: 9}, {Key: "c", Delta: 30, NewReal: 1}},
		Figures: []analyze.Delta{{Name: "b", New: 0.5, Delta: 0.25}, {Name: "x"}, {Name: "a", New: 2, Delta: -1}, {Name: "c", New: 0.75, Delta: 0.5}}}
	diff := &Diff{S: &State{DiffRes: &analyze.DiffResult{Totals: gd.Figures}}}

	keys := func(n int, key func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(key(i))
		}
		return b.String()
	}
	for _, tc := range []struct {
		name  string
		s     *TableSort
		heads []head
		order func() string // the rows' keys, in the order shown
		col   string
		want  [2]string // after one click, after a second
		aria  [2]string
	}{
		{"conflicts size", &tabs.ConflictSort, conflictHeads, func() string { r := tabs.conflicts(); return keys(len(r), func(i int) string { return r[i].A }) }, "size", [2]string{"abc", "bca"}, [2]string{"descending", "ascending"}},
		{"conflicts b", &tabs.ConflictSort, conflictHeads, func() string { r := tabs.conflicts(); return keys(len(r), func(i int) string { return r[i].A }) }, "b", [2]string{"bac", "cab"}, [2]string{"ascending", "descending"}},
		{"conflicts life", &tabs.ConflictSort, conflictHeads, func() string { r := tabs.conflicts(); return keys(len(r), func(i int) string { return r[i].A }) }, "life", [2]string{"abc", "cba"}, [2]string{"descending", "ascending"}},
		{"waste bytes", &tabs.WasteSort, wasteHeads, func() string { r := tabs.wasteParts(); return keys(len(r), func(i int) string { return r[i].Cause }) }, "bytes", [2]string{"abc", "cba"}, [2]string{"descending", "ascending"}},
		{"holes offset", &tabs.HoleSort, holeHeads, func() string { r := tabs.holes(); return keys(len(r), func(i int) string { return Count(r[i].Size) }) }, "offset", [2]string{"657", "756"}, [2]string{"descending", "ascending"}},
		{"peak size", &tabs.PeakSort, peakHeads, func() string { r := tabs.peakRows(); return keys(len(r), func(i int) string { return r[i].Key }) }, "size", [2]string{"abc", "cba"}, [2]string{"descending", "ascending"}},
		{"peak life", &tabs.PeakSort, peakHeads, func() string { r := tabs.peakRows(); return keys(len(r), func(i int) string { return r[i].Key }) }, "life", [2]string{"cba", "abc"}, [2]string{"descending", "ascending"}},
		{"peak optype", &tabs.PeakSort, peakHeads, func() string { r := tabs.peakRows(); return keys(len(r), func(i int) string { return r[i].Key }) }, "optype", [2]string{"bca", "abc"}, [2]string{"ascending", "descending"}},
		{"devmm peak", &over.DevmmSort, devmmHeads, func() string { r := over.devmm(); return keys(len(r), func(i int) string { return r[i].Module }) }, "peak", [2]string{"acb", "bca"}, [2]string{"descending", "ascending"}},
		{"diagnostics line", &over.DiagSort, diagHeads, func() string { r := over.filtered(); return keys(len(r), func(i int) string { return r[i].Path }) }, "line", [2]string{"cab", "bac"}, [2]string{"descending", "ascending"}},
		{"diagnostics reason", &over.DiagSort, diagHeads, func() string { r := over.filtered(); return keys(len(r), func(i int) string { return r[i].Path }) }, "reason", [2]string{"bca", "abc"}, [2]string{"ascending", "descending"}},
		{"pools peak live", &secs.PoolSort, poolHeads, func() string { r := secs.pools(); return keys(len(r), func(i int) string { return r[i].Allocator }) }, "peak_live", [2]string{"abc", "bca"}, [2]string{"descending", "ascending"}},
		{"movers delta", &diff.MoverSort, moverHeads, func() string { r := diff.movers(gd); return keys(len(r), func(i int) string { return r[i].Key }) }, "delta", [2]string{"acb", "bca"}, [2]string{"descending", "ascending"}},
		{"totals run", &diff.TotalSort, figureHeads, func() string { r := diff.totals(); return keys(len(r), func(i int) string { return r[i].Name }) }, "new", [2]string{"acbx", "xbca"}, [2]string{"descending", "ascending"}},
		{"changed figures delta", &diff.FigureSort, figureHeads, func() string { r := diff.figures(gd); return keys(len(r), func(i int) string { return r[i].Name }) }, "delta", [2]string{"cba", "abc"}, [2]string{"descending", "ascending"}},
		{"movers key", &diff.MoverSort, moverHeads, func() string { r := diff.movers(gd); return keys(len(r), func(i int) string { return r[i].Key }) }, "key", [2]string{"abc", "cba"}, [2]string{"ascending", "descending"}},
	} {
		var h head
		for _, x := range tc.heads {
			if x.Sort == tc.col {
				h = x
			}
		}
		if h.Sort == "" {
			t.Fatalf("%s: no column %q", tc.name, tc.col)
		}
		for k := range 2 {
			tc.s.click(h)
			if got := tc.order(); got != tc.want[k] || tc.s.aria(tc.col) != tc.aria[k] {
				t.Errorf("%s, click %d: %s (%s), want %s (%s)", tc.name, k+1, got, tc.s.aria(tc.col), tc.want[k], tc.aria[k])
			}
			for _, o := range tc.heads {
				if o.Sort != tc.col && tc.s.aria(o.Sort) != "none" {
					t.Errorf("%s: column %s says %s too", tc.name, o.Sort, tc.s.aria(o.Sort))
				}
			}
		}
	}
	// Sorting leaves the report's lists in their order.
	if g.Conflicts[0].A != "b" || at.Tensors[0].Key != "b" || run.Report.Devmm[0].Module != "b" || run.pools[0].Allocator != "b" || gd.Movers[0].Key != "b" || gd.Figures[0].Name != "b" {
		t.Error("a sort reordered the report's own list")
	}
}
