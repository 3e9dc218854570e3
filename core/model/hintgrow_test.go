package model

import (
	"testing"

	"imas/core/gelog"
)

// TestRowsGrowGeometricallyWithHints: when a graph's size hint grows a
// little before each row (files read a chunk at a time), its rows are
// copied a logarithmic number of times, not once per hint.
func TestRowsGrowGeometricallyWithHints(t *testing.T) {
	hints := map[HintKey]Hint{}
	b := NewBuilder([]string{"plog"})
	b.SizeHints(hints)
	k := HintKey{PID: 7, Graph: "g", MemType: 2}
	const rows = 20000
	grows := 0
	lastCap := -1
	for i := 0; i < rows; i++ {
		hints[k] = Hint{Rows: i + 2} // what the chunks read so far promise
		b.Add(&gelog.SetRow{Meta: gelog.Meta{PID: 7, Line: int64(i + 1)}, Graph: "g", MemType: 2,
			Node: "n", Kind: "output", Index: int64(i), Size: 512, RealSize: 512})
		g := b.lastSet.g
		if c := cap(g.Rows); c != lastCap {
			grows++
			lastCap = c
		}
	}
	if got := len(b.lastSet.g.Rows); got != rows {
		t.Fatalf("graph has %d rows, want %d", got, rows)
	}
	if grows > 64 {
		t.Errorf("rows reallocated %d times for %d rows; want a logarithmic number", grows, rows)
	}
}
