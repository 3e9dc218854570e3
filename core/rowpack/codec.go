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
	// last name of each kind of field, with its number: consecutive rows
	// mostly repeat them, and a repeat costs a string comparison, not a
	// hash.
	last [nameFields]struct {
		s  string
		id uint32
	}
}

const (
	nNode = iota
	nOpType
	nKind
	nStreamDesc
	nBatch
	nBlockType
	nOther
	nameFields
)

func (e *encoder) name(field int, s string) {
	l := &e.last[field]
	if s != l.s {
		l.s, l.id = s, e.names.id(s)
	}
	e.b = binary.AppendUvarint(e.b, uint64(l.id))
}

func (e *encoder) int(v int64) { e.b = binary.AppendVarint(e.b, v) }

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

// encodeGraph appends g's segment to e.b.
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
		id := e.last[nNode].id
		if r.Node != e.last[nNode].s {
			id = e.names.id(r.Node)
			e.last[nNode].s, e.last[nNode].id = r.Node, id
		}
		e.int(int64(id) - int64(node))
		node = id
		e.name(nOpType, r.OpType)
		e.name(nKind, r.Kind)
		e.int(r.Index)
		e.int(r.Offset)
		e.int(r.Stream)
		e.name(nStreamDesc, r.StreamDesc)
		e.int(r.MemType)
		e.int(r.Size)
		e.int(r.Size - r.RealSize)
		e.int(r.NoAlign - r.RealSize)
		e.int(r.LifeBegin)
		e.int(r.LifeEnd - r.LifeBegin)
		if r.LifeDesc != nil {
			e.name(nOther, r.LifeDesc[0])
			e.name(nOther, r.LifeDesc[1])
		}
		e.int(r.Child)
		if !narrow {
			for _, v := range [...]int8{r.Reuse, r.Continuous, r.ZeroCopy, r.SameStream, r.IsRef} {
				e.int(int64(v))
			}
		}
		e.name(nBatch, r.Batch)
		e.name(nBlockType, r.BlockType)
		e.int(int64(r.ChildParts))
		e.int(int64(r.File) - int64(file))
		e.int(r.Line - line)
		file, line = r.File, r.Line
	}
	e.len(g.Reassign == nil, len(g.Reassign))
	for i := range g.Reassign {
		r := &g.Reassign[i]
		e.name(nNode, r.Node)
		e.name(nOpType, r.OpType)
		e.name(nOther, r.Dir)
		e.name(nKind, r.Kind)
		e.int(r.Index)
		e.int(r.Offset)
		e.int(r.Stream)
		e.int(r.MemType)
		e.int(r.Size)
		e.int(r.Size - r.RealSize)
		e.b = append(e.b, byte(bit(r.NoPadding, 1)))
		e.name(nOther, r.Variant)
		e.int(r.Line)
	}
	e.len(g.AtomicPieces == nil, len(g.AtomicPieces))
	for i := range g.AtomicPieces {
		a := &g.AtomicPieces[i]
		e.name(nNode, a.Node)
		e.name(nOpType, a.OpType)
		e.name(nOther, a.What)
		e.name(nKind, a.Kind)
		e.int(a.Index)
		e.int(a.Offset)
		e.int(a.Stream)
		e.int(a.Size)
		e.int(a.Size - a.RealSize)
		e.int(a.Line)
	}
	e.b = append(e.b, byte(bit(g.Live != nil, 1)))
	if g.Live != nil {
		e.curve(g.Live.Steps)
		e.curve(g.Live.Reusable)
		e.curve(g.Live.Counted)
	}
}

// curve writes a live curve's column, each value as the difference from
// the one before.
func (e *encoder) curve(vs []int64) {
	e.len(vs == nil, len(vs))
	var prev int64
	for _, v := range vs {
		e.int(v - prev)
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
	// Most numbers of a row fit one byte.
	if d.p < len(d.b) && d.b[d.p] < 0x80 {
		d.p++
		return uint64(d.b[d.p-1])
	}
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

func (d *decoder) byte() byte {
	if d.p >= len(d.b) {
		d.fail()
		return 0
	}
	d.p++
	return d.b[d.p-1]
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
			r := &g.Rows[i]
			f := d.uint()
			node += d.int()
			if node < 0 || node >= int64(len(t.refs)) {
				d.fail()
				node = 0
			}
			r.Node = t.str(uint32(node))
			r.OpType, r.Kind = d.name(), d.name()
			r.Index, r.Offset, r.Stream = d.int(), d.int(), d.int()
			r.StreamDesc = d.name()
			r.MemType, r.Size = d.int(), d.int()
			r.RealSize = r.Size - d.int()
			r.NoAlign = r.RealSize + d.int()
			r.LifeBegin = d.int()
			r.LifeEnd = r.LifeBegin + d.int()
			if f&fLifeDesc != 0 {
				r.LifeDesc = &[2]string{d.name(), d.name()}
			}
			r.Child = d.int()
			if f&fWide != 0 {
				r.Reuse, r.Continuous, r.ZeroCopy, r.SameStream, r.IsRef = int8(d.int()), int8(d.int()), int8(d.int()), int8(d.int()), int8(d.int())
			} else {
				r.Reuse, r.Continuous, r.ZeroCopy = int8(f/fReuse&1), int8(f/fContinuous&1), int8(f/fZeroCopy&1)
				r.SameStream, r.IsRef = int8(f/fSameStream&1), int8(f/fIsRef&1)
			}
			r.Batch, r.BlockType = d.name(), d.name()
			r.Pool, r.Counted = f&fPool != 0, f&fCounted != 0
			r.ChildParts = int8(d.int())
			file += int32(d.int())
			line += d.int()
			r.File, r.Line = file, line
			if d.err != nil {
				return d.err
			}
		}
	}
	g.Reassign = nil
	if n, isNil := d.len(); !isNil {
		g.Reassign = make([]model.Reassign, n)
		for i := range g.Reassign {
			r := &g.Reassign[i]
			r.Node, r.OpType, r.Dir, r.Kind = d.name(), d.name(), d.name(), d.name()
			r.Index, r.Offset, r.Stream, r.MemType, r.Size = d.int(), d.int(), d.int(), d.int(), d.int()
			r.RealSize = r.Size - d.int()
			r.NoPadding = d.byte() != 0
			r.Variant = d.name()
			r.Line = d.int()
		}
	}
	g.AtomicPieces = nil
	if n, isNil := d.len(); !isNil {
		g.AtomicPieces = make([]model.AtomicPiece, n)
		for i := range g.AtomicPieces {
			a := &g.AtomicPieces[i]
			a.Node, a.OpType, a.What, a.Kind = d.name(), d.name(), d.name(), d.name()
			a.Index, a.Offset, a.Stream, a.Size = d.int(), d.int(), d.int(), d.int()
			a.RealSize = a.Size - d.int()
			a.Line = d.int()
		}
	}
	g.Live = nil
	if d.byte() != 0 {
		g.Live = &model.LiveCurve{Steps: d.curve(), Reusable: d.curve(), Counted: d.curve()}
	}
	if d.err == nil && d.p != len(d.b) {
		d.err = errCorrupt
	}
	return d.err
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
