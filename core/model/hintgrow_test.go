package model

import (
	"testing"

	"imas/core/gelog"
)

// TestRowsGrowGeometricallyWithHints: when a graph's size hint grows a
// little before each row (files read a chunk at a time), its rows are
// copied a logarithmic number of times, not once per hint, and at most
// twice as many rows in all as the graph has (doubling; growing by a
// quarter copies about four times as many).
func TestRowsGrowGeometricallyWithHints(t *testing.T) {
	hints := map[HintKey]Hint{}
	b := NewBuilder([]string{"plog"})
	b.SizeHints(hints)
	k := HintKey{PID: 7, Graph: "g", MemType: 2}
	const rows = 20000
	grows, copied := 0, 0
	lastCap := -1
	for i := 0; i < rows; i++ {
		hints[k] = Hint{Rows: i + 2} // what the chunks read so far promise
		b.Add(&gelog.SetRow{Meta: gelog.Meta{PID: 7, Line: int64(i + 1)}, Graph: "g", MemType: 2,
			Node: "n", Kind: "output", Index: int64(i), Size: 512, RealSize: 512})
		g := b.setRunOf(7).g
		if c := cap(g.Rows); c != lastCap {
			grows++
			lastCap = c
			copied += len(g.Rows) - 1
		}
	}
	if copied > 2*rows {
		t.Errorf("%d rows copied while growing a graph of %d rows; want at most twice as many", copied, rows)
	}
	if got := len(b.setRunOf(7).g.Rows); got != rows {
		t.Fatalf("graph has %d rows, want %d", got, rows)
	}
	if grows > 64 {
		t.Errorf("rows reallocated %d times for %d rows; want a logarithmic number", grows, rows)
	}
}

// BenchmarkHugeGraphHinted builds one graph of 10^6 rows whose size hint
// grows a chunk (20 000 rows) ahead of the build, as when one process's
// rotated files are read and built chunk by chunk.
func BenchmarkHugeGraphHinted(b *testing.B) {
	const rows, chunk = 1_000_000, 20_000
	k := HintKey{PID: 7, Graph: "g", MemType: 2}
	row := gelog.SetRow{Meta: gelog.Meta{PID: 7}, Graph: "g", MemType: 2,
		Node: "n", Kind: "output", Size: 512, RealSize: 512}
	b.ReportAllocs()
	for range b.N {
		hints := map[HintKey]Hint{}
		bu := NewBuilder([]string{"plog"})
		bu.SizeHints(hints)
		for i := range rows {
			if i%chunk == 0 {
				hints[k] = Hint{Rows: min(i+2*chunk, rows)}
			}
			row.Line, row.Index = int64(i+1), int64(i)
			bu.Add(&row)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
}
