// Package store keeps what the pipeline holds between parsing and the
// merge: the row tape of parsed "[IMAS]Set" rows, and the sizing that
// lets each parsing worker back its next tape at once.
package store

import (
	"errors"
	"math"
	"slices"
	"unsafe"

	"imas/core/gelog"
	"imas/core/internal/prefault"
	"imas/core/store/intern"
)

// A row tape holds parsed "[IMAS]Set" rows while a run waits for all its
// files before merging them by time. A gelog.SetRow is ~340 bytes with pointers
// the collector has to follow; a tape row is a fixed 136-byte record
// without pointers: names are their numbers in the intern table, the node
// name lives in one byte arena per tape, and the fields that are rarely
// printed (descriptions, batch, odd kinds and names, child numbers beyond
// int32) sit in a side table. Writing and reading a row are plain field
// copies, with no encoding to pay for (a varint encoding would cost more
// than parsing the row, several times more in wasm).
//
// Time, line and file are not on the tape: the caller keeps them beside
// each row's index (it needs the time to merge anyway).

// RowTape is a sequence of rows. The zero value is empty and ready to use.
type RowTape struct {
	rows    []tapeRow
	text    []byte // node names, referenced by tapeRow.node
	rare    []tapeRare
	maxRows int // TapeSize.MaxRows
}

type tapeRow struct {
	pid, tid                          int64
	index, offset, stream, memType    int64
	size, realSize, noAlign           int64
	lifeBegin, lifeEnd                int64
	child                             [5]int32
	graph, opType, blockType          uint32 // intern numbers; 0: empty, or text in the rare entry
	node, nodeLen                     uint32 // text[node : node+nodeLen]
	rare                              uint32 // 1 + index into rare; 0: none
	kind, childParts                  uint8  // kind: 1 + index into gelog.TensorKinds; 0: text in the rare entry
	event, isRef, pool, hasLife, wide bool   // wide: the child numbers are in the rare entry
}

// tapeRare holds what a row rarely has.
type tapeRare struct {
	eventKey                       uint64
	kind, graph, opType, blockType string
	streamDesc, batch              string
	lifeDesc                       [2]string
	child                          [5]int64
}

// TapeSize is what a new tape has room for, all of it backed by memory at
// once (prefault).
type TapeSize struct {
	Rows int
	Text int // bytes of node names
	Rare int // rare entries
	// MaxRows is the most rows the chunk can give (one per candidate
	// line): a tape whose Rows fill grows to it in one step.
	MaxRows int
}

// NewRowTape returns a tape of size sz.
func NewRowTape(sz TapeSize) *RowTape {
	t := &RowTape{rows: make([]tapeRow, 0, sz.Rows), text: make([]byte, 0, sz.Text), maxRows: sz.MaxRows}
	if sz.Rare > 0 {
		t.rare = make([]tapeRare, 0, sz.Rare)
	}
	prefault.Slice(t.rows)
	prefault.Slice(t.text)
	prefault.Slice(t.rare)
	return t
}

// Reuse empties t for a chunk of size sz, keeping its memory (already
// backed), and reports whether its rows have room for sz's. A tape too
// small is better let go than grown: growing copies its rows.
func (t *RowTape) Reuse(sz TapeSize) bool {
	if cap(t.rows) < sz.Rows {
		return false
	}
	t.rows, t.text = t.rows[:0], t.text[:0]
	clear(t.rare) // its strings are not kept alive by a tape in waiting
	t.rare = t.rare[:0]
	if cap(t.rare) < sz.Rare {
		t.rare = make([]tapeRare, 0, sz.Rare)
		prefault.Slice(t.rare)
	}
	t.maxRows = sz.MaxRows
	return true
}

// Sizes returns the bytes of node names and the number of rare entries on
// the tape, to size the next one.
func (t *RowTape) Sizes() (text, rare int) { return len(t.text), len(t.rare) }

// Len is the number of rows on the tape.
func (t *RowTape) Len() int { return len(t.rows) }

// Bytes is the memory the tape holds.
func (t *RowTape) Bytes() int {
	return cap(t.rows)*int(unsafe.Sizeof(tapeRow{})) + cap(t.text) + cap(t.rare)*int(unsafe.Sizeof(tapeRare{}))
}

