package model

import (
	"hash/maphash"
	"math/bits"
)

// tensorSet holds the rows that count their tensor, found by (node, kind,
// index), for markCounted. It is an open-addressing table of row numbers,
// not a map keyed by the tensor: a map of 10^6 string keys costs more
// than the rest of the build of such a graph (each key is 40 bytes, the
// map grows by rehashing), while a slot here is 8 bytes and a graph's
// table is sized once. A slot holds the row number plus one (0: empty)
// and 32 bits of the key's hash, so most probes that miss never read the
// row.
type tensorSet struct {
	seed  maphash.Seed
	slots []uint64
	used  bool
}

// reset empties the set for a graph of n rows.
func (s *tensorSet) reset(n int) {
	if s.slots == nil {
		s.seed = maphash.MakeSeed()
	}
	// At most half full; a table far larger than needed is dropped, as
	// clearing it would cost its size.
	want := 1 << max(bits.Len(uint(2*n)), 4)
	if len(s.slots) < want || len(s.slots) > 8*want {
		s.slots = make([]uint64, want)
	} else if s.used {
		clear(s.slots)
	}
	s.used = false
}

// firstOf adds rows[i]'s tensor and reports whether no row before it in the
// set had that tensor.
func (s *tensorSet) firstOf(rows []Row, i int) bool {
	r := &rows[i]
	h := maphash.String(s.seed, r.Node) ^ uint64(r.Index)*0x9e3779b97f4a7c15 ^ uint64(len(r.Kind))<<59
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	tag := h >> 32 << 32
	mask := uint64(len(s.slots) - 1)
	s.used = true
	for j := h & mask; ; j = (j + 1) & mask {
		v := s.slots[j]
		if v == 0 {
			s.slots[j] = tag | uint64(i+1)
			return true
		}
		if v&^0xffffffff != tag {
			continue
		}
		o := &rows[int(v&0xffffffff)-1]
		if o.Index == r.Index && o.Kind == r.Kind && o.Node == r.Node {
			return false
		}
	}
}
