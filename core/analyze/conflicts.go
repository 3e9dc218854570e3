package analyze

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"imas/core/model"
)

// Conflicts finds the reuse conflicts of one graph (report-contract §4):
// pairs of rows whose address ranges and lifetimes (inclusive) intersect.
//
// Which rows take part, and where they sit:
//   - zero-copy rows, empty rows (size 0) and rows without a lifetime
//     (buffer-pool rows print 0/0, pre-2020-06 rows print none) are left out:
//     nothing can be said about their time;
//   - a continuous row with a "Continuous input" line occupies
//     [line offset, + align512(line realsize)), every other row
//     [offset, offset+size);
//   - an infinite end (≥ 4294967294) means live to the end of the graph.
//     Kept as the raw number it is larger than every step, which is the
//     same as theory_min's "live until the largest finite lifetime".
//
// Pairs that are not conflicts: a row and its alias (isref[1] aliases the
// nearest previous isref[0] row printed at the same offset), two aliases of
// one row, two rows of the same tensor (printed twice), and rows of two
// different dynamic-batch branches (only one branch runs).
//
// The result has one entry per tensor pair, sorted by (A, B). It runs in
// O(n log n + k) for n rows and k candidate pairs (pairs that overlap in
// both address and time, exempt pairs included): a sweep over time keeps the
// live rows in a priority search tree keyed by address.
func Conflicts(g *model.Graph) []model.Conflict {
	spans := conflictSpans(g)
	found := map[[2]string]model.Conflict{}
	sweepOverlaps(spans, func(x, y *span) {
		a, b := &g.Rows[x.row], &g.Rows[y.row]
		if x.root == y.root || sameTensor(a, b) || (a.Batch != "" && b.Batch != "" && a.Batch != b.Batch) {
			return
		}
		c := conflictOf(x, y, a, b)
		k := [2]string{c.A, c.B}
		if old, ok := found[k]; !ok || conflictLess(&c, &old) {
			found[k] = c
		}
	})
	out := make([]model.Conflict, 0, len(found))
	for _, c := range found {
		out = append(out, c)
	}
	slices.SortFunc(out, func(c, d model.Conflict) int { return cmp.Or(cmp.Compare(c.A, d.A), cmp.Compare(c.B, d.B)) })
	return out
}

// span is one row as the conflict check sees it.
type span struct {
	row        int32 // index in g.Rows
	root       int32 // alias group: the row it aliases, or itself
	lo, hi     int64 // address range [lo, hi)
	begin, end int64 // lifetime, inclusive
}

// conflictSpans returns the rows that take part in the check.
func conflictSpans(g *model.Graph) []span {
	cont := continuousInputs(g)
	lastRef0 := map[int64]int32{} // offset → latest isref[0] row
	spans := make([]span, 0, len(g.Rows))
	for i := range g.Rows {
		r := &g.Rows[i]
		root := int32(i)
		if r.IsRef == 0 {
			lastRef0[r.Offset] = root
		} else if j, ok := lastRef0[r.Offset]; ok {
			root = j
		}
		if r.ZeroCopy != 0 || noLifetime(r) {
			continue
		}
		lo, hi := cont.place(r)
		if hi <= lo {
			continue
		}
		end := r.LifeEnd
		if end < r.LifeBegin {
			end = r.LifeBegin
		}
		spans = append(spans, span{row: int32(i), root: root, lo: lo, hi: hi, begin: r.LifeBegin, end: end})
	}
	return spans
}

// contKey names a producer output in a Continuous input line.
type contKey struct {
	node  string
	index int64
}

// contInputs maps producer outputs to their first Continuous input line.
type contInputs map[contKey]*model.Reassign

func continuousInputs(g *model.Graph) contInputs {
	cont := contInputs{}
	for i := range g.Reassign {
		r := &g.Reassign[i]
		k := contKey{r.Node, r.Index}
		if _, dup := cont[k]; isContInput(r) && !dup {
			cont[k] = r // the first printed wins
		}
	}
	return cont
}

func isContInput(r *model.Reassign) bool {
	return r.Dir == "input" && (r.Kind == "" || r.Kind == "output")
}

// line returns the Continuous input line that places row r, if any: only
// rows of continuous blocks are moved by one.
func (c contInputs) line(r *model.Row) *model.Reassign {
	if r.Continuous == 0 || r.Kind != "output" {
		return nil
	}
	return c[contKey{r.Node, r.Index}]
}

