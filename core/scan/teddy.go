package scan

import (
	"bytes"
	"cmp"
	"math/bits"
	"slices"
	"sync"
)

// The "Teddy" filter (the multi-pattern prefilter of Hyperscan and Rust's
// aho-corasick) finds candidate lines in one vector pass instead of one
// pass per rare byte. Each marker is represented by a window of four
// consecutive bytes, and the markers are spread over 8 buckets, one bit
// each. For every byte of the window, two 16-entry tables, indexed by the
// byte's low and high nibble, hold the buckets whose window has that nibble
// there; a byte shuffle looks up 16 or 32 positions at once, and ANDing the
// eight lookups leaves, per position, the buckets that may have a window
// starting there. Those few positions are then verified against the
// bucket's markers. The tables are built per buffer, with each marker's
// window placed where its byte pairs are rarest in a sample of that buffer.
//
// This file is the plan and the verification, shared by every build; the
// vector passes are the AVX2 one (teddy_simd.go) and a WebAssembly SIMD
// kernel the page registers (teddy_vector.go).

const (
	teddyBuckets = 8
	teddyWindow  = 4
)

// VectorTables are the filter's nibble tables: [j] for the low nibble of
// window byte j, [teddyWindow+j] for its high nibble; each entry holds the
// bits of the buckets that have that nibble there.
type VectorTables [2 * teddyWindow][16]uint8

// teddyPlan is the filter for one buffer.
type teddyPlan struct {
	tables  VectorTables
	buckets [teddyBuckets][]pinned
	all     []pinned // every marker, for the tail
}

// planTeddy places every marker's window on the offset whose two byte
// pairs are least frequent in a sample of data, and spreads the windows
// over the buckets: the most frequent windows get a bucket each, so that
// their many hits verify one marker; markers with the same window share;
// each further window joins the bucket whose false hits it raises least
// (a bucket accepts any mix of its windows' nibbles, so a careless mix
// accepts common text).
func planTeddy(data []byte) *teddyPlan {
	pairs := samplePairs(data)
	slot := pairSlots()
	type windowed struct {
		pinned
		cost float64
	}
	var ws []windowed
	for _, m := range markersAsBytes() {
		best, bestCost := 0, -1.0
		for o := 0; o+teddyWindow <= len(m); o++ {
			c := float64(pairs[slot[pairIndex(m[o], m[o+1])]]+1) * float64(pairs[slot[pairIndex(m[o+2], m[o+3])]]+1)
			if bestCost < 0 || c < bestCost {
				best, bestCost = o, c
			}
		}
		ws = append(ws, windowed{pinned{m, best}, bestCost})
	}
	slices.SortStableFunc(ws, func(a, b windowed) int { return cmp.Compare(b.cost, a.cost) })
	p := &teddyPlan{}
	bucketOf := map[string]int{}
	hits := newBucketEstimate(data)
	defer hits.release()
	for _, w := range ws {
		win := string(w.marker[w.off : w.off+teddyWindow])
		b, ok := bucketOf[win]
		if !ok {
			b = hits.cheapest(&p.tables, w.marker[w.off:w.off+teddyWindow])
			bucketOf[win] = b
		}
		p.buckets[b] = append(p.buckets[b], w.pinned)
		p.all = append(p.all, w.pinned)
		for j := 0; j < teddyWindow; j++ {
			c := w.marker[w.off+j]
			p.tables[j][c&15] |= 1 << b
			p.tables[teddyWindow+j][c>>4] |= 1 << b
		}
	}
	return p
}

// samplePairs counts, in sampleSpan bytes of data taken in sampleParts
// pieces spread over it, the byte pairs that occur in markers (indexed by
// pairSlot); other pairs do not matter for placing windows.
func samplePairs(data []byte) (counts [maxMarkerPairs]uint16) {
	slot := pairSlots()
	count := func(b []byte) {
		for i := 0; i+1 < len(b); i++ {
			if k := slot[pairIndex(b[i], b[i+1])]; k > 0 {
				counts[k]++
			}
		}
	}
	if len(data) <= sampleSpan {
		count(data)
		return
	}
	part := sampleSpan / sampleParts
	step := (len(data) - part) / (sampleParts - 1)
	for p := 0; p < sampleParts; p++ {
		count(data[p*step : p*step+part])
	}
	return
}

// maxMarkerPairs bounds the distinct byte pairs of all the markers (slot 0
// stands for every other pair).
const maxMarkerPairs = 1024

var (
	pairSlotsOnce sync.Once
	pairSlotTable *[1 << 16]uint16
)

// pairSlots maps each byte pair of the markers to its counter, others to 0.
func pairSlots() *[1 << 16]uint16 {
	pairSlotsOnce.Do(func() {
		t := new([1 << 16]uint16)
		n := uint16(1)
		for _, m := range markersAsBytes() {
			for i := 0; i+1 < len(m); i++ {
				if k := pairIndex(m[i], m[i+1]); t[k] == 0 && n < maxMarkerPairs {
					t[k] = n
					n++
				}
			}
		}
		pairSlotTable = t
	})
	return pairSlotTable
}

