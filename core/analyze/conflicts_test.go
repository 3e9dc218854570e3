package analyze_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strconv"
	"testing"

	"imas/core/analyze"
	"imas/core/model"
)

const inf = model.LifeDefault

// row is a counted-looking [IMAS]Set row: node:output:0 at [off, off+size)
// live over [begin, end], stream 0, reuse 1. Options adjust it.
func row(node string, off, size, begin, end int64, opts ...func(*model.Row)) model.Row {
	r := model.Row{Node: node, Kind: "output", Offset: off, Size: size, RealSize: size,
		LifeBegin: begin, LifeEnd: end, Reuse: 1, SameStream: 1, Counted: true,
		LifeDesc: &[2]string{strconv.FormatInt(begin, 10), strconv.FormatInt(end, 10)}}
	for _, o := range opts {
		o(&r)
	}
	return r
}

func isref(r *model.Row)    { r.IsRef, r.Counted = 1, false }
func zeroCopy(r *model.Row) { r.ZeroCopy, r.Reuse = 1, 0 }
func cont(r *model.Row)     { r.Continuous = 1 }
func pool(r *model.Row)     { r.Pool = true }
func stream(s int64) func(*model.Row) {
	return func(r *model.Row) { r.Stream = s }
}
func kind(k string, i int64) func(*model.Row) {
	return func(r *model.Row) { r.Kind, r.Index = k, i }
}
func batch(b string) func(*model.Row) {
	return func(r *model.Row) { r.Batch = b }
}

// contIn is a "Continuous input" line placing node:output:0.
func contIn(node string, off, realsize int64) model.Reassign {
	return model.Reassign{Node: node, Dir: "input", Kind: "output", Offset: off, RealSize: realsize}
}

func conflict(a, b string, off, size, begin, end int64) model.Conflict {
	return model.Conflict{A: a, B: b, Offset: off, Size: size, Lifetime: [2]int64{begin, end}, Stream: "0"}
}

