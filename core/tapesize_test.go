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
// last one: a row per candidate line, text and rare entries for what the
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
	if sz := sc.tapeSize(900); sz.Rows != 900 || sz.Text != 900*32 || sz.Rare != 0 {
		t.Errorf("first chunk: %+v for 900 candidates", sz)
	}
	sc.learn(0, tapeOf(0, 0, 0)) // a chunk without candidates teaches nothing
	if sc.sized {
		t.Fatal("learned from a chunk without candidates")
	}

	// Two thirds rows, a tenth of them rare: room for 600 rows and an
	// eighth (and a few) more.
	sc.learn(900, tapeOf(600, 40, 60))
	const lo, hi = 600, 600*9/8 + 32
	sz := sc.tapeSize(900)
	if sz.Rows != 900 || sz.Text < lo*40 || sz.Text > hi*41 || sz.Rare < lo/10 || sz.Rare > hi/10+2 {
		t.Errorf("after 600 rows of 900 (40-byte names, a tenth rare): %+v", sz)
	}
	if sz := sc.tapeSize(10); sz.Rows != 10 || sz.Text > 10*41 {
		t.Errorf("10 candidates: %+v", sz)
	}

	sc.learn(500, tapeOf(500, 8, 0)) // every candidate a row
	if sz := sc.tapeSize(500); sz.Text != 500*8 || sz.Rare != 0 {
		t.Errorf("all rows, 8-byte names: %+v for 500 candidates", sz)
	}
	sc.learn(500, tapeOf(0, 0, 0)) // no rows at all: text for a few, rows kept
	if sz := sc.tapeSize(500); sz.Rows != 500 || sz.Text != 16*8 {
		t.Errorf("after a chunk without rows: %+v, want 500 rows and text for 16", sz)
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
	text, _ := r.tape.Sizes()
	if sz := sc.tapeSize(int(r.candidates)); sz.Text < text || sz.Text > text*5/4+32*64 {
		t.Errorf("same chunk again: %+v for %d rows of %d bytes of names", sz, r.tape.Len(), text)
	}
}
