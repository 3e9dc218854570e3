package core

import (
	"bytes"
	"strings"
	"testing"

	"imas/core/gelog"
	"imas/core/input"
	"imas/internal/gen"
)

// TestTapeSize checks how a worker sizes the next chunk's tape from the
// last one: room for a row per candidate line, memory backed for what the
// same proportions need plus an eighth, and no guess before a first chunk.
func TestTapeSize(t *testing.T) {
	tapeOf := func(rows, nameLen, rare int) *gelog.RowTape {
		tape := gelog.NewRowTape(gelog.TapeSize{Rows: rows})
		for i := 0; i < rows; i++ {
			r := gelog.SetRow{Node: strings.Repeat("n", nameLen), Kind: "output"}
			if i < rare {
				r.Batch = "batch"
			}
			tape.Append(&r)
		}
		return tape
	}
	var sc chunkScratch
	if sz := sc.tapeSize(900); sz.Rows != 900 || sz.Backed != 900 {
		t.Errorf("first chunk: %+v for 900 candidates, want 900 rows backed", sz)
	}
	sc.learn(0, tapeOf(0, 0, 0)) // a chunk without candidates teaches nothing
	if sc.sized {
		t.Fatal("learned from a chunk without candidates")
	}

	sc.learn(900, tapeOf(600, 40, 60)) // two thirds rows, a tenth of them rare
	sz := sc.tapeSize(900)
	if sz.Rows != 900 || sz.Backed < 600 || sz.Backed >= 900 || sz.Backed > 600*9/8+32 {
		t.Errorf("after 600 rows of 900: %+v", sz)
	}
	if sz.Text < sz.Backed*40 || sz.Text > sz.Backed*41 {
		t.Errorf("text %d bytes for %d rows of 40-byte names", sz.Text, sz.Backed)
	}
	if sz.Rare < sz.Backed/10 || sz.Rare > sz.Backed/10+2 {
		t.Errorf("%d rare entries for %d rows, a tenth rare", sz.Rare, sz.Backed)
	}
	if sz := sc.tapeSize(10); sz.Rows != 10 || sz.Backed > 10 {
		t.Errorf("10 candidates: %+v", sz)
	}

	sc.learn(500, tapeOf(500, 8, 0)) // every candidate a row
	if sz := sc.tapeSize(500); sz.Backed != 500 {
		t.Errorf("all rows: %+v for 500 candidates, want 500 backed", sz)
	}
	sc.learn(500, tapeOf(0, 0, 0)) // no rows at all: little backed, room kept
	if sz := sc.tapeSize(500); sz.Backed != 16 || sz.Rows != 500 {
		t.Errorf("after a chunk without rows: %+v, want 16 of 500 backed", sz)
	}
}

// TestParseChunkLearnsTapeSize checks that parseChunk teaches the scratch
// (a test of tapeSize alone passed while parseChunk handed learn the
// consumed candidate list, so that no chunk ever learned).
func TestParseChunkLearnsTapeSize(t *testing.T) {
	data, err := gen.Log("large", 2<<20)
	if err != nil {
		t.Fatal(err)
	}
	data = data[:bytes.LastIndexByte(data, '\n')+1]
	var sc chunkScratch
	r := parseChunk(&input.Chunk{Data: data}, 0, 64<<10, &sc)
	if r.tape.Len() == 0 || !sc.sized || sc.rowsPer1024 == 0 || sc.textPerRow == 0 {
		t.Fatalf("after a chunk of %d rows: scratch %+v", r.tape.Len(), sc)
	}
	sz := sc.tapeSize(int(r.candidates))
	if sz.Backed < r.tape.Len() || sz.Backed > r.tape.Len()*9/8+32 {
		t.Errorf("same chunk again: %+v for %d rows", sz, r.tape.Len())
	}
}