func TestConflictRules(t *testing.T) {
	tests := []struct {
		name     string
		rows     []model.Row
		reassign []model.Reassign
		want     []model.Conflict
	}{
		{"disjoint addresses", []model.Row{row("a", 0, 512, 1, 5), row("b", 512, 512, 1, 5)}, nil, nil},
		{"one block, lifetimes apart (normal reuse)", []model.Row{row("a", 0, 1024, 1, 3), row("b", 0, 1024, 4, 6)}, nil, nil},
		{"one block, lifetimes touch: inclusive", []model.Row{row("a", 0, 1024, 1, 4), row("b", 0, 1024, 4, 6)}, nil,
			[]model.Conflict{conflict("a:output:0", "b:output:0", 0, 1024, 4, 4)}},
		{"address ranges touch", []model.Row{row("a", 0, 512, 1, 5), row("b", 512, 512, 1, 5)}, nil, nil},
		{"partial overlap reports the intersection", []model.Row{row("b", 1024, 2048, 3, 9), row("a", 0, 1536, 5, 12)}, nil,
			[]model.Conflict{conflict("a:output:0", "b:output:0", 1024, 512, 5, 9)}},
		{"keys sorted whatever the print order", []model.Row{row("z", 0, 512, 1, 2), row("a", 0, 512, 2, 3)}, nil,
			[]model.Conflict{conflict("a:output:0", "z:output:0", 0, 512, 2, 2)}},
		{"alias and the row it aliases", []model.Row{row("a", 0, 1024, 1, 5), row("a_inplace", 0, 1024, 2, 7, isref)}, nil, nil},
		{"two aliases of one row", []model.Row{row("a", 0, 1024, 1, 5), row("b", 0, 1024, 2, 7, isref), row("c", 0, 1024, 3, 8, isref)}, nil, nil},
		{"alias takes the nearest previous isref[0] row", []model.Row{
			row("a", 0, 1024, 1, 5), row("d", 0, 1024, 9, 12), row("e", 0, 1024, 4, 10, isref)}, nil,
			[]model.Conflict{conflict("a:output:0", "e:output:0", 0, 1024, 4, 5)}},
		{"alias without a previous row at its offset", []model.Row{row("e", 0, 1024, 4, 10, isref), row("a", 0, 1024, 1, 5)}, nil,
			[]model.Conflict{conflict("a:output:0", "e:output:0", 0, 1024, 4, 5)}},
		{"alias conflicts with other rows", []model.Row{row("a", 0, 1024, 1, 3), row("b", 0, 1024, 2, 7, isref), row("c", 512, 512, 6, 9)}, nil,
			[]model.Conflict{conflict("b:output:0", "c:output:0", 512, 512, 6, 7)}},
		{"zero-copy rows are skipped", []model.Row{row("data", 0, 1024, 0, inf, zeroCopy), row("a", 0, 1024, 1, 5)}, nil, nil},
		{"buffer-pool rows are skipped", []model.Row{row("p", 0, 1024, 0, 0, pool), row("q", 0, 1024, 0, 0, pool)}, nil, nil},
		{"rows without lifetime are skipped", []model.Row{
			row("a", 0, 1024, 0, model.LifeMax, func(r *model.Row) { r.LifeDesc = nil }), row("b", 0, 1024, 3, 4)}, nil, nil},
		{"continuous member occupies its slot only", []model.Row{
			row("x", 0, 4096, 1, 9, cont), row("y", 0, 4096, 1, 9, cont), row("w", 2048, 512, 2, 3)},
			[]model.Reassign{contIn("x", 0, 1000), contIn("y", 1024, 1000)}, nil},
		{"continuous slot overlapped", []model.Row{
			row("x", 0, 4096, 1, 9, cont), row("y", 0, 4096, 1, 9, cont), row("w", 1536, 512, 2, 3)},
			[]model.Reassign{contIn("x", 0, 1000), contIn("y", 1024, 1000)},
			[]model.Conflict{conflict("w:output:0", "y:output:0", 1536, 512, 2, 3)}},
		{"slot is align512 of the line's realsize", []model.Row{row("x", 0, 4096, 1, 9, cont), row("w", 1024, 512, 2, 3)},
			[]model.Reassign{contIn("x", 0, 1025)},
			[]model.Conflict{conflict("w:output:0", "x:output:0", 1024, 512, 2, 3)}},
		{"continuous flag without a line: whole block", []model.Row{row("x", 0, 4096, 1, 9, cont), row("w", 2048, 512, 2, 3)}, nil,
			[]model.Conflict{conflict("w:output:0", "x:output:0", 2048, 512, 2, 3)}},
		{"line without the continuous flag: whole block", []model.Row{row("x", 0, 4096, 1, 9), row("w", 2048, 512, 2, 3)},
			[]model.Reassign{contIn("x", 0, 1000)},
			[]model.Conflict{conflict("w:output:0", "x:output:0", 2048, 512, 2, 3)}},
		{"output line does not place a workspace", []model.Row{row("x", 0, 4096, 1, 9, cont, kind("workspace", 0)), row("w", 2048, 512, 2, 3)},
			[]model.Reassign{contIn("x", 0, 1000)},
			[]model.Conflict{conflict("w:output:0", "x:workspace:0", 2048, 512, 2, 3)}},
		{"cross-stream", []model.Row{row("a", 0, 512, 1, 5, stream(1)), row("b", 0, 512, 5, 6, stream(0))}, nil,
			[]model.Conflict{{A: "a:output:0", B: "b:output:0", Offset: 0, Size: 512, Lifetime: [2]int64{5, 5}, Stream: "1/0", StreamA: 1, StreamB: 0}}},
		{"infinite end reaches every later row", []model.Row{row("a", 0, 512, 2, inf), row("b", 0, 512, 100, 120)}, nil,
			[]model.Conflict{conflict("a:output:0", "b:output:0", 0, 512, 100, 120)}},
		{"two infinite ends", []model.Row{row("a", 0, 512, 2, model.LifeMax), row("b", 256, 512, 7, inf)}, nil,
			[]model.Conflict{conflict("a:output:0", "b:output:0", 256, 256, 7, inf)}},
		{"infinite row begins after the other ends", []model.Row{row("a", 0, 512, 2, 5), row("b", 0, 512, 6, inf)}, nil, nil},
		{"same tensor printed twice", []model.Row{row("a", 0, 512, 1, 5), row("a", 0, 512, 1, 5)}, nil, nil},
		{"tensor printed twice: one conflict per pair", []model.Row{row("a", 0, 512, 1, 5), row("a", 0, 512, 1, 5), row("b", 0, 512, 4, 8)}, nil,
			[]model.Conflict{conflict("a:output:0", "b:output:0", 0, 512, 4, 5)}},
		{"output and workspace of one node", []model.Row{row("n", 0, 512, 3, 4), row("n", 0, 512, 3, 3, kind("workspace", 0))}, nil,
			[]model.Conflict{conflict("n:output:0", "n:workspace:0", 0, 512, 3, 3)}},
		{"different batch branches", []model.Row{row("a", 0, 512, 1, 5, batch("Batch_0")), row("b", 0, 512, 1, 5, batch("Batch_1"))}, nil, nil},
		{"same batch branch", []model.Row{row("a", 0, 512, 1, 5, batch("Batch_0")), row("b", 0, 512, 1, 5, batch("Batch_0"))}, nil,
			[]model.Conflict{conflict("a:output:0", "b:output:0", 0, 512, 1, 5)}},
		{"empty rows", []model.Row{row("a", 0, 0, 1, 5), row("b", 0, 512, 1, 5)}, nil, nil},
		{"end before begin counts as one step", []model.Row{row("a", 0, 512, 7, 3), row("b", 0, 512, 7, 9)}, nil,
			[]model.Conflict{conflict("a:output:0", "b:output:0", 0, 512, 7, 7)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &model.Graph{Rows: tt.rows, Reassign: tt.reassign}
			got := analyze.Conflicts(g)
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// bruteConflicts applies docs/figures.md#conflicts to every pair of rows: the
// reference the sweep is checked against.
func bruteConflicts(g *model.Graph) map[[2]string]bool {
	type place struct{ lo, hi int64 }
	at := make([]place, len(g.Rows))
	root := make([]int, len(g.Rows))
	for i := range g.Rows {
		r := &g.Rows[i]
		root[i] = i
		if r.IsRef != 0 {
			for j := i - 1; j >= 0; j-- {
				if g.Rows[j].IsRef == 0 && g.Rows[j].Offset == r.Offset {
					root[i] = j
					break
				}
			}
		}
		at[i] = place{r.Offset, r.Offset + r.Size}
		if r.Continuous == 1 && r.Kind == "output" {
			for _, l := range g.Reassign {
				if l.Dir == "input" && l.Node == r.Node && l.Index == r.Index {
					at[i] = place{l.Offset, l.Offset + (l.RealSize+511)/512*512}
					break
				}
			}
		}
	}
	skip := func(r *model.Row) bool {
		b, _ := r.LifeText()
		return r.ZeroCopy != 0 || r.Pool || (b == "" && r.LifeBegin == 0 && r.LifeEnd == model.LifeMax)
	}
	end := func(r *model.Row) int64 { return max(r.LifeEnd, r.LifeBegin) }
	got := map[[2]string]bool{}
	for i := range g.Rows {
		for j := i + 1; j < len(g.Rows); j++ {
			a, b := &g.Rows[i], &g.Rows[j]
			if skip(a) || skip(b) || root[i] == root[j] || a.Key() == b.Key() || (a.Batch != "" && b.Batch != "" && a.Batch != b.Batch) {
				continue
			}
			if max(at[i].lo, at[j].lo) >= min(at[i].hi, at[j].hi) || max(a.LifeBegin, b.LifeBegin) > min(end(a), end(b)) {
				continue
			}
			k := [2]string{a.Key(), b.Key()}
			sort.Strings(k[:])
			got[k] = true
		}
	}
	return got
}

// randomGraph builds a small graph dense in conflicts and special rows.
func randomGraph(rng *rand.Rand, n int) *model.Graph {
	g := &model.Graph{}
	for i := 0; i < n; i++ {
		off := int64(rng.IntN(16)) * 512
		size := int64(1+rng.IntN(4)) * 512
		b := int64(rng.IntN(20))
		e := b + int64(rng.IntN(6)) - 1
		if rng.IntN(8) == 0 {
			e = inf + int64(rng.IntN(2))
		}
		r := row("n"+strconv.Itoa(rng.IntN(n)), off, size, b, e, stream(int64(rng.IntN(2))), kind("output", int64(rng.IntN(2))))
		switch rng.IntN(12) {
		case 0:
			isref(&r)
		case 1:
			zeroCopy(&r)
		case 2:
			cont(&r)
			g.Reassign = append(g.Reassign, contIn(r.Node, off+int64(rng.IntN(4))*512, int64(1+rng.IntN(1200))))
			g.Reassign[len(g.Reassign)-1].Index = r.Index
		case 3:
			pool(&r)
		case 4:
			batch("Batch_" + strconv.Itoa(rng.IntN(2)))(&r)
		}
		g.Rows = append(g.Rows, r)
	}
	return g
}

func TestConflictsMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 2000; iter++ {
		g := randomGraph(rng, 1+rng.IntN(40))
		want := bruteConflicts(g)
		got := analyze.Conflicts(g)
		keys := map[[2]string]bool{}
		for _, c := range got {
			if c.A >= c.B || keys[[2]string{c.A, c.B}] {
				t.Fatalf("iteration %d: bad or repeated pair %+v", iter, c)
			}
			keys[[2]string{c.A, c.B}] = true
			if c.Size <= 0 || c.Lifetime[0] > c.Lifetime[1] {
				t.Fatalf("iteration %d: empty intersection %+v", iter, c)
			}
		}
		if !reflect.DeepEqual(keys, want) && (len(keys) > 0 || len(want) > 0) {
			t.Fatalf("iteration %d: sweep %v\nbrute force %v\nrows %+v", iter, keys, want, g.Rows)
		}
	}
}

// layoutGraph is a synthetic graph of n rows laid out the way GE does:
// blocks side by side, each reused by 200 tenants one after another. One
// tenant in 10000 overstays into its successor's lifetime (a conflict).
func layoutGraph(n int) (*model.Graph, int) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := &model.Graph{Rows: make([]model.Row, 0, n)}
	var off int64
	injected := 0
	for len(g.Rows) < n {
		size := int64(1+rng.IntN(64)) * 512
		var t int64
		overstay := false
		for k := 0; k < 200 && len(g.Rows) < n; k++ {
			b := t
			if !overstay {
				b += int64(rng.IntN(3))
			}
			e := b + int64(rng.IntN(20))
			t = e + 1
			overstay = len(g.Rows)%10000 == 5000 // not a block's last tenant
			if overstay {
				e = t // the next tenant begins at t: they share that step
				injected++
			}
			g.Rows = append(g.Rows, row("op_"+strconv.Itoa(len(g.Rows)), off, size, b, e))
		}
		off += size
	}
	return g, injected
}

func TestConflictsLayout(t *testing.T) {
	g, injected := layoutGraph(100000)
	if got := len(analyze.Conflicts(g)); got != injected {
		t.Errorf("conflicts: got %d, want %d", got, injected)
	}
}

func BenchmarkConflicts(b *testing.B) {
	g, injected := layoutGraph(1000000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := len(analyze.Conflicts(g)); n != injected {
			b.Fatalf("conflicts: got %d, want %d", n, injected)
		}
	}
	b.ReportMetric(float64(len(g.Rows))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func ExampleConflicts() {
	g := &model.Graph{Rows: []model.Row{
		row("relu_5", 731648, 131584, 5, 11),
		row("mul_11", 731648, 131584, 11, 11, kind("workspace", 0)),
	}}
	for _, c := range analyze.Conflicts(g) {
		fmt.Printf("%s × %s at [%d, +%d) lifetime %d→%d stream %s\n", c.A, c.B, c.Offset, c.Size, c.Lifetime[0], c.Lifetime[1], c.Stream)
	}
	// Output: mul_11:workspace:0 × relu_5:output:0 at [731648, +131584) lifetime 11→11 stream 0
}
