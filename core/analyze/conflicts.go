package analyze

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"imas/core/model"
)

// Conflicts finds the reuse conflicts of one graph (docs/figures.md#conflicts):
// pairs of rows whose address ranges and lifetimes (inclusive) intersect.
//
// Which rows take part, and where they sit:
//   - zero-copy rows, empty rows (size 0) and rows without a lifetime
//     (buffer-pool rows print 0/0, pre-2020-06 rows print none) are left out:
//     nothing can be said about their time;
//   - a continuous row with a "Continuous input" line occupies
//     [line offset, + model.Align512(line realsize)), every other row
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
// both address and time, exempt pairs included): rows that share a block
// are swept in time order with the list of those live, the others by a
// sweep over time that keeps the live rows in a priority search tree keyed
// by address (sweepOverlaps).
func Conflicts(g *model.Graph) []model.Conflict {
	sc := getScratch(len(g.Rows))
	defer putScratch(sc)
	return conflicts(g, aliasRoots(g.Rows, sc), sc)
}

// conflicts is Conflicts given the rows' alias roots (aliasRoots), with
// sc's buffers.
func conflicts(g *model.Graph, roots []int32, sc *scratch) []model.Conflict {
	spans := conflictSpans(g, roots, sc)
	var found map[[2]string]model.Conflict
	sc.sweepOverlaps(spans, func(x, y *span) {
		a, b := &g.Rows[x.row], &g.Rows[y.row]
		if x.root == y.root || sameTensor(a, b) || (a.Batch != "" && b.Batch != "" && a.Batch != b.Batch) {
			return
		}
		c := conflictOf(x, y, a, b)
		k := [2]string{c.A, c.B}
		if found == nil {
			found = map[[2]string]model.Conflict{}
		}
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

// conflictSpans returns the rows that take part in the check, in sc.spans.
func conflictSpans(g *model.Graph, roots []int32, sc *scratch) []span {
	cont := continuousInputs(g)
	spans := grow(sc.spans, len(g.Rows))[:0]
	for i := range g.Rows {
		r := &g.Rows[i]
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
		spans = append(spans, span{row: int32(i), root: roots[i], lo: lo, hi: hi, begin: r.LifeBegin, end: end})
	}
	sc.spans = spans
	return spans
}

// aliasRoots returns, for each row, the row it aliases: an isref[1] row
// aliases the nearest previous isref[0] row printed at the same offset
// (docs/figures.md#conflicts); other rows, and aliases with no such row, are
// their own root. Only the offsets of isref[1] rows matter, and they are
// few: rows are looked up in their sorted list, not in a map of every
// offset (maps are slow in WebAssembly), after a bit test that most rows
// fail.
func aliasRoots(rows []model.Row, sc *scratch) []int32 {
	roots := grow(sc.roots, len(rows))
	sc.roots = roots
	offs := sc.offs[:0]
	for i := range rows {
		roots[i] = int32(i)
		if rows[i].IsRef != 0 {
			offs = append(offs, rows[i].Offset)
		}
	}
	sc.offs = offs
	if len(offs) == 0 {
		return roots
	}
	slices.Sort(offs)
	offs = slices.Compact(offs)
	var f offsetFilter
	for _, o := range offs {
		f.add(o)
	}
	last := grow(sc.last, len(offs)) // offset's latest isref[0] row so far
	sc.last = last
	for k := range last {
		last[k] = -1
	}
	// k, ok: the search for offset prev; rows of a block often come in a
	// run.
	k, ok, prev, searched := 0, false, int64(0), false
	for i := range rows {
		r := &rows[i]
		if !f.has(r.Offset) {
			continue
		}
		if !searched || r.Offset != prev {
			k, ok = slices.BinarySearch(offs, r.Offset)
			prev, searched = r.Offset, true
		}
		switch {
		case !ok:
		case r.IsRef == 0:
			last[k] = int32(i)
		case last[k] >= 0:
			roots[i] = last[k]
		}
	}
	return roots
}

// offsetFilter is a set of 1024 bits, offset/512 mod 1024, of a few
// offsets (blocks are 512-aligned): an offset whose bit is clear is none
// of them. It spares most rows a binary search among those offsets.
type offsetFilter [16]uint64

func (f *offsetFilter) add(off int64) {
	b := uint64(off>>9) & 1023
	f[b>>6] |= 1 << (b & 63)
}

func (f *offsetFilter) has(off int64) bool {
	b := uint64(off>>9) & 1023
	return f[b>>6]&(1<<(b&63)) != 0
}

// contKey names a producer output in a Continuous input line.
type contKey struct {
	node  string
	index int64
}

// contInputs maps producer outputs to their first Continuous input line.
type contInputs map[contKey]*model.Reassign

func continuousInputs(g *model.Graph) contInputs {
	if len(g.Reassign) == 0 {
		return nil // most graphs; a nil map reads as empty
	}
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

// place returns the address range row r occupies (docs/figures.md#conflicts).
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
	return model.Align512(n)
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
// in address and in time. spans come in row order (as conflictSpans makes
// them), with hi > lo and end ≥ begin; it reorders them.
//
// Spans sorted by address fall into clusters: runs in which each span
// starts below the end of one before it. Spans of different clusters never
// overlap in address. GE places tensors in blocks, and every tenant of a
// block prints the block's offset, so most clusters are a block: all their
// spans start at one address, hence every two overlap in address, and
// overlap in time is all that is left to check. A block is swept in begin
// order with the list of its tenants still live, in O(tenants + pairs);
// the spans of the other clusters (continuous slots, blocks cut in a
// broken layout) go through sweepTree together.
func (sc *scratch) sweepOverlaps(spans []span, found func(x, y *span)) {
	n := len(spans)
	if n < 2 {
		return
	}
	sc.sortByAddress(spans)
	mixed := sc.mixed[:0]
	for a := 0; a < n; {
		// The cluster [a, b).
		b, hi := a+1, spans[a].hi
		for ; b < n && spans[b].lo < hi; b++ {
			hi = max(hi, spans[b].hi)
		}
		switch {
		case b-a == 1:
		case spans[b-1].lo == spans[a].lo: // sorted by lo: one lo in all
			sc.sweepBlock(spans[a:b], found)
		default:
			mixed = append(mixed, spans[a:b]...)
		}
		a = b
	}
	sc.mixed = mixed
	if len(mixed) > 1 {
		sc.sweepTree(mixed, found) // in address order, as spans were
	}
}

// sweepBlock reports the pairs of a block's spans that overlap in time: in
// (begin, rank) order, x overlaps the earlier spans whose end is not
// before x.begin (inclusive lifetimes), as in sweepTree. A block's tenants
// are usually printed in time order already.
func (sc *scratch) sweepBlock(spans []span, found func(x, y *span)) {
	order := grow(sc.order, len(spans))
	sc.order = order
	sorted := true
	for i := range order {
		order[i] = int32(i)
		sorted = sorted && (i == 0 || spans[i-1].begin <= spans[i].begin)
	}
	if !sorted {
		slices.SortFunc(order, func(p, q int32) int {
			return cmp.Or(cmp.Compare(spans[p].begin, spans[q].begin), cmp.Compare(p, q))
		})
	}
	live := sc.live[:0]
	for _, r := range order {
		x := &spans[r]
		kept := live[:0]
		for _, y := range live {
			if spans[y].end >= x.begin {
				kept = append(kept, y)
			}
		}
		live = kept
		for _, y := range live {
			found(x, &spans[y])
		}
		live = append(live, r)
	}
	sc.live = live
}

// sweepTree calls found(x, y) once for every pair of spans that overlap in
// address and in time, given spans sorted by (lo, row). Time is swept in
// order; when x begins, the spans live at that moment are those whose end
// has not passed, and a priority search tree over them reports the ones
// with lo < x.hi and hi > x.lo in O(log n + reported).
func (sc *scratch) sweepTree(spans []span, found func(x, y *span)) {
	n := len(spans)
	// rank = position by address start: the tree's x coordinate.
	los := grow(sc.los, n)
	sc.los = los
	begins := grow(sc.begins, n)
	sc.begins = begins
	ends := grow(sc.ends, n)
	sc.ends = ends
	maxBegin := spans[0].begin
	for i := range spans {
		s := &spans[i]
		los[i] = s.lo
		begins[i] = s.begin
		maxBegin = max(maxBegin, s.begin)
	}
	// The sweep removes a span when a later one begins after its end, so
	// an end at or after the last begin is never reached: clipped to it,
	// the ends of infinite lifetimes (4294967294) do not spread the times
	// the sort below has to cover.
	for i := range spans {
		ends[i] = min(spans[i].end, maxBegin)
	}
	// runEnd[i] is the first rank whose lo is above rank i's: the search
	// for "lo < hi" starts there (hi > lo), and in a sound layout ends
	// there too, as the next block starts at or after this one's end.
	runEnd := grow(sc.runEnd, n)
	sc.runEnd = runEnd
	runEnd[n-1] = int32(n)
	for i := n - 2; i >= 0; i-- {
		runEnd[i] = runEnd[i+1]
		if los[i] != los[i+1] {
			runEnd[i] = int32(i + 1)
		}
	}
	byBegin := sc.byTime(begins, &sc.byBegin)
	byEnd := sc.byTime(ends, &sc.byEnd)
	t := sc.newPST(spans)
	e := 0
	for _, b := range byBegin {
		x := &spans[b]
		// Inclusive lifetimes: a span ending at x.begin is still live.
		for ; e < n && ends[byEnd[e]] < x.begin; e++ {
			t.remove(byEnd[e])
		}
		p := gallop(los, runEnd[b], x.hi) // ranks below p have lo < x.hi
		sc.found = t.report(p, x.lo, sc.found[:0])
		for _, y := range sc.found {
			found(x, &spans[y])
		}
		t.insert(b)
	}
}

// sortByAddress sorts spans by (lo, row). Spans come in row order, so when
// lo fits beside the span's index in a uint64 (lo ≥ 0 and below 2^(64 −
// index bits): 8 TiB for 10^6 rows) the key lo<<bits | index sorts as a
// plain integer, without a call per comparison; other offsets (a hostile
// log) take the general path.
func (sc *scratch) sortByAddress(spans []span) {
	n := len(spans)
	sorted := true // rows printed block by block, as GE does
	for i := 1; i < n && sorted; i++ {
		p, q := &spans[i-1], &spans[i]
		sorted = p.lo < q.lo || (p.lo == q.lo && p.row < q.row)
	}
	if sorted {
		return
	}
	b := uint(bits.Len(uint(n)))
	keys := grow(sc.keys, n)
	sc.keys = keys
	for i := range spans {
		lo := spans[i].lo
		if lo < 0 || uint64(lo) >= 1<<(64-b) {
			slices.SortFunc(spans, func(a, b span) int { return cmp.Or(cmp.Compare(a.lo, b.lo), cmp.Compare(a.row, b.row)) })
			return
		}
		keys[i] = uint64(lo)<<b | uint64(i)
	}
	slices.Sort(keys)
	tmp := grow(sc.tmp, n)
	sc.tmp = tmp
	copy(tmp, spans)
	for i, k := range keys {
		spans[i] = tmp[k&(1<<b-1)]
	}
}

// byTime returns the ranks 0..len(ts)-1 ordered by (ts[rank], rank), in
// *buf. Lifetimes are topological step numbers, dense up to about the
// number of rows, so a counting sort (O(n + steps)) usually does it; sparse
// times are packed with the rank into one uint64 that sorts as a plain
// integer (at most the 4294967295 GE prints for "to the end"), and others
// (a hostile log) take the general path.
func (sc *scratch) byTime(ts []int64, buf *[]int32) []int32 {
	n := len(ts)
	out := grow(*buf, n)
	*buf = out
	lo, hi := ts[0], ts[0]
	for _, t := range ts {
		lo, hi = min(lo, t), max(hi, t)
	}
	// The unsigned difference is exact even when hi − lo overflows int64.
	if span := uint64(hi) - uint64(lo); span <= 4*uint64(n)+1024 {
		count := grow(sc.count, int(span)+2)
		sc.count = count
		clear(count)
		for _, t := range ts {
			count[t-lo+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1] // count[t-lo]: first place of time t
		}
		for r, t := range ts {
			out[count[t-lo]] = int32(r)
			count[t-lo]++
		}
		return out
	}
	if lo >= 0 && hi <= math.MaxUint32 {
		keys := grow(sc.keys, n)
		sc.keys = keys
		for r, t := range ts {
			keys[r] = uint64(t)<<32 | uint64(r)
		}
		slices.Sort(keys)
		for i, k := range keys {
			out[i] = int32(uint32(k))
		}
		return out
	}
	for r := range out {
		out[r] = int32(r)
	}
	slices.SortFunc(out, func(a, b int32) int { return cmp.Or(cmp.Compare(ts[a], ts[b]), cmp.Compare(a, b)) })
	return out
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

// pst is a priority search tree on a fixed skeleton: a complete binary tree
// over ranks 0..n-1 in which every node holds at most one live rank of its
// range, with the largest hi of its subtree (a max-heap on hi). Insert and
// remove are O(log n); report(p, lo) lists every live rank < p with
// hi > lo in O(log n + reported), because a node whose hi is ≤ lo ends its
// subtree.
type pst struct {
	his   []int64 // hi by rank
	slot  []int32 // heap-ordered nodes, 1-based; -1 = empty
	hi    []int64 // hi of the rank in slot (kept beside it for locality)
	size  int32   // leaves (a power of two)
	stack []pstNode
}

// newPST returns an empty tree over spans, in sc's buffers.
func (sc *scratch) newPST(spans []span) *pst {
	size := int32(1)
	for size < int32(len(spans)) {
		size <<= 1
	}
	t := &sc.tree
	t.size = size
	t.his = grow(t.his, len(spans))
	t.slot = grow(t.slot, int(2*size))
	t.hi = grow(t.hi, int(2*size))
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

// report appends to out the live ranks < p whose hi is above lo, in
// depth-first order. The walk keeps its own stack rather than recursing
// through a closure; it never holds more than depth + 1 nodes.
func (t *pst) report(p int32, lo int64, out []int32) []int32 {
	stack := append(t.stack[:0], pstNode{1, 0, t.size})
	for len(stack) > 0 {
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r := t.slot[nd.v]
		if nd.from >= p || r < 0 || t.hi[nd.v] <= lo {
			continue
		}
		if r < p {
			out = append(out, r)
		}
		if nd.to-nd.from > 1 {
			mid := (nd.from + nd.to) / 2
			stack = append(stack, pstNode{2*nd.v + 1, mid, nd.to}, pstNode{2 * nd.v, nd.from, mid})
		}
	}
	t.stack = stack
	return out
}

// pstNode is node v of the tree, which covers ranks [from, to).
type pstNode struct{ v, from, to int32 }
