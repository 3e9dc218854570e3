package analyze

import "sync"

// scratch holds the buffers of one graph's analyses, reused from graph to
// graph: a big input has hundreds of graphs, and most buffers are as long
// as the graph's rows. Allocating them anew took a fifth of the conflict
// check's time natively, and more in WebAssembly, whose collector then
// scans the whole model. Each analysis of a graph takes one (graphs are
// analysed in parallel) and gives it back.
type scratch struct {
	// conflicts
	spans, tmp, mixed      []span
	order, live            []int32
	roots, last            []int32
	offs                   []int64
	los, begins, ends      []int64
	runEnd, byBegin, byEnd []int32
	keys                   []uint64
	count, found           []int32
	tree                   pst
	// theory_min, waste and peak
	items, items2 []liveItem
	steps         []int64
	segOf         []int32
	held          []bool
	used          []addrRange
	rows          []int32
	shownOffs     []int64
	// the live curve
	liveStarts, liveEnds      []liveChange
	liveCounted, liveReusable []int64
	liveTouched               []bool

	pooled bool
}

var scratchPool = sync.Pool{New: func() any { return &scratch{pooled: true} }}

// keepRows is the largest graph whose buffers are kept for the next one: a
// huge graph's would hold hundreds of megabytes until the next collections,
// and its own allocations are small beside its work.
const keepRows = 1 << 16

// getScratch returns buffers for a graph of n rows; give them back with
// putScratch.
func getScratch(n int) *scratch {
	if n > keepRows {
		return &scratch{}
	}
	return scratchPool.Get().(*scratch)
}

func putScratch(sc *scratch) {
	if sc.pooled {
		scratchPool.Put(sc)
	}
}

// grow returns s resliced to n elements, reallocated when too short; the
// elements are not cleared.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, max(n, 2*cap(s)))
	}
	return s[:n]
}
