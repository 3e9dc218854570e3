package core

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"imas/core/input"
)

// TestParseChunkLineNumbers: every record and every over-long line of a
// chunk carries the number of its line, counted naively, however the
// candidates and the other lines (blank, CRLF, over-long, candidates one
// after the other) are mixed.
func TestParseChunkLineNumbers(t *testing.T) {
	const maxLine = 600
	rng := rand.New(rand.NewPCG(7, 9))
	var lines []string
	want := map[int64]bool{} // candidate line numbers
	for i := 0; i < 3000; i++ {
		n := int64(len(lines) + 1)
		switch k := rng.IntN(10); {
		case k < 4:
			lines = append(lines, rowLine(i))
			want[n] = true
		case k == 4:
			lines = append(lines, "")
		case k == 5:
			lines = append(lines, "[INFO] GE(77,python3):2026-08-12-10:21:33.000.000 [x.cc:1]78 F:noise\r")
		case k == 6:
			lines = append(lines, strings.Repeat("long noise ", 80)) // over maxLine
		case k == 7:
			lines = append(lines, rowLine(i)+strings.Repeat(" ", maxLine))
			want[n] = true // an over-long candidate: the head is parsed
		default:
			lines = append(lines, "[INFO] GE(77,python3):2026-08-12-10:21:33.000.000 [x.cc:1]78 F:other line of noise")
		}
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	var sc chunkScratch
	r := parseChunk(&input.Chunk{Data: data}, 0, maxLine, &sc)
	if r.lines != int64(len(lines)) {
		t.Errorf("%d lines counted, want %d", r.lines, len(lines))
	}
	got := map[int64]bool{}
	for _, it := range r.items {
		got[it.line] = true
		if !want[it.line] {
			t.Errorf("a record at line %d: %.60q", it.line, lines[it.line-1])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d records, want %d", len(got), len(want))
	}
	for _, o := range r.overlong {
		if l := lines[o.line-1]; len(l) <= maxLine || !bytes.HasPrefix([]byte(l), []byte(o.text[:20])) {
			t.Errorf("over-long line %d is %d bytes: %.40q", o.line, len(l), l)
		}
	}
	if len(r.overlong) == 0 {
		t.Error("no over-long lines found")
	}
}

func rowLine(i int) string {
	return fmt.Sprintf("[INFO] GE(77,python3):2026-08-12-10:21:33.%03d.000 [block_mem_assigner.cc:2914]78 SetOffsetSize:"+
		"[IMAS]Set g_1 name[n%d] optype[Add] output[0] offset to [%d] streamid[0] memtype[2] size[512] realsize[480] noalignsize[448] "+
		"life time begin[%d] life time end[%d] child[0:1:0:0:1] isref[0] batch[], block_type[]", i%1000, i, i*512, i, i+1)
}
