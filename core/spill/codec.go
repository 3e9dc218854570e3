package spill

import (
	"encoding/binary"
	"errors"
	"slices"

	"imas/core/model"
)

// A segment is a graph's Rows, Reassign, AtomicPieces and Live, each field
// of each element in declaration order: integers as zig-zag varints,
// strings as a length and their bytes, booleans as 0 or 1. A slice is its
// length + 1 (0 for nil, so that null and [] stay apart in report.json),
// then its elements; a pointer is 0 for nil, else 1 and the value.
// TestCodecRoundTrip fills every field of every type, so a field added to
// the model and not here fails it.

func encodeGraph(b []byte, g *model.Graph) []byte {
	b = appendLen(b, g.Rows == nil, len(g.Rows))
	for i := range g.Rows {
		b = appendRow(b, &g.Rows[i])
	}
	b = appendLen(b, g.Reassign == nil, len(g.Reassign))
	for i := range g.Reassign {
		r := &g.Reassign[i]
		b = appendStr(b, r.Node)
		b = appendStr(b, r.OpType)
		b = appendStr(b, r.Dir)
		b = appendStr(b, r.Kind)
		b = binary.AppendVarint(b, r.Index)
		b = binary.AppendVarint(b, r.Offset)
		b = binary.AppendVarint(b, r.Stream)
		b = binary.AppendVarint(b, r.MemType)
		b = binary.AppendVarint(b, r.Size)
		b = binary.AppendVarint(b, r.RealSize)
		b = appendBool(b, r.NoPadding)
		b = appendStr(b, r.Variant)
		b = binary.AppendVarint(b, r.Line)
	}
	b = appendLen(b, g.AtomicPieces == nil, len(g.AtomicPieces))
	for i := range g.AtomicPieces {
		a := &g.AtomicPieces[i]
		b = appendStr(b, a.Node)
		b = appendStr(b, a.OpType)
		b = appendStr(b, a.What)
		b = appendStr(b, a.Kind)
		b = binary.AppendVarint(b, a.Index)
		b = binary.AppendVarint(b, a.Offset)
		b = binary.AppendVarint(b, a.Stream)
		b = binary.AppendVarint(b, a.Size)
		b = binary.AppendVarint(b, a.RealSize)
		b = binary.AppendVarint(b, a.Line)
	}
	b = appendBool(b, g.Live != nil)
	if g.Live != nil {
		b = appendInts(b, g.Live.Steps)
		b = appendInts(b, g.Live.Reusable)
		b = appendInts(b, g.Live.Counted)
	}
	return b
}

func appendRow(b []byte, r *model.Row) []byte {
	b = appendStr(b, r.Node)
	b = appendStr(b, r.OpType)
	b = appendStr(b, r.Kind)
	b = binary.AppendVarint(b, r.Index)
	b = binary.AppendVarint(b, r.Offset)
	b = binary.AppendVarint(b, r.Stream)
	b = appendStr(b, r.StreamDesc)
	b = binary.AppendVarint(b, r.MemType)
	b = binary.AppendVarint(b, r.Size)
	b = binary.AppendVarint(b, r.RealSize)
	b = binary.AppendVarint(b, r.NoAlign)
	b = binary.AppendVarint(b, r.LifeBegin)
	b = binary.AppendVarint(b, r.LifeEnd)
	b = appendBool(b, r.LifeDesc != nil)
	if r.LifeDesc != nil {
		b = appendStr(b, r.LifeDesc[0])
		b = appendStr(b, r.LifeDesc[1])
	}
	b = binary.AppendVarint(b, r.Child)
	for _, v := range [...]int8{r.Reuse, r.Continuous, r.ZeroCopy, r.SameStream, r.IsRef} {
		b = binary.AppendVarint(b, int64(v))
	}
	b = appendStr(b, r.Batch)
	b = appendStr(b, r.BlockType)
	b = appendBool(b, r.Pool)
	b = appendBool(b, r.Counted)
	b = binary.AppendVarint(b, int64(r.ChildParts))
	b = binary.AppendVarint(b, int64(r.File))
	return binary.AppendVarint(b, r.Line)
}

