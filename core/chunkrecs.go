package core

import (
	"unsafe"

	"imas/core/gelog"
	"imas/core/internal/prefault"
)

// chunkRecs keeps the records of a chunk that gelog.ParseScratch parsed
// into the worker's scratch (pool allocations, frees and blocks, operator
// addresses): copied into blocks that never move, their kernel and
// operator names into a byte arena, so that such a line costs no
// allocation of its own. The records stay where
// they are until the chunk is merged, and the names for as long as a
// record of the model points at them.
type chunkRecs struct {
	allocs slab[gelog.PoolAlloc]
	frees  slab[gelog.PoolFree]
	blocks slab[gelog.PoolBlock]
	addrs  slab[gelog.OpAddress]
	malls  slab[gelog.DeviceMalloc]
	vars   slab[gelog.VarAssign]
	devmms slab[gelog.DevmmStat]
	text   []byte
}

// keep returns a record of the chunk's own for rec when rec is one of
// sc's (it points into the line), and rec otherwise.
func (c *chunkRecs) keep(rec gelog.Record, sc *gelog.Scratch) gelog.Record {
	switch rec {
	case gelog.Record(&sc.Alloc):
		a := c.allocs.next()
		*a = sc.Alloc
		a.Kernel, a.KernelType, a.Node = c.kernel(a.Kernel, a.KernelType, a.Node)
		return a
	case gelog.Record(&sc.Free):
		f := c.frees.next()
		*f = sc.Free
		f.Kernel, f.KernelType, f.Node = c.kernel(f.Kernel, f.KernelType, f.Node)
		return f
	case gelog.Record(&sc.Block):
		b := c.blocks.next()
		*b = sc.Block // its strings are its own
		return b
	case gelog.Record(&sc.Malloc):
		d := c.malls.next()
		*d = sc.Malloc // its strings are interned
		return d
	case gelog.Record(&sc.Var):
		v := c.vars.next()
		*v = sc.Var
		v.Name = c.str(v.Name)
		return v
	case gelog.Record(&sc.Devmm):
		d := c.devmms.next()
		*d = sc.Devmm // its strings are interned
		return d
	case gelog.Record(&sc.Addr):
		a := c.addrs.next()
		*a = sc.Addr
		a.Name = c.str(a.Name)
		return a
	}
	return rec
}

// kernel copies a trace's kernel name into the arena, with its type and
// node: substrings of the name (gelog.KernelName), so the same substrings
// of the copy rather than a second split.
func (c *chunkRecs) kernel(name, typ, node string) (string, string, string) {
	kept := c.str(name)
	t, okT := rebase(typ, name, kept)
	n, okN := rebase(node, name, kept)
	if !okT || !okN {
		t, n = gelog.KernelName(kept)
	}
	return kept, t, n
}

// rebase returns the substring of kept at part's place in from, and false
// when part is not a substring of from.
func rebase(part, from, kept string) (string, bool) {
	if len(part) == 0 {
		return "", true
	}
	off := uintptr(unsafe.Pointer(unsafe.StringData(part))) - uintptr(unsafe.Pointer(unsafe.StringData(from)))
	if off > uintptr(len(from)) || uintptr(len(part)) > uintptr(len(from))-off {
		return "", false
	}
	return kept[off : off+uintptr(len(part))], true
}

// textBlock is the size of the blocks of kernel and operator names.
const textBlock = 16 << 10

// str copies s into the arena.
func (c *chunkRecs) str(s string) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > cap(c.text)-len(c.text) {
		c.text = make([]byte, 0, max(textBlock, len(s)))
		prefault.Slice(c.text)
	}
	n := len(c.text)
	c.text = append(c.text, s...)
	// The arena's bytes are never written again: the string may alias them.
	return unsafe.String(&c.text[n], len(s))
}

// slabBlock is how many records the largest block of a slab holds.
const slabBlock = 512

// slab hands out records that never move: blocks that are never grown, so
// a pointer to a record stays valid. Blocks double from 16 records to
// slabBlock: a chunk with a few such lines does not hold a large block
// for them.
type slab[T any] struct{ block []T }

func (s *slab[T]) next() *T {
	if len(s.block) == cap(s.block) {
		// Written in full: backed in one call (prefault), not a fault a page.
		s.block = make([]T, 0, min(max(2*cap(s.block), 16), slabBlock))
		prefault.Slice(s.block)
	}
	s.block = s.block[:len(s.block)+1]
	return &s.block[len(s.block)-1]
}
