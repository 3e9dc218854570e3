package spill

import (
	"encoding/binary"
	"errors"
	"slices"

	"imas/core/model"
)

// A segment is a graph's Rows, Reassign, AtomicPieces, Live, Peak and
// Waste, each field of each element in declaration order: integers as
// zig-zag varints, strings as a length and their bytes, booleans as 0 or 1.
// A slice is its length + 1 (0 for nil, so that null and [] stay apart in
// report.json), then its elements; a pointer is 0 for nil, else 1 and the
// value. A Waste with Extra (only a report.json read back has any) is not
// moved (wasteKept). TestCodecRoundTrip fills every field of every type,
// so a field added to the model and not here fails it.

// The Waste marks of a segment: none, left in the graph, in the segment.
const (
	wasteNil byte = iota
	wasteKept
	wasteHere
)

// movesWaste reports whether the segment holds g's waste breakdown.
func movesWaste(g *model.Graph) bool { return g.Waste != nil && g.Waste.Extra == nil }

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
	b = appendPeak(b, g.Peak)
	return appendWaste(b, g)
}

func appendPeak(b []byte, p *model.Peak) []byte {
	b = appendBool(b, p != nil)
	if p == nil {
		return b
	}
	b = binary.AppendVarint(b, p.Step)
	b = binary.AppendVarint(b, p.Live)
	b = appendLen(b, p.Tensors == nil, len(p.Tensors))
	for i := range p.Tensors {
		t := &p.Tensors[i]
		b = appendStr(b, t.Key)
		b = appendStr(b, t.OpType)
		b = binary.AppendVarint(b, t.Offset)
		b = binary.AppendVarint(b, t.Size)
		b = appendStr(b, t.Life)
		b = appendStr(b, t.AliasOf)
		b = binary.AppendVarint(b, int64(t.Shared))
		b = appendStr(b, t.Flags)
	}
	b = binary.AppendVarint(b, p.Theory)
	return binary.AppendVarint(b, int64(p.Blocks))
}

func appendWaste(b []byte, g *model.Graph) []byte {
	switch {
	case g.Waste == nil:
		return append(b, wasteNil)
	case !movesWaste(g):
		return append(b, wasteKept)
	}
	w := g.Waste
	b = append(b, wasteHere)
	b = binary.AppendVarint(b, w.Gap)
	b = appendLen(b, w.Parts == nil, len(w.Parts))
	for i := range w.Parts {
		b = appendStr(b, w.Parts[i].Cause)
		b = binary.AppendVarint(b, w.Parts[i].Bytes)
		b = appendStr(b, w.Parts[i].Note)
	}
	b = appendLen(b, w.Holes == nil, len(w.Holes))
	for i := range w.Holes {
		b = binary.AppendVarint(b, w.Holes[i].Offset)
		b = binary.AppendVarint(b, w.Holes[i].Size)
	}
	b = binary.AppendVarint(b, w.Step)
	return binary.AppendVarint(b, w.ReuseTop)
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

// decodeGraph sets g's Rows, Reassign, AtomicPieces, Live, Peak and Waste
// from segment b (Waste only when the segment holds it).
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
	g.Peak = d.peak()
	d.waste(g)
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

func (d *decoder) peak() *model.Peak {
	if !d.bool() {
		return nil
	}
	p := &model.Peak{Step: d.int(), Live: d.int()}
	if n, isNil := d.len(); !isNil {
		p.Tensors = make([]model.PeakItem, n)
		for i := range p.Tensors {
			t := &p.Tensors[i]
			t.Key, t.OpType = d.str(), d.str()
			t.Offset, t.Size = d.int(), d.int()
			t.Life, t.AliasOf = d.str(), d.str()
			t.Shared = int(d.int())
			t.Flags = d.str()
		}
	}
	p.Theory, p.Blocks = d.int(), int(d.int())
	return p
}

func (d *decoder) waste(g *model.Graph) {
	if d.p >= len(d.b) {
		d.err = errCorrupt
		return
	}
	mark := d.b[d.p]
	d.p++
	switch mark {
	case wasteNil:
		g.Waste = nil
		return
	case wasteKept:
		return
	case wasteHere:
	default:
		d.err = errCorrupt
		return
	}
	w := &model.Waste{Gap: d.int()}
	if n, isNil := d.len(); !isNil {
		w.Parts = make([]model.WastePart, n)
		for i := range w.Parts {
			w.Parts[i] = model.WastePart{Cause: d.str(), Bytes: d.int(), Note: d.str()}
		}
	}
	if n, isNil := d.len(); !isNil {
		w.Holes = make([]model.Hole, n)
		for i := range w.Holes {
			w.Holes[i] = model.Hole{Offset: d.int(), Size: d.int()}
		}
	}
	w.Step, w.ReuseTop = d.int(), d.int()
	g.Waste = w
}

// An address-row segment (Store.PutAddrRows) is its row count, then each
// row's fields in declaration order, as a graph's rows are.

func encodeAddrRows(b []byte, rows []model.AddrRow) []byte {
	b = binary.AppendUvarint(b, uint64(len(rows)))
	for i := range rows {
		r := &rows[i]
		b = appendStr(b, r.Statement)
		b = appendStr(b, r.Type)
		b = appendStr(b, r.Name)
		b = appendStr(b, r.OpType)
		b = appendStr(b, r.Kind)
		b = appendStr(b, r.Variant)
		b = binary.AppendVarint(b, r.Index)
		b = binary.AppendVarint(b, r.Offset)
		b = binary.AppendVarint(b, r.Size)
		b = binary.AppendVarint(b, r.DataSize)
		b = appendStr(b, r.MemAddr)
		b = appendStr(b, r.Status)
		b = appendStr(b, r.Why)
		b = appendBool(b, r.OM2)
		b = binary.AppendVarint(b, r.Line)
		b = binary.AppendVarint(b, int64(r.File))
		b = appendStr(b, r.Path)
		b = binary.AppendUvarint(b, r.Addr)
		b = binary.AppendVarint(b, int64(r.Region))
	}
	return b
}

// decodeAddrRows appends the rows of segment b to into.
func decodeAddrRows(b []byte, into []model.AddrRow) ([]model.AddrRow, error) {
	d := &decoder{b: b, text: string(b)}
	n := d.uint()
	if n > uint64(len(b)) { // a row takes a byte at least
		return into, errCorrupt
	}
	for range n {
		if d.err != nil {
			break
		}
		into = append(into, model.AddrRow{})
		r := &into[len(into)-1]
		r.Statement, r.Type, r.Name, r.OpType, r.Kind, r.Variant = d.str(), d.str(), d.str(), d.str(), d.str(), d.str()
		r.Index, r.Offset, r.Size, r.DataSize = d.int(), d.int(), d.int(), d.int()
		r.MemAddr, r.Status, r.Why = d.str(), d.str(), d.str()
		r.OM2 = d.bool()
		r.Line = d.int()
		r.File = int32(d.int())
		r.Path = d.str()
		r.Addr = d.uint()
		r.Region = int(d.int())
	}
	if d.err == nil && d.p != len(d.b) {
		d.err = errCorrupt
	}
	return into, d.err
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