func appendLen(b []byte, isNil bool, n int) []byte {
	if isNil {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, uint64(n)+1)
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendInts(b []byte, vs []int64) []byte {
	b = appendLen(b, vs == nil, len(vs))
	for _, v := range vs {
		b = binary.AppendVarint(b, v)
	}
	return b
}

var errCorrupt = errors.New("corrupt segment")

// decoder reads a segment. Its strings are substrings of one copy of the
// segment (text), so that a graph of 10^5 rows costs one allocation for
// its names, not one per name.
type decoder struct {
	b    []byte
	text string
	p    int
	err  error
}

func (d *decoder) int() int64 {
	// Most numbers of a row (index, stream, flags, -1) fit one byte.
	if d.p < len(d.b) && d.b[d.p] < 0x80 {
		u := int64(d.b[d.p])
		d.p++
		return u>>1 ^ -(u & 1)
	}
	v, n := binary.Varint(d.b[d.p:])
	if n <= 0 {
		d.err = errCorrupt
		d.p = len(d.b)
		return 0
	}
	d.p += n
	return v
}

func (d *decoder) uint() uint64 {
	if d.p < len(d.b) && d.b[d.p] < 0x80 {
		d.p++
		return uint64(d.b[d.p-1])
	}
	v, n := binary.Uvarint(d.b[d.p:])
	if n <= 0 {
		d.err = errCorrupt
		d.p = len(d.b)
		return 0
	}
	d.p += n
	return v
}

// len returns a slice length and whether the slice is nil; a length the
// remaining bytes cannot hold (one byte per element at least) is corrupt.
func (d *decoder) len() (int, bool) {
	v := d.uint()
	if v == 0 {
		return 0, true
	}
	if v-1 > uint64(len(d.b)-d.p) {
		d.err = errCorrupt
		d.p = len(d.b)
		return 0, true
	}
	return int(v - 1), false
}

func (d *decoder) str() string {
	n := d.uint()
	if n > uint64(len(d.b)-d.p) {
		d.err = errCorrupt
		d.p = len(d.b)
		return ""
	}
	s := d.text[d.p : d.p+int(n)]
	d.p += int(n)
	return s
}

func (d *decoder) bool() bool {
	if d.p >= len(d.b) {
		d.err = errCorrupt
		return false
	}
	v := d.b[d.p]
	d.p++
	return v != 0
}

func (d *decoder) ints() []int64 {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	vs := make([]int64, n)
	for i := range vs {
		vs[i] = d.int()
	}
	return vs
}

// decodeGraph sets g's Rows, Reassign, AtomicPieces and Live from segment b.
func decodeGraph(b []byte, g *model.Graph) error {
	d := &decoder{b: b, text: string(b)}
	if n, isNil := d.len(); isNil {
		g.Rows = nil
	} else {
		g.Rows = make([]model.Row, n)
		for i := range g.Rows {
			d.row(&g.Rows[i])
		}
	}
	if n, isNil := d.len(); isNil {
		g.Reassign = nil
	} else {
		g.Reassign = make([]model.Reassign, n)
		for i := range g.Reassign {
			r := &g.Reassign[i]
			r.Node, r.OpType, r.Dir, r.Kind = d.str(), d.str(), d.str(), d.str()
			r.Index, r.Offset, r.Stream, r.MemType, r.Size, r.RealSize = d.int(), d.int(), d.int(), d.int(), d.int(), d.int()
			r.NoPadding = d.bool()
			r.Variant = d.str()
			r.Line = d.int()
		}
	}
	if n, isNil := d.len(); isNil {
		g.AtomicPieces = nil
	} else {
		g.AtomicPieces = make([]model.AtomicPiece, n)
		for i := range g.AtomicPieces {
			a := &g.AtomicPieces[i]
			a.Node, a.OpType, a.What, a.Kind = d.str(), d.str(), d.str(), d.str()
			a.Index, a.Offset, a.Stream, a.Size, a.RealSize, a.Line = d.int(), d.int(), d.int(), d.int(), d.int(), d.int()
		}
	}
	g.Live = nil
	if d.bool() {
		g.Live = &model.LiveCurve{Steps: d.ints(), Reusable: d.ints(), Counted: d.ints()}
	}
	if d.err == nil && d.p != len(d.b) {
		d.err = errCorrupt
	}
	return d.err
}

func (d *decoder) row(r *model.Row) {
	r.Node, r.OpType, r.Kind = d.str(), d.str(), d.str()
	r.Index, r.Offset, r.Stream = d.int(), d.int(), d.int()
	r.StreamDesc = d.str()
	r.MemType, r.Size, r.RealSize, r.NoAlign, r.LifeBegin, r.LifeEnd = d.int(), d.int(), d.int(), d.int(), d.int(), d.int()
	if d.bool() {
		r.LifeDesc = &[2]string{d.str(), d.str()}
	}
	r.Child = d.int()
	r.Reuse, r.Continuous, r.ZeroCopy, r.SameStream, r.IsRef = int8(d.int()), int8(d.int()), int8(d.int()), int8(d.int()), int8(d.int())
	r.Batch, r.BlockType = d.str(), d.str()
	r.Pool, r.Counted = d.bool(), d.bool()
	r.ChildParts = int8(d.int())
	r.File = int32(d.int())
	r.Line = d.int()
}

// A batch of pool rows is its row count, then each row's fields in
// declaration order, numbers as zig-zag varints except where a row's
// number is nearly its predecessor's: Begin and Time follow the previous
// row's, End and FreeTime their row's Begin and Time, Addr is unsigned.
// The two flags share a byte.
func encodePoolRows(b []byte, rows []model.PoolRow) []byte {
	b = binary.AppendUvarint(b, uint64(len(rows)))
	var begin, time int64
	for i := range rows {
		r := &rows[i]
		b = appendStr(b, r.Kernel)
		b = appendStr(b, r.Node)
		b = binary.AppendVarint(b, r.Stream)
		b = appendStr(b, r.Address)
		b = binary.AppendVarint(b, r.Size)
		b = binary.AppendVarint(b, r.RealSize)
		b = binary.AppendVarint(b, r.Begin-begin)
		b = binary.AppendVarint(b, r.End-r.Begin)
		b = binary.AppendVarint(b, r.Cached)
		b = binary.AppendVarint(b, r.Theory)
		var flags byte
		if r.KernelFree {
			flags |= 1
		}
		if r.PoolFree {
			flags |= 2
		}
		b = append(b, flags)
		b = binary.AppendVarint(b, r.Time-time)
		b = binary.AppendVarint(b, r.FreeTime-r.Time)
		b = binary.AppendVarint(b, r.Line)
		b = binary.AppendUvarint(b, r.Addr)
		begin, time = r.Begin, r.Time
	}
	return b
}

// decodePoolRows appends the rows of batch b to rows.
func decodePoolRows(b []byte, rows []model.PoolRow) ([]model.PoolRow, error) {
	d := &decoder{b: b, text: string(b)}
	n := d.uint()
	if n > uint64(len(b)) { // a row takes a byte at least
		return rows, errCorrupt
	}
	rows = slices.Grow(rows, int(n))
	var begin, time int64
	for range n {
		var r model.PoolRow
		r.Kernel, r.Node = d.str(), d.str()
		r.Stream = d.int()
		r.Address = d.str()
		r.Size, r.RealSize = d.int(), d.int()
		r.Begin = begin + d.int()
		r.End = r.Begin + d.int()
		r.Cached, r.Theory = d.int(), d.int()
		if d.p < len(d.b) {
			flags := d.b[d.p]
			d.p++
			r.KernelFree, r.PoolFree = flags&1 != 0, flags&2 != 0
		} else {
			d.err = errCorrupt
		}
		r.Time = time + d.int()
		r.FreeTime = r.Time + d.int()
		r.Line = d.int()
		r.Addr = d.uint()
		begin, time = r.Begin, r.Time
		rows = append(rows, r)
	}
	if d.err == nil && d.p != len(d.b) {
		d.err = errCorrupt
	}
	return rows, d.err
}
