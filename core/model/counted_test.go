package model

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// countedByMap is markCounted's rule written with a map: the first row of
// each (node, kind, index) tensor with isref 0 and realsize > 0 counts.
func countedByMap(rows []Row) []bool {
	type id struct {
		node, kind string
		index      int64
	}
	seen := map[id]bool{}
	out := make([]bool, len(rows))
	for i, r := range rows {
		if r.IsRef != 0 || r.RealSize <= 0 {
			continue
		}
		k := id{r.Node, r.Kind, r.Index}
		out[i] = !seen[k]
		seen[k] = true
	}
	return out
}

// randomRows makes n rows over few nodes, kinds and indexes, so that
// tensors repeat, some rows are references and some have no real size.
func randomRows(rng *rand.Rand, n, nodes int) []Row {
	kinds := []string{"input", "output", "workspace", "outpu"}
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{
			Node:     fmt.Sprintf("node_%d", rng.IntN(nodes)),
			Kind:     kinds[rng.IntN(len(kinds))],
			Index:    int64(rng.IntN(3)) - 1,
			RealSize: int64(rng.IntN(5)) - 1,
			IsRef:    int8(rng.IntN(4) / 3),
			Counted:  rng.IntN(2) == 0, // stale marks must be cleared
		}
	}
	return rows
}

func TestMarkCountedMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var m CountMarker
	for _, tc := range []struct{ rows, nodes int }{
		{0, 1}, {1, 1}, {7, 2}, {100, 3}, {1000, 50}, {5000, 5000}, {20, 4}, {70000, 20000}, {3, 1},
	} {
		t.Run(fmt.Sprintf("%d-rows-%d-nodes", tc.rows, tc.nodes), func(t *testing.T) {
			rows := randomRows(rng, tc.rows, tc.nodes)
			want := countedByMap(rows)
			// The marker's table is reused from case to case, as graph
			// after graph in a run; markAllCounted gets its own.
			g := &Graph{Rows: rows}
			m.Mark(g)
			other := &Graph{Rows: append([]Row(nil), rows...)}
			markAllCounted([]*Graph{other, {Rows: randomRows(rng, 10, 2)}})
			for i := range rows {
				if rows[i].Counted != want[i] || other.Rows[i].Counted != want[i] {
					t.Fatalf("row %d %+v: Mark %v, markAllCounted %v, want %v",
						i, rows[i], rows[i].Counted, other.Rows[i].Counted, want[i])
				}
			}
		})
	}
}

// hugeGraphRows is a graph of n tensors, each output once and read by
// one input, the shape of a compiled model of n operators.
func hugeGraphRows(n int) []Row {
	rows := make([]Row, 0, 2*n)
	for i := range n {
		node := fmt.Sprintf("model/layer_%d/MatMul_%d", i/64, i)
		rows = append(rows,
			Row{Node: node, Kind: "output", RealSize: 4096},
			Row{Node: node, Kind: "input", Index: 0, RealSize: 4096},
		)
	}
	return rows
}

// BenchmarkMarkCounted marks the counted rows of one graph of 10^6 rows,
// the table reused as from graph to graph.
func BenchmarkMarkCounted(b *testing.B) {
	g := &Graph{Rows: hugeGraphRows(500_000)}
	var m CountMarker
	m.Mark(g)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		m.Mark(g)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(g.Rows)), "ns/row")
}
