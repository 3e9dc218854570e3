package store

import (
	"fmt"
	"strings"
	"testing"

	"imas/core/gelog"
)

// TestTapeSize checks how a worker sizes the next chunk's tape from the
// last one: a row per candidate line after a chunk of at least half rows,
// else the rows, and always the text and rare entries, that the same
// proportions need plus an eighth, and no guess before a first chunk.
func TestTapeSizer(t *testing.T) {
	tapeOf := func(rows, nameLen, rare int) *RowTape {
		tape := NewRowTape(TapeSize{Rows: rows})
		for i := 0; i < rows; i++ {
			r := gelog.SetRow{Node: strings.Repeat("n", nameLen), Kind: "output"}
			if i < rare {
				r.Batch = "batch"
			}
			tape.Append(&r)
		}
		return tape
	}
	var sc TapeSizer
	if sz := sc.Size(900); sz.Rows != 900 || sz.Text != 900*32 || sz.Rare != 0 {
		t.Errorf("first chunk: %+v for 900 candidates", sz)
	}
	sc.Learn(0, tapeOf(0, 0, 0)) // a chunk without candidates teaches nothing
	if sc.sized {
		t.Fatal("learned from a chunk without candidates")
	}

	// Two thirds rows, a tenth of them rare: room for 600 rows and an
	// eighth (and a few) more.
	sc.Learn(900, tapeOf(600, 40, 60))
	const lo, hi = 600, 600*9/8 + 32
	sz := sc.Size(900)
	if sz.Rows != 900 || sz.Text < lo*40 || sz.Text > hi*41 || sz.Rare < lo/10 || sz.Rare > hi/10+2 {
		t.Errorf("after 600 rows of 900 (40-byte names, a tenth rare): %+v", sz)
	}
	if sz := sc.Size(10); sz.Rows != 10 || sz.Text > 10*41 {
		t.Errorf("10 candidates: %+v", sz)
	}

	sc.Learn(500, tapeOf(500, 8, 0)) // every candidate a row
	if sz := sc.Size(500); sz.Rows != 500 || sz.Text != 500*8 || sz.Rare != 0 {
		t.Errorf("all rows, 8-byte names: %+v for 500 candidates", sz)
	}
	sc.Learn(500, tapeOf(0, 0, 0)) // no rows at all: room for a few
	if sz := sc.Size(500); sz.Rows != 16 || sz.MaxRows != 500 || sz.Text != 16*8 {
		t.Errorf("after a chunk without rows: %+v, want 16 rows (500 at most) and text for 16", sz)
	}
	sc.Learn(1000, tapeOf(100, 8, 0)) // a tenth rows
	if sz := sc.Size(1000); sz.Rows < 100*9/8+16 || sz.Rows > 100*9/8+20 || sz.MaxRows != 1000 {
		t.Errorf("after a tenth rows: %+v, want about 128 rows, 1000 at most", sz)
	}
}

// TestTapeGrowsToMaxRows: a tape whose rows fill grows to room for a row
// per candidate in one step, and keeps every row.
func TestTapeGrowsToMaxRows(t *testing.T) {
	tape := NewRowTape(TapeSize{Rows: 4, MaxRows: 100})
	for i := range 5 {
		tape.Append(&gelog.SetRow{Node: "n", Kind: "output", Index: int64(i)})
	}
	if cap(tape.rows) != 100 {
		t.Errorf("rows grew to %d, want 100", cap(tape.rows))
	}
	for i := range 5 {
		if tape.rows[i].index != int64(i) {
			t.Fatalf("row %d has index %d", i, tape.rows[i].index)
		}
	}
}

// TestTapeKeepsRowsPastItsGuess: a tape sized for a few rows that gets a
// row per line (and more than its MaxRows) keeps every row as written.
func TestTapeKeepsRowsPastItsGuess(t *testing.T) {
	tape := NewRowTape(TapeSize{Rows: 16, MaxRows: 500, Text: 16 * 8})
	want := make([]gelog.SetRow, 1000)
	for i := range want {
		want[i] = gelog.SetRow{Graph: "g", Node: fmt.Sprintf("node_%d", i), Kind: "output", Index: int64(i), Size: int64(i) * 512}
		tape.Append(&want[i])
	}
	rd := NewTapeReader()
	for i := range want {
		var got gelog.SetRow
		if err := rd.Read(tape, i, &got, gelog.Meta{}); err != nil || got.Node != want[i].Node || got.Index != want[i].Index || got.Size != want[i].Size {
			t.Fatalf("row %d of a tape grown from 16: %+v, %v; want %+v", i, got, err, want[i])
		}
	}
}
