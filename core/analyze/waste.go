package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"imas/core/model"
)

// Waste explains gap = after_reuse − theory_min of one graph. theory_min
// is a model of the memory: each counted tensor takes model.Align512(realsize)
// while live, never-reused tensors and atomic pieces take their size all
// the time. The parts move that model step by step towards GE's layout,
// each step giving one part:
//
//	alignment      tensors take their whole block (sized for the largest
//	               tenant, 512-aligned) or continuous slot: ≥ 0
//	continuous     a continuous segment is held from its first member's
//	               begin to its last member's end, as one piece: ≥ 0
//	zero_copy      the zero-copy area above the reuse region as laid out,
//	               minus this memory type's zero-copy tensors
//	atomic         the rest of the area above the reuse region (atomic
//	               pieces and gaps), minus the atomic figure
//	logical_base   host memory types start at a logical base (docs/log-formats.md#fields)
//	fragmentation  the remainder: reuse-region top − the model's peak, i.e.
//	               holes a best-fit placement leaves (Holes lists the
//	               largest at the peak step)
//
// The parts add up to gap exactly. fragmentation is ≥ 0 unless live blocks
// overlap (reuse conflicts) or rows lie outside the area. siblings are the
// graph's other memory types: GE lays out their zero-copy blocks in the HBM
// area, so only an HBM graph has a zero-copy area. Graphs without rows
// (only GE's summary) have no waste.
func Waste(g *model.Graph, siblings ...*model.Graph) *model.Waste {
	_, step := PeakStep(g.Rows)
	sc := getScratch(len(g.Rows))
	defer putScratch(sc)
	return waste(g, step, siblings, sc)
}

// waste is Waste with theory_min's peak step already known, with sc's
// buffers.
func waste(g *model.Graph, step int64, siblings []*model.Graph, sc *scratch) *model.Waste {
	if len(g.Rows) == 0 {
		return nil
	}
	mx := MaxFinite(g.Rows)
	cont := continuousInputs(g)
	segOf, segs := continuousSegments(g, cont, sc)

	// Model 1: whole blocks; model 2: a segment is one piece, as large as
	// its extent (less the slots of members counted as fixed) and live
	// over all its members. fixed and io hold memory all the time.
	var fixed, io, inflation int64
	items1 := grow(sc.items, len(g.Rows))[:0]
	items2 := grow(sc.items2, len(g.Rows))[:0]
	segLive := make([]liveItem, len(segs))
	segFixed := make([]int64, len(segs))
	for i := range g.Rows {
		r := &g.Rows[i]
		if !r.Counted {
			continue
		}
		inflation += r.Size - r.RealSize
		f := footprint(r, cont)
		s := int(segOf[i])
		inSeg := s >= 0
		if r.ZeroCopy != 0 || r.Reuse == 0 {
			if r.ZeroCopy != 0 {
				io += f
			} else {
				fixed += f
			}
			if inSeg {
				segFixed[s] += f
			}
			continue
		}
		b, e := Interval(r, mx)
		items1 = append(items1, liveItem{b, e, f})
		if !inSeg {
			items2 = append(items2, liveItem{b, e, f})
			continue
		}
		p := &segLive[s]
		if p.bytes == 0 {
			p.begin, p.end = b, e
		}
		p.begin, p.end, p.bytes = min(p.begin, b), max(p.end, e), p.bytes+f
	}
	sc.items = items1
	p1, _ := sc.watermark(items1)
	var longest *segment
	whole := 0
	for s := range segs {
		p := segLive[s]
		if p.bytes == 0 {
			continue // no reusable member
		}
		p.bytes = max(p.bytes, segs[s].hi-segs[s].lo-segFixed[s])
		items2 = append(items2, p)
		whole++
		segs[s].begin, segs[s].end = p.begin, p.end
		if longest == nil || p.end-p.begin > longest.end-longest.begin {
			longest = &segs[s]
		}
	}
	sc.items2 = items2
	p2, _ := sc.watermark(items2)

	// The layout: reuse region [base, top), then atomic and zero-copy.
	ar := g.AfterReuse
	base := logicalBase(g.MemType)
	if base > ar {
		base = 0
	}
	top := base
	for i := range g.Rows {
		if r := &g.Rows[i]; r.ZeroCopy == 0 {
			top = max(top, r.Offset+r.Size)
		}
	}
	top = min(top, max(ar, base))
	// GE lays every zero-copy block out at the end of the HBM area, those
	// of the graph's other memory types too (docs/figures.md#zero-copy).
	var zc int64
	if g.MemType == 2 {
		zc = zeroCopyAbove(top, ar, append([]*model.Graph{g}, siblings...))
	}

	m0 := g.TheoryMin
	m1 := p1 + fixed + io + g.Atomic
	m2 := p2 + fixed + io + g.Atomic
	w := &model.Waste{Gap: ar - m0, ReuseTop: top, Step: step}
	add := func(cause string, n int64, note string) {
		w.Parts = append(w.Parts, model.WastePart{Cause: cause, Bytes: n, Note: note})
	}
	add("alignment", m1-m0, fmt.Sprintf("tensors take their whole 512-aligned block, sized for its largest tenant (Σ size − Σ realsize over counted tensors: %d)", inflation))
	note := "no continuous segment is held longer than its members"
	if longest != nil {
		note = fmt.Sprintf("continuous segments held whole: %d; the longest at offset %d, %d bytes, lifetime %s", whole, longest.lo, longest.hi-longest.lo, model.FormatLife(longest.begin, longest.end))
	}
	add("continuous", m2-m1, note)
	note = fmt.Sprintf("zero-copy blocks above the reuse region: %d; theory_min counts %d for this memory type's zero-copy tensors", zc, io)
	if io > zc {
		note += " (the rest is laid out in another memory type's area, e.g. HBM)"
	}
	add("zero_copy", zc-io, note)
	add("atomic", ar-top-zc-g.Atomic, fmt.Sprintf("other memory above the reuse region (atomic pieces, appended workspace, gaps): %d; atomic figure %d", ar-top-zc, g.Atomic))
	if base > 0 {
		add("logical_base", base, "offsets of this memory type start at GE's logical base")
	}
	frag := w.Gap
	for _, p := range w.Parts {
		frag -= p.Bytes
	}
	note = fmt.Sprintf("reuse region ends at %d; the model above peaks at %d there", top, p2+fixed)
	if frag < 0 {
		note += "; negative: live blocks overlap (see conflicts) or rows lie outside the area"
	}
	add("fragmentation", frag, note)
	held := grow(sc.held, len(g.Rows)) // rows of segments held at the step
	sc.held = held
	for i, s := range segOf {
		held[i] = s >= 0 && segs[s].begin <= w.Step && w.Step <= segs[s].end
	}
	w.Holes = holesAt(g.Rows, held, w.Step, base, top, 5, sc)
	return w
}