func pairIndex(a, b byte) int { return int(a)<<8 | int(b) }

// verify returns where a marker of the given buckets starts whose window
// is at data[at:], or -1.
func (p *teddyPlan) verify(data []byte, at int, set uint8) int {
	for set != 0 {
		b := bits.TrailingZeros8(set)
		set &= set - 1
		if s := verifyAll(data, at, p.buckets[b]); s >= 0 {
			return s
		}
	}
	return -1
}

func verifyAll(data []byte, at int, ms []pinned) int {
	for _, m := range ms {
		s := at - m.off
		if s >= 0 && s+len(m.marker) <= len(data) && bytes.Equal(data[s:s+len(m.marker)], m.marker) {
			return s
		}
	}
	return -1
}

// take appends the start of the line holding the marker at s and returns
// where the next line starts (the rest of this one needs no look), or -1
// when it is the last.
func take(data []byte, s int, dst []int) ([]int, int) {
	dst = append(dst, lineStart(data, s))
	le := bytes.IndexByte(data[s:], '\n')
	if le < 0 {
		return dst, -1
	}
	return dst, s + le + 1
}

// tail scans data[i:], the last bytes where the vectors no longer fit:
// every position, every marker.
func (p *teddyPlan) tail(data []byte, i int, dst []int) []int {
	for i < len(data) {
		s := verifyAll(data, i, p.all)
		if s < 0 {
			i++
			continue
		}
		if dst, i = take(data, s, dst); i < 0 {
			return dst
		}
	}
	return dst
}

// bucketEstimate estimates how often a bucket's nibble tables accept a
// position of the text, from the byte pairs of a sample of it: a window
// is two pairs (bytes 0-1 and 2-3), taken as independent of each other.
type bucketEstimate struct {
	pairs *[1 << 16]uint16 // count of each byte pair in the sample
	total float64
}

// pairTables keeps the 128 KiB pair tables of bucket estimates: every
// buffer is planned, and a new table each time is memory zeroed and
// backed for the first time.
var pairTables = sync.Pool{New: func() any { return new([1 << 16]uint16) }}

func newBucketEstimate(data []byte) *bucketEstimate {
	pairs := pairTables.Get().(*[1 << 16]uint16)
	clear(pairs[:])
	e := &bucketEstimate{pairs: pairs}
	count := func(b []byte) {
		for i := 0; i+1 < len(b); i++ {
			e.pairs[pairIndex(b[i], b[i+1])]++
			e.total++
		}
	}
	if len(data) <= sampleSpan {
		count(data)
	} else {
		part := sampleSpan / sampleParts
		step := (len(data) - part) / (sampleParts - 1)
		for p := 0; p < sampleParts; p++ {
			count(data[p*step : p*step+part])
		}
	}
	e.total++
	return e
}

// release returns e's table; e is not used after.
func (e *bucketEstimate) release() {
	pairTables.Put(e.pairs)
	e.pairs = nil
}

// accepted lists the bytes that window position j of bucket b accepts,
// with win's byte added when win is not nil.
func accepted(t *VectorTables, b, j int, win []byte, out []byte) []byte {
	var lo, hi uint16
	for n := 0; n < 16; n++ {
		if t[j][n]&(1<<b) != 0 {
			lo |= 1 << n
		}
		if t[teddyWindow+j][n]&(1<<b) != 0 {
			hi |= 1 << n
		}
	}
	if win != nil {
		lo |= 1 << (win[j] & 15)
		hi |= 1 << (win[j] >> 4)
	}
	out = out[:0]
	for h := hi; h != 0; h &= h - 1 {
		for l := lo; l != 0; l &= l - 1 {
			out = append(out, byte(bits.TrailingZeros16(h)<<4|bits.TrailingZeros16(l)))
		}
	}
	return out
}

// accept is the share of positions that bucket b of t accepts, win added.
func (e *bucketEstimate) accept(t *VectorTables, b int, win []byte) float64 {
	var s [teddyWindow][]byte
	var buf [teddyWindow][256]byte
	for j := range s {
		s[j] = accepted(t, b, j, win, buf[j][:0])
	}
	p := 1.0
	for j := 0; j < teddyWindow; j += 2 {
		n := 0.0
		for _, a := range s[j] {
			for _, c := range s[j+1] {
				n += float64(e.pairs[pairIndex(a, c)])
			}
		}
		p *= (n + 1) / e.total
	}
	return p
}

// cheapest returns the bucket where win adds the fewest accepted
// positions; an empty bucket adds only win's own.
func (e *bucketEstimate) cheapest(t *VectorTables, win []byte) int {
	best, bestCost := 0, -1.0
	for b := 0; b < teddyBuckets; b++ {
		c := e.accept(t, b, win)
		if !empty(t, b) {
			c -= e.accept(t, b, nil)
		}
		if bestCost < 0 || c < bestCost {
			best, bestCost = b, c
		}
	}
	return best
}

func empty(t *VectorTables, b int) bool {
	for n := 0; n < 16; n++ {
		if t[0][n]&(1<<b) != 0 {
			return false
		}
	}
	return true
}