// place returns the address range row r occupies (report-contract §4).
func (c contInputs) place(r *model.Row) (lo, hi int64) {
	if l := c.line(r); l != nil {
		return l.Offset, l.Offset + contSlot(l, r)
	}
	return r.Offset, r.Offset + r.Size
}

// contSlot is the size of a member's slot in its continuous segment.
func contSlot(l *model.Reassign, r *model.Row) int64 {
	n := l.RealSize
	if n <= 0 {
		n = r.RealSize // the :1230 variant prints realsize[0]
	}
	return align512(n)
}

// noLifetime reports rows whose lifetime says nothing: buffer-pool rows
// (printed as 0/0) and rows of templates without lifetimes, which the
// builder stores as 0..LifeMax with no printed text.
func noLifetime(r *model.Row) bool {
	b, _ := r.LifeText()
	return r.Pool || (b == "" && r.LifeBegin == 0 && r.LifeEnd == model.LifeMax)
}

func sameTensor(a, b *model.Row) bool {
	return a.Node == b.Node && a.Kind == b.Kind && a.Index == b.Index
}

// conflictOf describes the intersection of two spans, keys sorted.
func conflictOf(x, y *span, a, b *model.Row) model.Conflict {
	if b.Key() < a.Key() {
		x, y, a, b = y, x, b, a
	}
	lo, hi := max(x.lo, y.lo), min(x.hi, y.hi)
	c := model.Conflict{
		A: a.Key(), B: b.Key(), Offset: lo, Size: hi - lo,
		Lifetime: [2]int64{max(x.begin, y.begin), min(x.end, y.end)},
		Stream:   strconv.FormatInt(a.Stream, 10), StreamA: a.Stream, StreamB: b.Stream,
	}
	if a.Stream != b.Stream {
		c.Stream += "/" + strconv.FormatInt(b.Stream, 10)
	}
	return c
}

// conflictLess orders two descriptions of one tensor pair (a tensor printed
// twice gives several), so the kept one does not depend on map order.
func conflictLess(c, d *model.Conflict) bool {
	if c.Offset != d.Offset {
		return c.Offset < d.Offset
	}
	if c.Lifetime != d.Lifetime {
		return c.Lifetime[0] < d.Lifetime[0] || (c.Lifetime[0] == d.Lifetime[0] && c.Lifetime[1] < d.Lifetime[1])
	}
	return c.Size > d.Size
}

// sweepOverlaps calls found(x, y) once for every pair of spans that overlap
// in address and in time. Time is swept in order; when x begins, the spans
// live at that moment are those whose end has not passed, and a priority
// search tree over them reports the ones with lo < x.hi and hi > x.lo in
// O(log n + reported).
func sweepOverlaps(spans []span, found func(x, y *span)) {
	n := len(spans)
	if n < 2 {
		return
	}
	// rank = position by address start: the tree's x coordinate.
	slices.SortFunc(spans, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.lo, b.lo), cmp.Compare(a.row, b.row))
	})
	los := make([]int64, n)
	begins := make([]event, n)
	ends := make([]event, n)
	for i := range spans {
		s := &spans[i]
		los[i] = s.lo
		begins[i] = event{s.begin, int32(i)}
		ends[i] = event{s.end, int32(i)}
	}
	// runEnd[i] is the first rank whose lo is above rank i's: the search
	// for "lo < hi" starts there (hi > lo), and in a sound layout ends
	// there too, as the next block starts at or after this one's end.
	runEnd := make([]int32, n)
	runEnd[n-1] = int32(n)
	for i := n - 2; i >= 0; i-- {
		runEnd[i] = runEnd[i+1]
		if los[i] != los[i+1] {
			runEnd[i] = int32(i + 1)
		}
	}
	sortEvents(begins)
	sortEvents(ends)
	t := newPST(spans)
	e := 0
	for _, b := range begins {
		x := &spans[b.rank]
		// Inclusive lifetimes: a span ending at x.begin is still live.
		for ; e < n && ends[e].t < x.begin; e++ {
			t.remove(ends[e].rank)
		}
		p := gallop(los, runEnd[b.rank], x.hi) // ranks below p have lo < x.hi
		t.report(p, x.lo, func(y int32) { found(x, &spans[y]) })
		t.insert(b.rank)
	}
}

