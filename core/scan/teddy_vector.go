package scan

import "sync"

// Go has no vector instructions for WebAssembly, but the browser does: the
// page registers a WebAssembly SIMD kernel of the Teddy filter
// (internal/wasmsimd) through SetVectorFilter, and CandidateLines verifies
// its hits here, in Go, as the AVX2 scan does.

// A VectorHit is a position where the filter's lookups leave bucket bits.
type VectorHit struct {
	Pos     uint32 // offset in the data given to the filter
	Buckets uint32 // the bucket bits, in the low 8
}

// A VectorFilter runs the Teddy filter over data with the given tables. It
// writes to out, in increasing order, every position p in [0, stop) at
// which the AND over window bytes j of tables[j][data[p+j]&15] and
// tables[4+j][data[p+j]>>4] is non-zero, with that AND, and returns how
// many it wrote (at most len(out)) and stop, which is at most
// len(data)-3. Given at least VectorMinLen bytes and room for
// VectorMinHits hits, it must cover at least one position. CandidateLines
// calls it again from where it stopped, or from the end of a line it
// took, and scans the tail itself.
type VectorFilter func(data []byte, tables *VectorTables, out []VectorHit) (n, stop int)

const (
	// VectorMinLen is one 16-byte vector and the 3 bytes that complete
	// the windows of its last positions.
	VectorMinLen = 16 + teddyWindow - 1
	// VectorMinHits is one vector's worth of hits.
	VectorMinHits = 16
	// vectorOutLen is the hit buffer: big enough that a 4 MiB chunk of
	// the usual logs needs a few filter calls, not thousands.
	vectorOutLen = 16 << 10
)

// vectorFilter is the registered filter, nil when there is none.
var vectorFilter VectorFilter

// SetVectorFilter makes CandidateLines use f (nil: the portable passes
// again) where the build has no AVX2 scan. Call it before any scan starts.
func SetVectorFilter(f VectorFilter) { vectorFilter = f }

var vectorOut = sync.Pool{New: func() any { return new([vectorOutLen]VectorHit) }}

// scanVector appends the start of every line of data holding a marker,
// with f doing the filtering: every hit outside the lines already taken is
// verified against its buckets' markers.
func (p *teddyPlan) scanVector(f VectorFilter, data []byte, dst []int) []int {
	out := vectorOut.Get().(*[vectorOutLen]VectorHit)
	defer vectorOut.Put(out)
	pos, next := 0, 0 // the filter runs from pos; hits before next are in a taken line
	for len(data)-pos >= VectorMinLen {
		n, stop := f(data[pos:], &p.tables, out[:])
		if stop <= 0 || stop > len(data)-pos-(teddyWindow-1) {
			panic("scan: vector filter broke its contract")
		}
		for _, h := range out[:n] {
			at := pos + int(h.Pos)
			if at < next {
				continue
			}
			if s := p.verify(data, at, uint8(h.Buckets)); s >= 0 {
				if dst, next = take(data, s, dst); next < 0 {
					return dst
				}
			}
		}
		pos = max(pos+stop, next)
	}
	return p.tail(data, pos, dst)
}