// liveEvent is a change of live bytes at a time step.
type liveEvent struct {
	T     int64
	Delta int64
}

// liveItem is memory held over an inclusive time interval.
type liveItem struct{ begin, end, bytes int64 }

// watermark returns the peak of Σ bytes of live items and its first step.
func watermark(items []liveItem) (peak, step int64) { return new(scratch).watermark(items) }

// watermark is watermark with sc's buffers. Steps are topological ids,
// dense up to the largest, so a difference array (O(n + steps)) replaces
// sorting unless they are sparse.
func (sc *scratch) watermark(items []liveItem) (peak, step int64) {
	var hi int64
	for _, it := range items {
		// Only well-formed steps index the array; a hostile log can print
		// any int64 (end+1 would wrap at the largest).
		if it.begin < 0 || it.begin > it.end || it.end == math.MaxInt64 {
			hi = -1
			break
		}
		hi = max(hi, it.end+1)
	}
	if hi < 0 || hi > 4*int64(len(items))+1024 {
		return watermarkSorted(items)
	}
	d := grow(sc.steps, int(hi+1))
	sc.steps = d
	clear(d)
	for _, it := range items {
		d[it.begin] += it.bytes
		d[it.end+1] -= it.bytes
	}
	var live int64
	for t, v := range d {
		live += v
		if live > peak {
			peak, step = live, int64(t)
		}
	}
	return
}

func watermarkSorted(items []liveItem) (peak, step int64) {
	ev := make([]liveEvent, 0, 2*len(items))
	for _, it := range items {
		ev = append(ev, liveEvent{it.begin, it.bytes}, liveEvent{it.end + 1, -it.bytes})
	}
	// At one step removals come first, so the running sum peaks only
	// once the step's additions are all in.
	slices.SortFunc(ev, func(a, b liveEvent) int { return cmp.Or(cmp.Compare(a.T, b.T), cmp.Compare(a.Delta, b.Delta)) })
	var live int64
	for _, e := range ev {
		live += e.Delta
		if live > peak {
			peak, step = live, e.T
		}
	}
	return
}

