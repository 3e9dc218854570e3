package gelog

import (
	"encoding/binary"
	"errors"
	"slices"
	"unsafe"
)

// A row tape holds parsed "[IMAS]Set" rows in a compact, pointer-free form
// while a run waits for all its files before merging them by time: a SetRow
// is ~330 bytes on the heap, its tape form ~40 (varints; interned names as
// their number). Big logs hold hundreds of thousands of rows, and on the
// machines measured every MiB of heap first touched costs ~2 ms of page
// faults, so this is the difference between holding 150 MB and 20 MB.
//
// Time, line and file are not on the tape: the caller keeps them beside
// each row's offset (it needs the time to merge anyway).

// AppendRow appends r's tape form to tape.
func AppendRow(tape []byte, r *SetRow) []byte {
	kind := slices.Index(tensorKinds, r.Kind) + 1 // 0: other (kept as text)
	flags := uint64(kind) | uint64(min(max(r.ChildParts, 0), len(r.Child)))<<3
	for i, b := range []bool{r.Event, r.IsRef, r.Pool, r.HasLife} {
		if b {
			flags |= 1 << (6 + i)
		}
	}
	tape = binary.AppendUvarint(tape, flags)
	if kind == 0 {
		tape = appendText(tape, r.Kind)
	}
	tape = binary.AppendVarint(tape, r.PID)
	tape = binary.AppendVarint(tape, r.TID)
	tape = binary.AppendUvarint(tape, r.EventKey)
	tape = appendName(tape, r.Graph)
	tape = appendText(tape, r.Node)
	tape = appendName(tape, r.OpType)
	tape = appendName(tape, r.BlockType)
	for _, v := range [...]int64{r.Index, r.Offset, r.Stream, r.MemType, r.Size, r.RealSize, r.NoAlign, r.LifeBegin, r.LifeEnd} {
		tape = binary.AppendVarint(tape, v)
	}
	for _, v := range r.Child[:min(max(r.ChildParts, 0), len(r.Child))] {
		tape = binary.AppendVarint(tape, v)
	}
	for _, s := range [...]string{r.StreamDesc, r.LifeDesc[0], r.LifeDesc[1], r.Batch} {
		tape = appendText(tape, s)
	}
	return tape
}

// appendName writes an interned name as its number (odd), anything else as
// its text (even length prefix); 0 is the empty string.
func appendName(tape []byte, s string) []byte {
	if id := internID(s); id != 0 {
		return binary.AppendUvarint(tape, uint64(id)<<1|1)
	}
	tape = binary.AppendUvarint(tape, uint64(len(s))<<1)
	return append(tape, s...)
}

func appendText(tape []byte, s string) []byte {
	tape = binary.AppendUvarint(tape, uint64(len(s)))
	return append(tape, s...)
}

// TapeReader decodes rows from a tape.
type TapeReader struct {
	names []string
	nodes *nodeTable
}

// NewTapeReader returns a reader of tapes.
func NewTapeReader() *TapeReader {
	return &TapeReader{names: interned(), nodes: new(nodeTable)}
}

// nodeTable interns node names. A node has several rows (outputs,
// workspaces), graphs share names, and every compilation of a graph
// repeats them all, so a log has far fewer names than rows (23 k for
// 385 k rows measured). The table is direct-mapped: a name's hash picks
// one slot, which keeps the latest name that hashed there, so a lookup is
// one probe (a Go map took ~0.25 µs a row here, a third of the merge).
// Two names that collide are both kept, in turn: a name is then stored
// again, which costs memory, never correctness. New names are copied into
// an arena, not allocated one by one.
type nodeTable struct {
	slots [1 << 16]string
	arena []byte
}

func (t *nodeTable) intern(b []byte) string {
	// FNV-1a: names are short, and the hash must be as cheap in wasm.
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	slot := &t.slots[h>>16^h&0xffff]
	if *slot == string(b) {
		return *slot
	}
	if len(b) > cap(t.arena)-len(t.arena) {
		t.arena = make([]byte, 0, max(64<<10, len(b)))
	}
	n := len(t.arena)
	t.arena = append(t.arena, b...)
	// The arena's bytes are never written again: the string may alias them.
	s := unsafe.String(&t.arena[n], len(b))
	*slot = s
	return s
}

var errTape = errors.New("gelog: damaged row tape")

// Read decodes the row at tape[off:] into r, with the given time, file and
// line, and returns the offset of the next row. Text fields are new strings.
func (t *TapeReader) Read(tape []byte, off int, r *SetRow, m Meta) (int, error) {
	d := decoder{b: tape, i: off}
	flags := d.uvarint()
	kind := int(flags & 7)
	parts := int(flags >> 3 & 7)
	*r = SetRow{Meta: m}
	if kind == 0 {
		r.Kind = d.text()
	} else if kind <= len(tensorKinds) {
		r.Kind = tensorKinds[kind-1]
	} else {
		d.err = errTape
	}
	r.Event = flags&(1<<6) != 0
	r.IsRef = flags&(1<<7) != 0
	r.Pool = flags&(1<<8) != 0
	r.HasLife = flags&(1<<9) != 0
	r.PID = d.varint()
	r.TID = d.varint()
	r.EventKey = d.uvarint()
	r.Graph = t.name(&d)
	r.Node = t.node(&d)
	r.OpType = t.name(&d)
	r.BlockType = t.name(&d)
	for _, p := range [...]*int64{&r.Index, &r.Offset, &r.Stream, &r.MemType, &r.Size, &r.RealSize, &r.NoAlign, &r.LifeBegin, &r.LifeEnd} {
		*p = d.varint()
	}
	if parts > len(r.Child) {
		d.err = errTape
		parts = 0
	}
	r.ChildParts = parts
	for i := 0; i < parts; i++ {
		r.Child[i] = d.varint()
	}
	r.StreamDesc = d.text()
	r.LifeDesc[0] = d.text()
	r.LifeDesc[1] = d.text()
	r.Batch = d.text()
	return d.i, d.err
}

func (t *TapeReader) node(d *decoder) string {
	b := d.raw(int(d.uvarint()))
	if len(b) == 0 {
		return ""
	}
	return t.nodes.intern(b)
}

func (t *TapeReader) name(d *decoder) string {
	v := d.uvarint()
	if v&1 == 0 {
		return d.bytes(int(v >> 1))
	}
	id := v >> 1
	if id >= uint64(len(t.names)) {
		t.names = interned() // interned since the reader was made
	}
	if id < uint64(len(t.names)) {
		return t.names[id]
	}
	d.err = errTape
	return ""
}

type decoder struct {
	b   []byte
	i   int
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b[min(d.i, len(d.b)):])
	if n <= 0 {
		d.err, d.i = errTape, len(d.b)
		return 0
	}
	d.i += n
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b[min(d.i, len(d.b)):])
	if n <= 0 {
		d.err, d.i = errTape, len(d.b)
		return 0
	}
	d.i += n
	return v
}

func (d *decoder) text() string { return d.bytes(int(d.uvarint())) }

func (d *decoder) bytes(n int) string {
	if b := d.raw(n); len(b) > 0 {
		return string(b)
	}
	return ""
}

// raw returns the next n bytes of the tape, in place.
func (d *decoder) raw(n int) []byte {
	if n < 0 || n > len(d.b)-d.i {
		d.err, d.i = errTape, len(d.b)
		return nil
	}
	b := d.b[d.i : d.i+n]
	d.i += n
	return b
}
