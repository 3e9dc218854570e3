package analyze_test

import (
	"reflect"
	"testing"

	"imas/core/analyze"
	"imas/core/model"
)

func TestPeak(t *testing.T) {
	child := func(r *model.Row) { r.Child = 1 }
	rows := []model.Row{
		row("a", 0, 1024, 1, 3),
		row("b", 1024, 2048, 2, 3),
		row("a_inplace", 0, 1024, 2, 3, isref),
		row("c", 0, 1024, 4, 5),
		row("data", 3072, 512, 0, inf, zeroCopy),
		row("sub", 1024, 512, 2, 3, child),
	}
	item := func(key string, off, size int64, life, flags string, shared int) model.PeakItem {
		return model.PeakItem{Key: key, Offset: off, Size: size, Life: life, Flags: flags, Shared: shared}
	}
	b := item("b:output:0", 1024, 2048, "2→3", "1:0:0:1", 2)
	a := item("a:output:0", 0, 1024, "1→3", "1:0:0:1", 3)
	alias := item("a_inplace:output:0", 0, 1024, "2→3", "1:0:0:1", 3)
	alias.AliasOf = "a:output:0"
	data := item("data:output:0", 3072, 512, "0→∞", "0:0:1:1", 1)

	tests := []struct {
		name string
		rows []model.Row
		top  int
		want *model.Peak
	}{
		{"largest first, alias after its row, child blocks left out", rows, 10,
			&model.Peak{Step: 2, Live: 3584, Theory: 3584, Blocks: 3, Tensors: []model.PeakItem{b, a, alias, data}}},
		{"top cut", rows, 1,
			&model.Peak{Step: 2, Live: 3584, Theory: 3584, Blocks: 3, Tensors: []model.PeakItem{b}}},
		{"an alias outliving its row holds the block", []model.Row{
			row("r", 0, 512, 1, 1), row("s", 0, 512, 1, 5, isref), row("t", 1024, 4096, 3, 4)}, 10,
			&model.Peak{Step: 3, Live: 4608, Theory: 4096, Blocks: 2, Tensors: []model.PeakItem{
				item("t:output:0", 1024, 4096, "3→4", "1:0:0:1", 1),
				{Key: "s:output:0", Offset: 0, Size: 512, Life: "1→5", Flags: "1:0:0:1", Shared: 2, AliasOf: "r:output:0"}}}},
		{"no rows", nil, 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := analyze.Peak(&model.Graph{Rows: tt.rows}, tt.top)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func BenchmarkPeak(b *testing.B) {
	g, _ := layoutGraph(1000000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		analyze.Peak(g, analyze.PeakTop)
	}
}
