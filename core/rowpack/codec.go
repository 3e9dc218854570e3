package rowpack

import (
	"encoding/binary"
	"errors"

	"imas/core/model"
)

// A graph's segment holds its Rows, Reassign, AtomicPieces and Live. A
// slice is its length + 1 (0 for nil, so that null and [] stay apart in
// report.json), then its elements. Names are numbers in the store's table
// (names.go). Integers are zig-zag varints, most of them written as the
// difference from a neighbour that makes them small: a row's node number,
// file and line from the previous row's (rows come in log order, a node's
// tensors together), its real and unaligned sizes from its size, its end
// step from its begin step, a curve's points from the previous point. The
// differences wrap in int64, so any value round-trips. A row's booleans
// and 0/1 flags share one varint (rowFlags); flags of other values are
// written whole after it.
//
// TestCodecRoundTrip fills every field of every type, so a field added to
// the model and not here fails it.

// rowFlags bits.
const (
	fCounted = 1 << iota
	fReuse
	fZeroCopy
	fIsRef
	fContinuous
	fPool
	fLifeDesc
	fSameStream
	// fWide: Reuse, Continuous, ZeroCopy, SameStream and IsRef are not all
	// 0 or 1; they follow as varints and their bits above are 0.
	fWide
)

type encoder struct {
	b     []byte
	names *names
	// last name of each kind of field (the k-th name a row or a line
	// writes), with its number: consecutive rows mostly repeat them, and a
	// repeat costs a string comparison, not a hash.
	last [rowNames]struct {
		s  string
		id uint32
		_  [0]func() // not comparable: no equality code is made for it
	}
	lastNode string
	nodeID   uint32
}

//go:noinline
func (e *encoder) len(isNil bool, n int) {
	if isNil {
		e.b = append(e.b, 0)
		return
	}
	e.b = binary.AppendUvarint(e.b, uint64(n)+1)
}

func bit(v bool, f uint64) uint64 {
	if v {
		return f
	}
	return 0
}

func zeroOne(vs ...int8) bool {
	for _, v := range vs {
		if v != 0 && v != 1 {
			return false
		}
	}
	return true
}

// rowInts and rowNames are how many integers and names every row has.
// Numbers and names are written and read by loops that are not inlined:
// one copy of the varint code in the page's WebAssembly, not one per
// field (each copy of an append there is some hundred bytes).
const (
	rowInts  = 14
	rowNames = 5
)

// graph appends g's segment to e.b.
func (e *encoder) graph(g *model.Graph) {
	e.len(g.Rows == nil, len(g.Rows))
	var node uint32
	var file int32
	var line int64
	for i := range g.Rows {
		r := &g.Rows[i]
		narrow := zeroOne(r.Reuse, r.Continuous, r.ZeroCopy, r.SameStream, r.IsRef)
		f := bit(r.Counted, fCounted) | bit(r.Pool, fPool) | bit(r.LifeDesc != nil, fLifeDesc) | bit(!narrow, fWide)
		if narrow {
			f |= bit(r.Reuse == 1, fReuse) | bit(r.ZeroCopy == 1, fZeroCopy) | bit(r.IsRef == 1, fIsRef) |
				bit(r.Continuous == 1, fContinuous) | bit(r.SameStream == 1, fSameStream)
		}
		e.b = binary.AppendUvarint(e.b, f)
		if r.Node != e.lastNode {
			e.lastNode, e.nodeID = r.Node, e.names.id(r.Node)
		}
		id := e.nodeID
		ints := [rowInts]int64{int64(id) - int64(node), r.Index, r.Offset, r.Stream, r.MemType, r.Size,
			r.Size - r.RealSize, r.NoAlign - r.RealSize, r.LifeBegin, r.LifeEnd - r.LifeBegin, r.Child,
			int64(r.ChildParts), int64(r.File) - int64(file), r.Line - line}
		e.ints(ints[:])
		node, file, line = id, r.File, r.Line
		e.strs(r.OpType, r.Kind, r.StreamDesc, r.Batch, r.BlockType)
		if r.LifeDesc != nil {
			e.strs(r.LifeDesc[0], r.LifeDesc[1])
		}
		if !narrow {
			e.ints([]int64{int64(r.Reuse), int64(r.Continuous), int64(r.ZeroCopy), int64(r.SameStream), int64(r.IsRef)})
		}
	}
	e.len(g.Reassign == nil, len(g.Reassign))
	for i := range g.Reassign {
		r := &g.Reassign[i]
		e.strs(r.Node, r.OpType, r.Dir, r.Kind, r.Variant)
		e.ints([]int64{r.Index, r.Offset, r.Stream, r.MemType, r.Size, r.Size - r.RealSize, int64(bit(r.NoPadding, 1)), r.Line})
	}
	e.len(g.AtomicPieces == nil, len(g.AtomicPieces))
	for i := range g.AtomicPieces {
		a := &g.AtomicPieces[i]
		e.strs(a.Node, a.OpType, a.What, a.Kind)
		e.ints([]int64{a.Index, a.Offset, a.Stream, a.Size, a.Size - a.RealSize, a.Line})
	}
	e.len(g.Live == nil, 0)
	if g.Live != nil {
		e.curve(g.Live.Steps)
		e.curve(g.Live.Reusable)
		e.curve(g.Live.Counted)
	}
}

//go:noinline
func (e *encoder) ints(vs []int64) {
	for _, v := range vs {
		e.b = binary.AppendVarint(e.b, v)
	}
}

// strs writes names, the k-th as the k-th kind of name field.
//
//go:noinline
func (e *encoder) strs(vs ...string) {
	for k, s := range vs {
		l := &e.last[k]
		if s != l.s {
			l.s, l.id = s, e.names.id(s)
		}
		e.b = binary.AppendUvarint(e.b, uint64(l.id))
	}
}

