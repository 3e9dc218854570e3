package analyze_test

import (
	"fmt"
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