// footprint is what a counted tensor takes in GE's layout: its whole
// block, or its slot in a continuous segment (never less than theory's
// model.Align512(realsize)).
func footprint(r *model.Row, cont contInputs) int64 {
	f := model.Align512(r.RealSize)
	if l := cont.line(r); l != nil {
		return max(f, contSlot(l, r))
	}
	return max(f, r.Size)
}

// segment is a continuous-input segment: the producer outputs GE placed
// side by side for one consumer, printed as a run of Continuous input lines
// each starting where the previous one ends.
type segment struct {
	lo, hi     int64
	begin, end int64 // lifetime of the whole, filled by Waste (end −1: none)
}

// continuousSegments chains the Continuous input lines into segments and
// maps each counted row placed by one (its first line) to its segment: the
// segment of row i, or -1, in a buffer of sc.
func continuousSegments(g *model.Graph, cont contInputs, sc *scratch) ([]int32, []segment) {
	segOf := grow(sc.segOf, len(g.Rows))
	sc.segOf = segOf
	for i := range segOf {
		segOf[i] = -1
	}
	if len(cont) == 0 {
		return segOf, nil
	}
	var segs []segment
	member := map[*model.Reassign]int{}
	var prev *model.Reassign
	for i := range g.Reassign {
		l := &g.Reassign[i]
		if !isContInput(l) {
			continue
		}
		end := l.Offset + model.Align512(l.RealSize)
		if prev != nil && (l.Offset == prev.Offset+prev.RealSize || l.Offset == prev.Offset+model.Align512(prev.RealSize)) {
			s := &segs[len(segs)-1]
			s.hi = max(s.hi, end)
		} else {
			segs = append(segs, segment{lo: l.Offset, hi: end, end: -1})
		}
		member[l] = len(segs) - 1
		prev = l
	}
	for i := range g.Rows {
		r := &g.Rows[i]
		if l := cont.line(r); l != nil && r.Counted {
			segOf[i] = int32(member[l])
		}
	}
	return segOf, segs
}

// zeroCopyAbove sums the distinct zero-copy blocks laid out in [top, ar).
func zeroCopyAbove(top, ar int64, graphs []*model.Graph) int64 {
	type blk struct{ off, size int64 }
	seen := map[blk]bool{}
	var sum int64
	for _, g := range graphs {
		for i := range g.Rows {
			r := &g.Rows[i]
			k := blk{r.Offset, r.Size}
			if r.ZeroCopy == 0 || r.Offset < top || r.Offset+r.Size > ar || seen[k] {
				continue
			}
			seen[k] = true
			sum += r.Size
		}
	}
	return sum
}

// logicalBase is where GE starts the offsets of host memory types.
func logicalBase(memtype int64) int64 {
	switch memtype {
	case 129: // RT_MEMORY_HOST
		return 68719476736
	case 144: // RT_MEMORY_HOST_SVM
		return 137438953472
	}
	return 0
}

// holesAt returns the n largest free ranges of [lo, hi) at step: memory
// not held by a row live there, a held continuous segment or a never-reused
// block.
func holesAt(rows []model.Row, held []bool, step, lo, hi int64, n int, sc *scratch) []model.Hole {
	used := grow(sc.used, len(rows)+1)[:0]
	for i := range rows {
		r := &rows[i]
		if r.Size <= 0 || r.ZeroCopy != 0 {
			continue
		}
		if r.Reuse == 0 || held[i] || (r.LifeBegin <= step && step <= max(r.LifeEnd, r.LifeBegin)) {
			used = append(used, addrRange{r.Offset, r.Offset + r.Size})
		}
	}
	sc.used = used
	slices.SortFunc(used, func(a, b addrRange) int { return cmp.Compare(a.lo, b.lo) })
	var holes []model.Hole
	at := lo
	for _, u := range append(used, addrRange{hi, hi}) {
		if u.lo > at && at < hi {
			holes = append(holes, model.Hole{Offset: at, Size: min(u.lo, hi) - at})
		}
		at = max(at, u.hi)
	}
	slices.SortStableFunc(holes, func(a, b model.Hole) int { return cmp.Compare(b.Size, a.Size) })
	if len(holes) > n {
		holes = holes[:n]
	}
	return holes
}

// addrRange is an address range [lo, hi).
type addrRange struct{ lo, hi int64 }