// gallop returns the first index i ≥ from with los[i] ≥ hi, given that
// los is sorted and los[from-1] < hi: O(log d) for an answer d away.
func gallop(los []int64, from int32, hi int64) int32 {
	n := int32(len(los))
	step := int32(1)
	for from+step <= n && los[from+step-1] < hi {
		from += step
		step *= 2
	}
	// The answer is in [from, from+step-1], or n.
	end := min(from+step-1, n)
	i, _ := slices.BinarySearch(los[from:end], hi)
	return from + int32(i)
}

// event is a span's begin or end time.
type event struct {
	t    int64
	rank int32
}

func compareEvents(a, b event) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.rank, b.rank)) }

// sortEvents sorts events by (t, rank). Lifetimes are step numbers, at
// most the 4294967295 GE prints for "to the end", so (t, rank) usually
// packs into one uint64 that sorts as a plain integer, without a call per
// comparison (3x faster at 10^6 events). Other times take the general path.
func sortEvents(evs []event) {
	keys := make([]uint64, len(evs))
	for i, e := range evs {
		if e.t < 0 || e.t > math.MaxUint32 {
			slices.SortFunc(evs, compareEvents)
			return
		}
		keys[i] = uint64(e.t)<<32 | uint64(uint32(e.rank))
	}
	slices.Sort(keys)
	for i, k := range keys {
		evs[i] = event{t: int64(k >> 32), rank: int32(uint32(k))}
	}
}

// pst is a priority search tree on a fixed skeleton: a complete binary tree
// over ranks 0..n-1 in which every node holds at most one live rank of its
// range, with the largest hi of its subtree (a max-heap on hi). Insert and
// remove are O(log n); report(p, lo) lists every live rank < p with
// hi > lo in O(log n + reported), because a node whose hi is ≤ lo ends its
// subtree.
type pst struct {
	his  []int64 // hi by rank
	slot []int32 // heap-ordered nodes, 1-based; -1 = empty
	hi   []int64 // hi of the rank in slot (kept beside it for locality)
	size int32   // leaves (a power of two)
}

func newPST(spans []span) *pst {
	size := int32(1)
	for size < int32(len(spans)) {
		size <<= 1
	}
	t := &pst{his: make([]int64, len(spans)), slot: make([]int32, 2*size), hi: make([]int64, 2*size), size: size}
	for i := range spans {
		t.his[i] = spans[i].hi
	}
	for i := range t.slot {
		t.slot[i] = -1
	}
	return t
}

// above orders ranks by (hi, rank): a total order, so the heap is exact.
func (t *pst) above(a, b int32) bool {
	ha, hb := t.his[a], t.his[b]
	return ha > hb || (ha == hb && a > b)
}

func (t *pst) set(v, r int32) {
	t.slot[v] = r
	if r >= 0 {
		t.hi[v] = t.his[r]
	}
}

func (t *pst) insert(r int32) {
	v, lo, hi := int32(1), int32(0), t.size
	for {
		if t.slot[v] < 0 {
			t.set(v, r)
			return
		}
		if t.above(r, t.slot[v]) {
			old := t.slot[v]
			t.set(v, r)
			r = old
		}
		// r now goes down towards its own leaf, which is free: each rank
		// is stored once and only on the path to its leaf.
		mid := (lo + hi) / 2
		if r < mid {
			v, hi = 2*v, mid
		} else {
			v, lo = 2*v+1, mid
		}
	}
}

func (t *pst) remove(r int32) {
	v, lo, hi := int32(1), int32(0), t.size
	for t.slot[v] != r {
		mid := (lo + hi) / 2
		if r < mid {
			v, hi = 2*v, mid
		} else {
			v, lo = 2*v+1, mid
		}
	}
	// Pull the larger child up until the hole reaches an empty subtree.
	for {
		l, c := 2*v, int32(-1)
		if l < int32(len(t.slot)) {
			if t.slot[l] >= 0 {
				c = l
			}
			if b := t.slot[l+1]; b >= 0 && (c < 0 || t.above(b, t.slot[c])) {
				c = l + 1
			}
		}
		if c < 0 {
			t.slot[v] = -1
			return
		}
		t.set(v, t.slot[c])
		v = c
	}
}

func (t *pst) report(p int32, lo int64, f func(int32)) {
	var walk func(v, from, to int32)
	walk = func(v, from, to int32) {
		r := t.slot[v]
		if from >= p || r < 0 || t.hi[v] <= lo {
			return
		}
		if r < p {
			f(r)
		}
		if to-from > 1 {
			mid := (from + to) / 2
			walk(2*v, from, mid)
			walk(2*v+1, mid, to)
		}
	}
	walk(1, 0, t.size)
}