// curve writes a live curve's column, each value as the difference from
// the one before.
func (e *encoder) curve(vs []int64) {
	e.len(vs == nil, len(vs))
	var prev int64
	for _, v := range vs {
		e.b = binary.AppendVarint(e.b, v-prev)
		prev = v
	}
}

var errCorrupt = errors.New("corrupt segment")

// decoder reads a segment whose names are in t.
type decoder struct {
	b   []byte
	p   int
	t   *table
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.p = len(d.b)
}

func (d *decoder) uint() uint64 {
	// Most numbers of a row fit one byte; the others take the call.
	if d.p < len(d.b) && d.b[d.p] < 0x80 {
		d.p++
		return uint64(d.b[d.p-1])
	}
	return d.uvarint()
}

//go:noinline
func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b[d.p:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.p += n
	return v
}

func (d *decoder) int() int64 {
	u := d.uint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *decoder) name() string {
	id := d.uint()
	if id >= uint64(len(d.t.refs)) {
		d.fail()
		return ""
	}
	return d.t.str(uint32(id))
}

// len returns a slice length and whether the slice is nil; a length the
// remaining bytes cannot hold (one byte per element at least) is corrupt.
//
//go:noinline
func (d *decoder) len() (int, bool) {
	v := d.uint()
	if v == 0 {
		return 0, true
	}
	if v-1 > uint64(len(d.b)-d.p) {
		d.fail()
		return 0, true
	}
	return int(v - 1), false
}

// decodeGraph sets g's Rows, Reassign, AtomicPieces and Live from segment
// b, whose names are in t.
func decodeGraph(b []byte, t *table, g *model.Graph) error {
	d := &decoder{b: b, t: t}
	g.Rows = nil
	if n, isNil := d.len(); !isNil {
		g.Rows = make([]model.Row, n)
		var node, line int64
		var file int32
		for i := range g.Rows {
			f := d.uint()
			var v [rowInts]int64
			d.ints(v[:])
			node += v[0]
			if node < 0 || node >= int64(len(t.refs)) {
				d.fail()
				node = 0
			}
			file += int32(v[12])
			line += v[13]
			var n [rowNames]string
			d.strs(n[:])
			var life *[2]string
			if f&fLifeDesc != 0 {
				life = new([2]string)
				d.strs(life[:])
			}
			// The five flags: as bits of f, or whole after the names.
			w := [5]int64{int64(f / fReuse & 1), int64(f / fContinuous & 1), int64(f / fZeroCopy & 1),
				int64(f / fSameStream & 1), int64(f / fIsRef & 1)}
			if f&fWide != 0 {
				d.ints(w[:])
			}
			real := v[5] - v[6]
			// One store of the whole row: a field at a time costs a write
			// barrier check per string, in code and in time.
			g.Rows[i] = model.Row{Node: t.str(uint32(node)), OpType: n[0], Kind: n[1], Index: v[1], Offset: v[2],
				Stream: v[3], StreamDesc: n[2], MemType: v[4], Size: v[5], RealSize: real, NoAlign: real + v[7],
				LifeBegin: v[8], LifeEnd: v[8] + v[9], LifeDesc: life, Child: v[10],
				Reuse: int8(w[0]), Continuous: int8(w[1]), ZeroCopy: int8(w[2]), SameStream: int8(w[3]), IsRef: int8(w[4]),
				Batch: n[3], BlockType: n[4], Pool: f&fPool != 0, Counted: f&fCounted != 0,
				ChildParts: int8(v[11]), File: file, Line: line}
			if d.err != nil {
				return d.err
			}
		}
	}
	g.Reassign = nil
	if n, isNil := d.len(); !isNil {
		g.Reassign = make([]model.Reassign, n)
		for i := range g.Reassign {
			var n [5]string
			var v [8]int64
			d.strs(n[:])
			d.ints(v[:])
			g.Reassign[i] = model.Reassign{Node: n[0], OpType: n[1], Dir: n[2], Kind: n[3], Variant: n[4],
				Index: v[0], Offset: v[1], Stream: v[2], MemType: v[3], Size: v[4], RealSize: v[4] - v[5],
				NoPadding: v[6] != 0, Line: v[7]}
		}
	}
	g.AtomicPieces = nil
	if n, isNil := d.len(); !isNil {
		g.AtomicPieces = make([]model.AtomicPiece, n)
		for i := range g.AtomicPieces {
			var n [4]string
			var v [6]int64
			d.strs(n[:])
			d.ints(v[:])
			g.AtomicPieces[i] = model.AtomicPiece{Node: n[0], OpType: n[1], What: n[2], Kind: n[3],
				Index: v[0], Offset: v[1], Stream: v[2], Size: v[3], RealSize: v[3] - v[4], Line: v[5]}
		}
	}
	g.Live = nil
	if _, isNil := d.len(); !isNil {
		g.Live = &model.LiveCurve{Steps: d.curve(), Reusable: d.curve(), Counted: d.curve()}
	}
	if d.err == nil && d.p != len(d.b) {
		d.err = errCorrupt
	}
	return d.err
}

//go:noinline
func (d *decoder) ints(v []int64) {
	for k := range v {
		v[k] = d.int()
	}
}

//go:noinline
func (d *decoder) strs(v []string) {
	for k := range v {
		v[k] = d.name()
	}
}

func (d *decoder) curve() []int64 {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	vs := make([]int64, n)
	var prev int64
	for i := range vs {
		prev += d.int()
		vs[i] = prev
	}
	return vs
}
