package analyze_test

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"imas/core/analyze"
	"imas/core/model"
)

func realsize(n int64) func(*model.Row) { return func(r *model.Row) { r.RealSize = n } }
func noReuse(r *model.Row)              { r.Reuse = 0 }

// graph returns a graph of memtype mt with its figures computed; ar > 0
// sets GE's logged memoffset (after_reuse).
func graph(mt, ar int64, rows []model.Row, opts ...func(*model.Graph)) *model.Graph {
	g := &model.Graph{PID: "1", Graph: "g_0", MemType: mt, Rows: rows}
	if ar > 0 {
		g.Logged = model.Logged{{Key: "memory_size", Value: strconv.FormatInt(ar, 10)}}
	}
	for _, o := range opts {
		o(g)
	}
	analyze.Figures(g)
	return g
}

func parts(w *model.Waste) map[string]int64 {
	m := map[string]int64{}
	for _, p := range w.Parts {
		m[p.Cause] = p.Bytes
	}
	return m
}

func TestWasteParts(t *testing.T) {
	const base = 68719476736
	sibling := graph(16, 512, []model.Row{row("p2p_in", 1536, 512, 0, inf, zeroCopy)})
	tests := []struct {
		name     string
		g        *model.Graph
		siblings []*model.Graph
		gap      int64
		want     map[string]int64 // parts not listed are 0
		holes    []model.Hole
	}{
		{name: "a small tensor in a block sized for a larger one",
			g: graph(2, 0, []model.Row{
				row("a", 0, 1024, 1, 2, realsize(100)), row("c", 1024, 512, 1, 2), row("b", 0, 1024, 3, 4, realsize(1000))}),
			gap: 512, want: map[string]int64{"alignment": 512}},
		{name: "a continuous segment held over all its members",
			g: graph(2, 0, []model.Row{
				row("x", 0, 1024, 1, 2, cont, realsize(500)), row("y", 0, 1024, 5, 6, cont, realsize(500)), row("z", 1024, 1024, 3, 4)},
				func(g *model.Graph) { g.Reassign = []model.Reassign{contIn("x", 0, 500), contIn("y", 512, 500)} }),
			gap: 1024, want: map[string]int64{"continuous": 1024}},
		{name: "zero-copy blocks of another memory type in the HBM area",
			g:        graph(2, 2048, []model.Row{row("a", 0, 1024, 1, 2), row("in", 1024, 512, 0, inf, zeroCopy)}),
			siblings: []*model.Graph{sibling},
			gap:      512, want: map[string]int64{"zero_copy": 512}},
		{name: "zero-copy tensors laid out in the HBM area",
			g:   graph(16, 512, []model.Row{row("b", 0, 512, 1, 1), row("p2p_in", 1536, 512, 0, inf, zeroCopy)}),
			gap: -512, want: map[string]int64{"zero_copy": -512}},
		{name: "gap above the atomic area",
			g: graph(2, 2048, []model.Row{row("a", 0, 1024, 1, 2)}, func(g *model.Graph) {
				g.AtomicPieces = []model.AtomicPiece{{Node: "m", Offset: 1024, Size: 512, RealSize: 500}}
			}),
			gap: 512, want: map[string]int64{"atomic": 512}},
		{name: "best-fit hole at the peak",
			g:   graph(2, 0, []model.Row{row("a", 0, 512, 1, 2), row("b", 1024, 512, 1, 2), row("c", 512, 512, 3, 3)}),
			gap: 512, want: map[string]int64{"fragmentation": 512}, holes: []model.Hole{{Offset: 512, Size: 512}}},
		{name: "never-reused blocks are not holes",
			g:   graph(2, 0, []model.Row{row("a", 0, 512, 1, 2), row("n", 512, 512, 5, 6, noReuse), row("b", 1024, 512, 1, 2)}),
			gap: 0, want: map[string]int64{}},
		{name: "overlapping live blocks (a conflict)",
			g:   graph(2, 0, []model.Row{row("a", 0, 512, 1, 2), row("b", 0, 512, 1, 2)}),
			gap: -512, want: map[string]int64{"fragmentation": -512}},
		{name: "host memory starts at its logical base",
			g:   graph(129, 0, []model.Row{row("h", base, 512, 1, 1)}),
			gap: base, want: map[string]int64{"logical_base": base}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := analyze.Waste(tt.g, tt.siblings...)
			if w.Gap != tt.gap {
				t.Errorf("gap %d, want %d", w.Gap, tt.gap)
			}
			got := parts(w)
			for _, c := range []string{"alignment", "continuous", "zero_copy", "atomic", "logical_base", "fragmentation"} {
				if got[c] != tt.want[c] {
					t.Errorf("%s: %d, want %d (parts %v)", c, got[c], tt.want[c], w.Parts)
				}
			}
			if len(w.Holes) != len(tt.holes) || (len(tt.holes) > 0 && !reflect.DeepEqual(w.Holes, tt.holes)) {
				t.Errorf("holes %v, want %v", w.Holes, tt.holes)
			}
		})
	}
}

func TestWasteWithoutRows(t *testing.T) {
	g := graph(2, 4096, nil)
	if w := analyze.Waste(g); w != nil {
		t.Errorf("waste of a summary-only graph: %+v", w)
	}
}

// TestWasteAddsUp checks on random graphs (every kind of row, conflicts
// included) that the parts add up to the gap and that the parts bounded
// by construction are never negative.
func TestWasteAddsUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 1000; iter++ {
		g := randomGraph(rng, 1+rng.IntN(40))
		for i := range g.Rows {
			r := &g.Rows[i]
			r.RealSize = 1 + rng.Int64N(r.Size)
			r.Reuse = min(r.Reuse, int8(rng.IntN(4)))
		}
		ar := int64(0)
		if rng.IntN(2) == 0 {
			ar = int64(rng.IntN(64)) * 512
		}
		g = graph(2, ar, g.Rows, func(h *model.Graph) { h.Reassign = g.Reassign })
		w := analyze.Waste(g)
		var sum int64
		for _, p := range w.Parts {
			sum += p.Bytes
		}
		p := parts(w)
		if sum != g.AfterReuse-g.TheoryMin || sum != w.Gap || p["alignment"] < 0 || p["continuous"] < 0 {
			t.Fatalf("iteration %d: gap %d, parts %+v", iter, g.AfterReuse-g.TheoryMin, w.Parts)
		}
	}
}

// TestWasteSoundLayout: in a layout without conflicts, nothing is left
// unexplained below zero.
func TestWasteSoundLayout(t *testing.T) {
	g, _ := layoutGraph(20000)
	g.Rows = g.Rows[:5000] // before the first injected conflict
	g = graph(2, 0, g.Rows)
	if n := len(analyze.Conflicts(g)); n != 0 {
		t.Fatalf("%d conflicts", n)
	}
	w := analyze.Waste(g)
	if p := parts(w); p["fragmentation"] < 0 || p["alignment"] != 0 {
		t.Errorf("parts %+v", w.Parts)
	}
}

func BenchmarkWaste(b *testing.B) {
	g, _ := layoutGraph(1000000)
	g = graph(2, 0, g.Rows)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		analyze.Waste(g)
	}
}
