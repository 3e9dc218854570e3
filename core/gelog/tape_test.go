package gelog

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

func TestTapeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	graphName := internGraph([]byte("tape_graph"))
	op := internOp([]byte("TapeOp"))
	ints := []int64{0, 1, -1, 511, 512, math.MaxInt64, math.MinInt64, 4294967295, 1 << 40}
	texts := []string{"", "x", "5--2", "not interned \x00 \xff", string(make([]byte, 300))}
	pick := func() int64 { return ints[rng.IntN(len(ints))] }
	var rows []SetRow
	for i := 0; i < 500; i++ {
		r := SetRow{
			Meta:  Meta{PID: pick(), TID: pick(), Event: rng.IntN(2) == 0, EventKey: uint64(pick())},
			Graph: []string{graphName, "raw graph", ""}[rng.IntN(3)], Node: texts[rng.IntN(len(texts))],
			OpType: []string{op, "", "RawOp"}[rng.IntN(3)], Kind: append([]string{"strange"}, tensorKinds...)[rng.IntN(len(tensorKinds)+1)],
			Index: pick(), Offset: pick(), StreamDesc: texts[rng.IntN(len(texts))], Stream: pick(), MemType: pick(),
			Size: pick(), RealSize: pick(), NoAlign: pick(), LifeBegin: pick(), LifeEnd: pick(),
			LifeDesc:   [2]string{texts[rng.IntN(len(texts))], texts[rng.IntN(len(texts))]},
			ChildParts: rng.IntN(6), IsRef: rng.IntN(2) == 0, Batch: texts[rng.IntN(len(texts))],
			BlockType: []string{"", op, "data "}[rng.IntN(3)], Pool: rng.IntN(2) == 0, HasLife: rng.IntN(2) == 0,
		}
		for j := 0; j < r.ChildParts; j++ {
			r.Child[j] = pick()
		}
		rows = append(rows, r)
	}
	var tape []byte
	var offs []int
	for i := range rows {
		offs = append(offs, len(tape))
		tape = AppendRow(tape, &rows[i])
	}
	rd := NewTapeReader()
	off := 0
	for i := range rows {
		want := rows[i]
		want.File, want.Line, want.Time = 7, int64(i), int64(i)*3
		var got SetRow
		if off != offs[i] {
			t.Fatalf("row %d at %d, want %d", i, off, offs[i])
		}
		next, err := rd.Read(tape, off, &got, Meta{File: 7, Line: int64(i), Time: int64(i) * 3})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got, want)
		}
		off = next
	}
	if off != len(tape) {
		t.Fatalf("read %d of %d bytes", off, len(tape))
	}
}

// TestTapeDamaged reads every prefix of a tape: errors, never a panic.
func TestTapeDamaged(t *testing.T) {
	r := SetRow{Graph: "g", Node: "n", Kind: "output", ChildParts: 5, Batch: "b"}
	tape := AppendRow(nil, &r)
	rd := NewTapeReader()
	for n := 0; n < len(tape); n++ {
		var got SetRow
		if _, err := rd.Read(tape[:n], 0, &got, Meta{}); err == nil {
			t.Errorf("prefix of %d bytes read without error", n)
		}
	}
	for _, bad := range [][]byte{{0x07}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}} {
		var got SetRow
		if _, err := rd.Read(bad, 0, &got, Meta{}); err == nil {
			t.Errorf("%x read without error", bad)
		}
	}
}

// TestTapeReaderSeesLaterNames reads a row naming a string interned after
// the reader was made.
func TestTapeReaderSeesLaterNames(t *testing.T) {
	rd := NewTapeReader()
	r := SetRow{Graph: internGraph([]byte("graph interned after the reader")), Kind: "output"}
	tape := AppendRow(nil, &r)
	var got SetRow
	if _, err := rd.Read(tape, 0, &got, Meta{}); err != nil || got.Graph != r.Graph {
		t.Fatalf("got %q, %v", got.Graph, err)
	}
}

// TestTapeReaderInternsNodes reads two rows of one node: one string.
func TestTapeReaderInternsNodes(t *testing.T) {
	r := SetRow{Node: "conv1", Kind: "output"}
	tape := AppendRow(nil, &r)
	off := len(tape)
	tape = AppendRow(tape, &r)
	rd := NewTapeReader()
	var a, b SetRow
	if _, err := rd.Read(tape, 0, &a, Meta{}); err != nil {
		t.Fatal(err)
	}
	if _, err := rd.Read(tape, off, &b, Meta{}); err != nil {
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
