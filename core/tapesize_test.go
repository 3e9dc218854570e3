package core

import (
	"bytes"
	"testing"

	"imas/core/input"
	"imas/internal/gen"
)

// TestParseChunkLearnsTapeSize checks that parseChunk teaches the tape
// sizer (a test of the sizer alone passes while parseChunk hands Learn the
// consumed candidate list, so that no chunk ever learns).
func TestParseChunkLearnsTapeSize(t *testing.T) {
	data, err := gen.Log("large", 2<<20)
	if err != nil {
		t.Fatal(err)
	}
	data = data[:bytes.LastIndexByte(data, '\n')+1]
	var sc chunkScratch
	r := parseChunk(&input.Chunk{Data: data}, 0, 64<<10, &sc)
	if r.tape.Len() == 0 || !sc.tape.Sized() {
		t.Fatalf("after a chunk of %d rows: scratch %+v", r.tape.Len(), sc)
	}
	text, _ := r.tape.Sizes()
	if sz := sc.tape.Size(int(r.candidates)); sz.Text < text || sz.Text > text*5/4+32*64 {
		t.Errorf("same chunk again: %+v for %d rows of %d bytes of names", sz, r.tape.Len(), text)
	}
}
