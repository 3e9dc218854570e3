//go:build goexperiment.simd && amd64

package gelog

import (
	"bytes"
	"cmp"
	"math/bits"
	"simd/archsimd"
	"slices"
	"sync"
)

// With GOEXPERIMENT=simd on amd64 (AVX2), candidate lines are found in one
// pass instead of one IndexByte pass per rare byte: a "Teddy" filter (the
// multi-pattern prefilter of Hyperscan and Rust's aho-corasick). Each
// marker is represented by a window of four consecutive bytes, and the
// markers are spread over 8 buckets, one bit each. For every byte of the
// window, two 16-entry tables, indexed by the byte's low and high nibble,
// hold the buckets whose window has that nibble there; a VPSHUFB looks up
// 32 positions at once, and ANDing the six lookups leaves, per position,
// the buckets that may have a window starting there. Those few positions
// are then verified against the bucket's markers. The tables are built per
// buffer, with each marker's window placed where its byte pairs are
// rarest in a sample of that buffer.

const (
	teddyBuckets = 8
	teddyWindow  = 4
)

// teddyPlan is the filter for one buffer.
type teddyPlan struct {
	lo, hi  [teddyWindow][32]uint8 // per window byte: bucket bits by nibble, both 128-bit lanes
	buckets [teddyBuckets][]pinned
	all     []pinned // every marker, for the tail
}

func simdScan() bool { return archsimd.X86.AVX2() }

func candidateLinesSIMD(data []byte, dst []int) []int {
	return planTeddy(data).scan(data, dst)
}

// planTeddy places every marker's window on the offset whose two byte
// pairs are least frequent in a sample of data, and spreads the windows
// over the buckets: the most frequent windows get a bucket each, so that
// their many hits verify one marker; markers with the same window share.
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
	next := 0
	for _, w := range ws {
		win := string(w.marker[w.off : w.off+teddyWindow])
		b, ok := bucketOf[win]
		if !ok {
			b = next % teddyBuckets
			next++
			bucketOf[win] = b
		}
		p.buckets[b] = append(p.buckets[b], w.pinned)
		p.all = append(p.all, w.pinned)
		for j := 0; j < teddyWindow; j++ {
			c := w.marker[w.off+j]
			for lane := 0; lane < 32; lane += 16 {
				p.lo[j][lane+int(c&15)] |= 1 << b
				p.hi[j][lane+int(c>>4)] |= 1 << b
			}
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

// maxMarkerPairs bounds the distinct byte pairs of all Markers (slot 0
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

// scan appends the start of every line of data holding a marker.
func (p *teddyPlan) scan(data []byte, dst []int) []int {
	lo0, hi0 := archsimd.LoadUint8x32(&p.lo[0]), archsimd.LoadUint8x32(&p.hi[0])
	lo1, hi1 := archsimd.LoadUint8x32(&p.lo[1]), archsimd.LoadUint8x32(&p.hi[1])
	lo2, hi2 := archsimd.LoadUint8x32(&p.lo[2]), archsimd.LoadUint8x32(&p.hi[2])
	lo3, hi3 := archsimd.LoadUint8x32(&p.lo[3]), archsimd.LoadUint8x32(&p.hi[3])
	nib := archsimd.BroadcastUint8x32(15)
	zero := archsimd.BroadcastUint8x32(0)
	look := func(v, lo, hi archsimd.Uint8x32) archsimd.Uint8x32 {
		l := lo.PermuteOrZeroGrouped(v.And(nib).AsInt8x32())
		h := hi.PermuteOrZeroGrouped(v.AsUint16x16().ShiftAllRight(4).AsUint8x32().And(nib).AsInt8x32())
		return l.And(h)
	}
	var hit [32]uint8
	i := 0
	for i+32+teddyWindow-1 <= len(data) {
		r := look(archsimd.LoadUint8x32Slice(data[i:]), lo0, hi0).
			And(look(archsimd.LoadUint8x32Slice(data[i+1:]), lo1, hi1)).
			And(look(archsimd.LoadUint8x32Slice(data[i+2:]), lo2, hi2)).
			And(look(archsimd.LoadUint8x32Slice(data[i+3:]), lo3, hi3))
		m := r.NotEqual(zero).ToBits()
		if m == 0 {
			i += 32
			continue
		}
		r.Store(&hit)
		next := i + 32
		for m != 0 {
			k := bits.TrailingZeros32(m)
			m &= m - 1
			if s := verify(data, i+k, p.buckets, hit[k]); s >= 0 {
				dst = append(dst, bytes.LastIndexByte(data[:s], '\n')+1)
				le := bytes.IndexByte(data[s:], '\n')
				if le < 0 {
					return dst
				}
				next = s + le + 1 // the rest of the line needs no look
				break
			}
		}
		i = next
	}
	// The last bytes, where the shifted vectors no longer fit: every position,
	// every marker.
	for ; i < len(data); i++ {
		if s := verifyAll(data, i, p.all); s >= 0 {
			dst = append(dst, bytes.LastIndexByte(data[:s], '\n')+1)
			le := bytes.IndexByte(data[s:], '\n')
			if le < 0 {
				return dst
			}
			i = s + le
		}
	}
	return dst
}

// verify returns where a marker of the given buckets starts whose window
// is at data[at:], or -1.
func verify(data []byte, at int, buckets [teddyBuckets][]pinned, set uint8) int {
	for set != 0 {
		b := bits.TrailingZeros8(set)
		set &= set - 1
		if s := verifyAll(data, at, buckets[b]); s >= 0 {
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