// Append adds r (its gelog.Meta's file, line and time excepted) and returns its
// index. The tape keeps a copy of the node name, so r.Node may be borrowed.
// Every field of the new row is stored one by one, in place: a composite
// literal is built on the stack and copied, which in wasm (no vector
// moves) would make the row store most of Append's time.
func (t *RowTape) Append(r *gelog.SetRow) int {
	n := len(t.rows)
	if n == cap(t.rows) {
		rows := make([]tapeRow, n, max(t.maxRows, 2*n, 16))
		prefault.Slice(rows)
		copy(rows, t.rows)
		t.rows = rows
	}
	t.rows = t.rows[:n+1]
	w := &t.rows[n]
	w.pid, w.tid = r.PID, r.TID
	w.index, w.offset, w.stream, w.memType = r.Index, r.Offset, r.Stream, r.MemType
	w.size, w.realSize, w.noAlign = r.Size, r.RealSize, r.NoAlign
	w.lifeBegin, w.lifeEnd = r.LifeBegin, r.LifeEnd
	w.node, w.nodeLen = uint32(len(t.text)), uint32(len(r.Node))
	w.event, w.isRef, w.pool, w.hasLife = r.Event, r.IsRef, r.Pool, r.HasLife
	w.rare, w.kind, w.wide = 0, 0, false
	t.text = append(t.text, r.Node...)
	var rare tapeRare
	hasRare := r.EventKey != 0 || r.StreamDesc != "" || r.Batch != "" || r.LifeDesc != [2]string{}
	rare.eventKey, rare.streamDesc, rare.batch, rare.lifeDesc = r.EventKey, r.StreamDesc, r.Batch, r.LifeDesc
	if k := slices.Index(gelog.TensorKinds(), r.Kind); k >= 0 {
		w.kind = uint8(k + 1)
	} else {
		rare.kind, hasRare = r.Kind, true
	}
	graphID, opTypeID, blockTypeID := r.NameIDs()
	var ok bool
	if w.graph, ok = nameID(r.Graph, graphID); !ok {
		rare.graph, hasRare = r.Graph, true
	}
	if w.opType, ok = nameID(r.OpType, opTypeID); !ok {
		rare.opType, hasRare = r.OpType, true
	}
	if w.blockType, ok = nameID(r.BlockType, blockTypeID); !ok {
		rare.blockType, hasRare = r.BlockType, true
	}
	parts := min(max(r.ChildParts, 0), len(r.Child))
	w.childParts = uint8(parts)
	w.child = [5]int32{}
	for i, v := range r.Child[:parts] {
		if v < math.MinInt32 || v > math.MaxInt32 {
			w.wide = true
		}
		w.child[i] = int32(v)
	}
	if w.wide {
		rare.child, hasRare = r.Child, true
	}
	if hasRare {
		t.rare = append(t.rare, rare)
		w.rare = uint32(len(t.rare))
	}
	return len(t.rows) - 1
}

// nameID returns the intern number of name: id when the parser gave one,
// else a lookup. ok is false when name is not interned (it must then be
// kept as text).
func nameID(name string, id uint32) (uint32, bool) {
	if name == "" {
		return 0, true
	}
	if id == 0 {
		id = intern.ID(name)
	}
	return id, id != 0
}

// TapeReader decodes rows from tapes. It interns node names, so that all
// the rows of a node share one string.
type TapeReader struct {
	names []string
	nodes *nodeTable
}

// NewTapeReader returns a reader of tapes.
func NewTapeReader() *TapeReader {
	return &TapeReader{names: intern.Names(), nodes: new(nodeTable)}
}

// nodeTable interns node names. A node has several rows (outputs,
// workspaces), graphs share names, and every compilation of a graph
// repeats them all, so a log has far fewer names than rows (tens of
// thousands for hundreds of thousands of rows in a large run). The table is
// direct-mapped: a name's hash picks one slot, which keeps the latest name
// that hashed there, so a lookup is one probe (a Go map would be a large
// part of the merge's time).
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

var errTape = errors.New("store: damaged row tape")

// Read decodes row i of t into r, with the given time, file and line. The
// strings of r are shared (interned or the rare entry's); none aliases t.
func (rd *TapeReader) Read(t *RowTape, i int, r *gelog.SetRow, m gelog.Meta) error {
	if i < 0 || i >= len(t.rows) {
		return errTape
	}
	w := &t.rows[i]
	*r = gelog.SetRow{Meta: m,
		Index: w.index, Offset: w.offset, Stream: w.stream, MemType: w.memType,
		Size: w.size, RealSize: w.realSize, NoAlign: w.noAlign,
		LifeBegin: w.lifeBegin, LifeEnd: w.lifeEnd,
		ChildParts: int(w.childParts), IsRef: w.isRef, Pool: w.pool, HasLife: w.hasLife,
	}
	r.SetNameIDs(w.graph, w.opType, w.blockType)
	r.PID, r.TID, r.Event = w.pid, w.tid, w.event
	var ok bool
	if r.Graph, ok = rd.name(w.graph); !ok {
		return errTape
	}
	if r.OpType, ok = rd.name(w.opType); !ok {
		return errTape
	}
	if r.BlockType, ok = rd.name(w.blockType); !ok {
		return errTape
	}
	if int(w.childParts) > len(r.Child) {
		return errTape
	}
	for j := range int(w.childParts) {
		r.Child[j] = int64(w.child[j])
	}
	if w.kind > 0 {
		kinds := gelog.TensorKinds()
		if int(w.kind) > len(kinds) {
			return errTape
		}
		r.Kind = kinds[w.kind-1]
	}
	if end := uint64(w.node) + uint64(w.nodeLen); end > uint64(len(t.text)) {
		return errTape
	} else if w.nodeLen > 0 {
		r.Node = rd.nodes.intern(t.text[w.node:end])
	}
	if w.rare == 0 {
		return nil
	}
	if int(w.rare) > len(t.rare) {
		return errTape
	}
	x := &t.rare[w.rare-1]
	r.EventKey, r.StreamDesc, r.Batch, r.LifeDesc = x.eventKey, x.streamDesc, x.batch, x.lifeDesc
	if w.kind == 0 {
		r.Kind = x.kind
	}
	if w.graph == 0 && x.graph != "" {
		r.Graph = x.graph
	}
	if w.opType == 0 && x.opType != "" {
		r.OpType = x.opType
	}
	if w.blockType == 0 && x.blockType != "" {
		r.BlockType = x.blockType
	}
	if w.wide {
		copy(r.Child[:w.childParts], x.child[:w.childParts])
	}
	return nil
}

// name returns the interned name number id ("" for 0).
func (rd *TapeReader) name(id uint32) (string, bool) {
	if id >= uint32(len(rd.names)) {
		rd.names = intern.Names() // interned since the reader was made
	}
	if id < uint32(len(rd.names)) {
		return rd.names[id], true
	}
	return "", false
}
