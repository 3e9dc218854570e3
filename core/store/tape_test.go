package store

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"imas/core/gelog"
	"imas/core/store/intern"
)

func TestTapeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	graphName, _ := intern.Bytes([]byte("tape_graph"))
	op, _ := intern.Bytes([]byte("TapeOp"))
	ints := []int64{0, 1, -1, 511, 512, math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, math.MaxInt64, math.MinInt64, 4294967295, 1 << 40}
	texts := []string{"", "x", "5--2", "not interned \x00 \xff", string(make([]byte, 300))}
	pick := func() int64 { return ints[rng.IntN(len(ints))] }
	var rows []gelog.SetRow
	for i := 0; i < 2000; i++ {
		r := gelog.SetRow{
			Meta:  gelog.Meta{PID: pick(), TID: pick(), Event: rng.IntN(2) == 0},
			Graph: []string{graphName, "raw graph", ""}[rng.IntN(3)], Node: texts[rng.IntN(len(texts))],
			OpType: []string{op, "", "RawOp"}[rng.IntN(3)], Kind: append([]string{"strange", ""}, gelog.TensorKinds()...)[rng.IntN(len(gelog.TensorKinds())+2)],
			Index: pick(), Offset: pick(), Stream: pick(), MemType: pick(),
			Size: pick(), RealSize: pick(), NoAlign: pick(), LifeBegin: pick(), LifeEnd: pick(),
			ChildParts: rng.IntN(6), IsRef: rng.IntN(2) == 0,
			BlockType: []string{"", op, "data "}[rng.IntN(3)], Pool: rng.IntN(2) == 0, HasLife: rng.IntN(2) == 0,
		}
		if rng.IntN(4) == 0 { // the rare fields, now and then
			r.EventKey = uint64(pick())
			r.StreamDesc, r.Batch = texts[rng.IntN(len(texts))], texts[rng.IntN(len(texts))]
			r.LifeDesc = [2]string{texts[rng.IntN(len(texts))], texts[rng.IntN(len(texts))]}
		}
		if rng.IntN(2) == 0 { // as the parser gives them
			r.SetNameIDs(intern.ID(r.Graph), intern.ID(r.OpType), intern.ID(r.BlockType))
		}
		for j := 0; j < r.ChildParts; j++ {
			r.Child[j] = pick()
			if rng.IntN(3) > 0 {
				r.Child[j] = int64(rng.IntN(3))
			}
		}
		rows = append(rows, r)
	}
	var tape RowTape
	check := func(pass string) {
		t.Helper()
		rd := NewTapeReader()
		for i := range rows {
			want := rows[i]
			want.File, want.Line, want.Time = 7, int64(i), int64(i)*3
			want.SetNameIDs(intern.ID(want.Graph), intern.ID(want.OpType), intern.ID(want.BlockType))
			var got gelog.SetRow
			if err := rd.Read(&tape, i, &got, gelog.Meta{File: 7, Line: int64(i), Time: int64(i) * 3}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, row %d:\n got %+v\nwant %+v", pass, i, got, want)
			}
		}
		if tape.Len() != len(rows) || tape.Bytes() < len(rows)*int(unsafe.Sizeof(tapeRow{})) {
			t.Errorf("%s: Len %d, Bytes %d for %d rows", pass, tape.Len(), tape.Bytes(), len(rows))
		}
	}
	for i := range rows {
		if n := tape.Append(&rows[i]); n != i {
			t.Fatalf("row %d appended as %d", i, n)
		}
	}
	check("first pass")
	// Append stores fields one by one into the slice's next element: over
	// the rows of the first pass (the tape reused, as for the next chunk,
	// and the rows in another order) every field must still come out right.
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	if tape.Reuse(TapeSize{Rows: cap(tape.rows) + 1}) {
		t.Fatal("a tape reused for more rows than it has room for")
	}
	if !tape.Reuse(TapeSize{Rows: len(rows), Rare: cap(tape.rare) + 10, MaxRows: len(rows)}) {
		t.Fatal("a tape with room not reused")
	}
	if tape.Len() != 0 || len(tape.text) != 0 || len(tape.rare) != 0 || cap(tape.rare) < 10 {
		t.Fatalf("reused tape: %d rows, %d bytes of text, %d rare entries of room for %d", tape.Len(), len(tape.text), len(tape.rare), cap(tape.rare))
	}
	for i := range rows {
		tape.Append(&rows[i])
	}
	check("over old rows")
}

