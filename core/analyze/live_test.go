package analyze_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"imas/core/analyze"
	"imas/core/model"
)

// TestLive: a reusable tensor over steps 1-2, a never-reused one from 2 to
// the end (the largest finite step, 3), and rows that do not count.
func TestLive(t *testing.T) {
	g := &model.Graph{Rows: []model.Row{
		{RealSize: 100, LifeBegin: 1, LifeEnd: 2, Reuse: 1, Counted: true},
		{RealSize: 600, LifeBegin: 2, LifeEnd: model.LifeDefault, Counted: true},
		{RealSize: 512, LifeBegin: 3, LifeEnd: 3, Reuse: 1, Counted: true},
		{RealSize: 4096, LifeBegin: 0, LifeEnd: 9, Reuse: 1}, // an alias: not counted
	}}
	got := analyze.Live(g)
	want := &model.LiveCurve{
		Steps:    []int64{1, 2, 3, 4},
		Reusable: []int64{512, 512, 512, 0},
		Counted:  []int64{512, 1536, 1536, 0},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if c := analyze.Live(&model.Graph{Rows: g.Rows[3:]}); c != nil {
		t.Errorf("no counted tensor: %v, want nil", c)
	}
}

// TestLiveSparseSteps: steps far apart (summed after sorting) give the
// curve dense steps give (summed per step), shifted.
func TestLiveSparseSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var dense, sparse model.Graph
	const shift = 1 << 30 // far beyond 4 steps a tensor, below the infinite lifetimes
	for i := 0; i < 300; i++ {
		b := rng.Int64N(50)
		r := model.Row{RealSize: rng.Int64N(5000), LifeBegin: b, LifeEnd: b + rng.Int64N(20), Reuse: int8(rng.IntN(2)), Counted: rng.IntN(5) > 0}
		dense.Rows = append(dense.Rows, r)
		r.LifeBegin += shift
		r.LifeEnd += shift
		sparse.Rows = append(sparse.Rows, r)
	}
	d, s := analyze.Live(&dense), analyze.Live(&sparse)
	for i := range d.Steps {
		d.Steps[i] += shift
	}
	if fmt.Sprint(d) != fmt.Sprint(s) {
		for i := range min(len(d.Steps), len(s.Steps)) {
			if d.Steps[i] != s.Steps[i] || d.Reusable[i] != s.Reusable[i] || d.Counted[i] != s.Counted[i] {
				t.Fatalf("%d points, %d: point %d: dense steps (%d, %d, %d), sparse steps (%d, %d, %d)", len(d.Steps), len(s.Steps), i,
					d.Steps[i], d.Reusable[i], d.Counted[i], s.Steps[i], s.Reusable[i], s.Counted[i])
			}
		}
		t.Fatalf("%d points, %d", len(d.Steps), len(s.Steps))
	}
}
