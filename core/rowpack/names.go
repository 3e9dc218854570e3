package rowpack

import (
	"hash/maphash"
	"unsafe"
)

// names is a store's string table: each distinct name (node, op type,
// tensor kind, stream and lifetime text, ...) is kept once and rows refer
// to it by number. Number 0 is "".
//
// A name costs its bytes, a reference (8 bytes) and, while graphs are put,
// a slot or two of the hash index (4 bytes each; Seal drops the index).
// The bytes are copied into chunks, not allocated one by one, so a
// decoded row's strings point into the chunks and cost nothing more.
type names struct {
	table
	slots []uint32 // open addressing, linear probing: a number, 0 for empty
	seed  maphash.Seed
	fill  int   // bytes used of the last chunk
	bytes int64 // chunk bytes
}

// table is what decoding reads: a snapshot of it stays valid while names
// are added, as refs and chunks are only appended to and a chunk's bytes
// are never written again once a name is in them.
type table struct {
	refs   []uint64 // by number: chunk index, offset in it and length (ref)
	chunks [][]byte // each at its full length
}

// A ref packs where a name's bytes are: refChunk bits of chunk index,
// refOffset of offset, refLen of length.
const (
	refLen    = 28
	refOffset = 16
	refChunk  = 64 - refLen - refOffset
	// maxChunk is the largest chunk names are packed into (offsets fit
	// refOffset bits); a longer name gets a chunk of its own.
	maxChunk = 1 << refOffset
	// maxName is the longest name kept; longer ones are cut (never met:
	// a name is part of one log line, cut far shorter).
	maxName = 1<<refLen - 1
)

func newNames() names {
	return names{table: table{refs: []uint64{0}}, seed: maphash.MakeSeed()}
}

func (t *table) str(id uint32) string {
	r := t.refs[id]
	n := int(r & maxName)
	if n == 0 {
		return ""
	}
	return unsafe.String(&t.chunks[r>>(refLen+refOffset)][r>>refLen&(maxChunk-1)], n)
}

// id returns the number of s, adding it when new.
func (n *names) id(s string) uint32 {
	if s == "" {
		return 0
	}
	if len(s) > maxName {
		s = s[:maxName]
	}
	if 4*len(n.refs) > 3*len(n.slots) {
		n.grow()
	}
	mask := uint64(len(n.slots) - 1)
	for i := maphash.String(n.seed, s) & mask; ; i = (i + 1) & mask {
		v := n.slots[i]
		if v == 0 {
			v = uint32(len(n.refs))
			n.refs = append(n.refs, n.keep(s))
			n.slots[i] = v
			return v
		}
		if n.str(v) == s {
			return v
		}
	}
}

// keep copies s into the chunks and returns its ref.
func (n *names) keep(s string) uint64 {
	last := len(n.chunks) - 1
	if last < 0 || n.fill+len(s) > len(n.chunks[last]) {
		// Chunks grow from 4 KiB, so that a store of a few names stays small.
		size := maxChunk
		if len(n.chunks) < 4 {
			size = 4 << 10 << len(n.chunks)
		}
		if len(s) > size/4 {
			size = len(s)
		}
		n.chunks = append(n.chunks, make([]byte, size))
		n.bytes += int64(size)
		n.fill, last = 0, last+1
		if last >= 1<<refChunk {
			panic("rowpack: name table full")
		}
	}
	off := n.fill
	n.fill += copy(n.chunks[last][off:], s)
	if len(s) > maxChunk {
		// A chunk of its own, at offset 0; the next name starts a new one.
		n.fill = len(n.chunks[last])
	}
	return uint64(last)<<(refLen+refOffset) | uint64(off)<<refLen | uint64(len(s))
}

func (n *names) grow() {
	slots := make([]uint32, max(1024, 2*len(n.slots)))
	n.index(slots)
}

// index numbers every name in slots.
func (n *names) index(slots []uint32) {
	mask := uint64(len(slots) - 1)
	for v := 1; v < len(n.refs); v++ {
		i := maphash.String(n.seed, n.str(uint32(v))) & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = uint32(v)
	}
	n.slots = slots
}

// seal drops the index; the next id rebuilds it.
func (n *names) seal() { n.slots = nil }

// size is the memory the table takes: chunks, references, index.
func (n *names) size() int64 {
	return n.bytes + int64(cap(n.refs))*8 + int64(cap(n.chunks))*int64(unsafe.Sizeof([]byte(nil))) + int64(len(n.slots))*4
}