// TestTapeDamaged reads rows a tape does not have, and rows whose
// references point outside it: errors, never a panic.
func TestTapeDamaged(t *testing.T) {
	r := gelog.SetRow{Graph: "g", Node: "node", Kind: "output", ChildParts: 5, Batch: "b"}
	tape := NewRowTape(TapeSize{Rows: 1})
	tape.Append(&r)
	rd := NewTapeReader()
	var got gelog.SetRow
	for _, i := range []int{-1, 1, 1 << 30} {
		if err := rd.Read(tape, i, &got, gelog.Meta{}); err == nil {
			t.Errorf("row %d of 1 read without error", i)
		}
	}
	for name, damage := range map[string]func(w *tapeRow){
		"node":   func(w *tapeRow) { w.nodeLen = 1 << 20 },
		"rare":   func(w *tapeRow) { w.rare = 99 },
		"kind":   func(w *tapeRow) { w.kind = 200 },
		"parts":  func(w *tapeRow) { w.childParts = 6 },
		"graph":  func(w *tapeRow) { w.graph = math.MaxUint32 },
		"optype": func(w *tapeRow) { w.opType = math.MaxUint32 },
		"block":  func(w *tapeRow) { w.blockType = math.MaxUint32 },
	} {
		bad := NewRowTape(TapeSize{Rows: 1})
		bad.Append(&r)
		damage(&bad.rows[0])
		if err := rd.Read(bad, 0, &got, gelog.Meta{}); err == nil {
			t.Errorf("damaged %s read without error", name)
		}
	}
}

// TestTapeReaderSeesLaterNames reads a row naming a string interned after
// the reader was made.
func TestTapeReaderSeesLaterNames(t *testing.T) {
	rd := NewTapeReader()
	var r gelog.SetRow
	graph, id := intern.Bytes([]byte("graph interned after the reader"))
	r.Graph = graph
	r.SetNameIDs(id, 0, 0)
	r.Kind = "output"
	var tape RowTape
	tape.Append(&r)
	var got gelog.SetRow
	if err := rd.Read(&tape, 0, &got, gelog.Meta{}); err != nil || got.Graph != r.Graph {
		t.Fatalf("got %q, %v", got.Graph, err)
	}
}

// TestTapeReaderInternsNodes reads two rows of one node: one string, which
// does not alias the caller's bytes.
func TestTapeReaderInternsNodes(t *testing.T) {
	line := []byte("conv1")
	r := gelog.SetRow{Node: unsafe.String(&line[0], len(line)), Kind: "output"}
	var tape RowTape
	tape.Append(&r)
	tape.Append(&r)
	copy(line, "XXXXX") // the parser's buffer is reused
	rd := NewTapeReader()
	var a, b gelog.SetRow
	if err := rd.Read(&tape, 0, &a, gelog.Meta{}); err != nil {
		t.Fatal(err)
	}
	if err := rd.Read(&tape, 1, &b, gelog.Meta{}); err != nil {
		t.Fatal(err)
	}
	if a.Node != "conv1" || unsafe.StringData(a.Node) != unsafe.StringData(b.Node) {
		t.Errorf("node %q read twice as two strings", a.Node)
	}
}

// TestNodeTable checks the node-name interning: every name comes back
// equal, a name seen again shares the first copy's bytes, and names that
// collide in a slot stay correct (each kept in turn).
func TestNodeTable(t *testing.T) {
	var tab nodeTable
	names := make([]string, 200000) // far more names than slots: collisions
	for i := range names {
		names[i] = "node_" + strconv.Itoa(i)
	}
	for round := 0; round < 2; round++ {
		for _, n := range names {
			if got := tab.intern([]byte(n)); got != n {
				t.Fatalf("intern(%q) = %q", n, got)
			}
		}
	}
	a := tab.intern([]byte("relu_5"))
	b := tab.intern([]byte("relu_5"))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("a name seen twice in a row was stored twice")
	}
	if tab.intern([]byte("x")) != "x" || tab.intern(bytes.Repeat([]byte("y"), 100<<10)) != strings.Repeat("y", 100<<10) {
		t.Error("short or arena-sized names")
	}
}

// TestTapeSizes checks what the parser's tape sizing relies on: a tape
// made with the sizes another tape reported holds the same rows without
// growing its text or rare buffers.
func TestTapeSizes(t *testing.T) {
	rows := []gelog.SetRow{
		{Graph: "g", Node: "a_rather_long_node_name/with/scopes", Kind: "output"},
		{Graph: "g", Node: "n2", Kind: "workspace", Batch: "batch_1"},
		{Graph: "g", Node: "n3", Kind: "output", ChildParts: 5},
	}
	var first RowTape
	for i := range rows {
		first.Append(&rows[i])
	}
	text, rare := first.Sizes()
	if text < len(rows[0].Node) || rare == 0 {
		t.Fatalf("Sizes() = %d, %d: names or rare entries not counted", text, rare)
	}
	sized := NewRowTape(TapeSize{Rows: len(rows), Text: text, Rare: rare})
	caps := [3]int{cap(sized.rows), cap(sized.text), cap(sized.rare)}
	for i := range rows {
		sized.Append(&rows[i])
	}
	if got := [3]int{cap(sized.rows), cap(sized.text), cap(sized.rare)}; got != caps {
		t.Errorf("capacities grew from %v to %v", caps, got)
	}
	if t2, r2 := sized.Sizes(); t2 != text || r2 != rare {
		t.Errorf("sized tape reports %d, %d; first %d, %d", t2, r2, text, rare)
	}
}
