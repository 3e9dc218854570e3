package gen

import (
	"sort"
)

// figs are the figures (docs/figures.md#figures) of one set of
// [IMAS]Set rows of one (pid, graph, memtype).
type figs struct {
	total, geTotal, noReuse, atomic, theoryMin, zeroCopy, streams int64
	keys                                                          []string
	isref                                                         int64
}

// memRows returns the rows of memory type mem in print order; visible
// drops the rows a parser must reject (cut before isref[..]).
func (g *graph) memRows(mem int, visible bool) []*tensor {
	var rows []*tensor
	for _, t := range g.rows {
		if t.mem != mem {
			continue
		}
		if visible && t.cut == cutRejected {
			continue
		}
		rows = append(rows, t)
	}
	return rows
}

func (g *graph) atomicSum(mem int) int64 {
	if mem != memHBM {
		return 0
	}
	var s int64
	for _, a := range g.atomics {
		s += align512(a.real)
	}
	return s
}

// calcFigs applies the counting rules: a counted tensor is an isref[0] row
// with realsize > 0, each (node, kind, index) once.
func calcFigs(rows []*tensor, atomic int64) figs {
	var f figs
	f.atomic = atomic
	seen := map[string]bool{}
	var counted []*tensor
	for _, t := range rows {
		if t.isref == 1 {
			f.isref++
		}
		if t.isref != 0 || t.real <= 0 || seen[t.key()] {
			continue
		}
		seen[t.key()] = true
		counted = append(counted, t)
		f.keys = append(f.keys, t.key())
		a := align512(t.real)
		f.total += t.real
		f.geTotal += a
		if t.reuse == 0 {
			f.noReuse += a
		}
	}
	sort.Strings(f.keys)
	// theory_min: peak of live reusable tensors (inclusive lifetimes; an
	// end >= 4294967294 lives until the largest finite lifetime).
	var tmax int64 = -1
	streams := map[int]bool{}
	for _, t := range counted {
		if t.reuse != 1 {
			continue
		}
		streams[t.stream] = true
		if e := t.end(); e < lifeDefault {
			tmax = max(tmax, e)
		}
	}
	type ev struct{ at, d int64 }
	var evs []ev
	for _, t := range counted {
		if t.reuse != 1 {
			continue
		}
		b, e := t.begin(), t.end()
		if e >= lifeDefault {
			e = tmax
		}
		if b > e {
			continue
		}
		a := align512(t.real)
		evs = append(evs, ev{b, a}, ev{e + 1, -a})
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].at != evs[j].at {
			return evs[i].at < evs[j].at
		}
		return evs[i].d < evs[j].d
	})
	var cur, peak int64
	for _, e := range evs {
		cur += e.d
		peak = max(peak, cur)
	}
	f.theoryMin = peak + f.noReuse + f.atomic
	f.streams = int64(len(streams))
	// zero_copy: distinct zero-copy blocks.
	zb := map[*block]bool{}
	for _, t := range rows {
		if t.zc == 1 && t.blk != nil && !zb[t.blk] {
			zb[t.blk] = true
			f.zeroCopy += t.blk.size
		}
	}
	return f
}

// aliasTargets maps each isref[1] row to the nearest previous isref[0] row
// printed for the same offset (docs/figures.md#conflicts).
func aliasTargets(rows []*tensor) map[*tensor]*tensor {
	last := map[int64]*tensor{}
	m := map[*tensor]*tensor{}
	for _, t := range rows {
		if t.isref == 1 {
			m[t] = last[t.offset()]
			continue
		}
		last[t.offset()] = t
	}
	return m
}

// occupancy is the address range a row occupies for the conflict check.
func occupancy(t *tensor) (lo, hi int64) {
	if t.cont() == 1 && t.seg != nil {
		return t.contOff, t.contOff + align512(t.real)
	}
	return t.offset(), t.offset() + t.size()
}

// calcConflicts finds every pair of rows whose address ranges and
// (inclusive) lifetimes intersect, except alias pairs and zero-copy rows.
func calcConflicts(rows []*tensor) [][2]string {
	at := aliasTargets(rows)
	type span struct {
		t      *tensor
		lo, hi int64
	}
	var sp []span
	for _, t := range rows {
		if t.zc == 1 {
			continue
		}
		lo, hi := occupancy(t)
		if hi <= lo {
			continue
		}
		sp = append(sp, span{t, lo, hi})
	}
	// Sweep in lifetime order: a tensor is compared with the tensors
	// still alive when it begins (few), not with every earlier tenant of
	// its block (all of them, in a large graph).
	sort.SliceStable(sp, func(i, j int) bool { return sp[i].t.begin() < sp[j].t.begin() })
	seen := map[[2]string]bool{}
	var out [][2]string
	var alive []span
	for _, b := range sp {
		begin := b.t.begin()
		keep := alive[:0]
		for _, a := range alive {
			if a.t.end() >= begin {
				keep = append(keep, a)
			}
		}
		alive = keep
		for _, a := range alive {
			if a.lo >= b.hi || b.lo >= a.hi {
				continue
			}
			ta, tb := at[a.t], at[b.t]
			if (ta != nil && ta == b.t) || (tb != nil && tb == a.t) || (ta != nil && ta == tb) {
				continue
			}
			ka, kb := a.t.key(), b.t.key()
			if kb < ka {
				ka, kb = kb, ka
			}
			p := [2]string{ka, kb}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		alive = append(alive, b)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}

// loggedFigs is what GE itself prints in AfterAssignMemory (computed over
// every row it placed, visible to a parser or not).
func (g *graph) loggedFigs(mem int) figs {
	f := calcFigs(g.memRows(mem, false), g.atomicSum(mem))
	if mem != memHBM {
		f.zeroCopy = 0 // normal path: zero_copy is an HBM figure
	}
	return f
}

// truth computes the truth entry of one memory type of the graph.
func (g *graph) truth(pid int, mem int) GraphTruth {
	rows := g.memRows(mem, true)
	f := calcFigs(rows, g.atomicSum(mem))
	gt := GraphTruth{PID: pid, Graph: g.inst, MemType: mem, Total: f.total, GETotal: f.geTotal, NoReuse: f.noReuse,
		Atomic: f.atomic, TheoryMin: f.theoryMin, ZeroCopy: f.zeroCopy, Streams: f.streams, Tensors: int64(len(f.keys)),
		TensorKeys: f.keys, IsrefTensors: f.isref, Conflicts: calcConflicts(rows)}
	if mem != memHBM {
		gt.ZeroCopy = 0
	} else if g.gen == Gen2020 {
		gt.ZeroCopy = g.loggedFigs(mem).zeroCopy // BuildModelDef's zero_copy_mem_size_
	}
	for _, s := range g.segs {
		for _, m := range s.members {
			if m.mem == mem {
				gt.ContinuousMembers++
			}
		}
	}
	for _, t := range g.rows {
		if t.mem == mem && t.cut == cutRejected {
			gt.TruncatedRows++
		}
	}
	if g.summary {
		gt.MemorySize = g.memoffset[mem]
		gt.Logged = []string{"memory_size"}
		if g.gen == Gen2025 {
			gt.Logged = append(gt.Logged, "theory_min", "ge_total", "no_reuse", "zero_copy", "streams")
			gt.Topo = g.topo
			gt.ZeroCopy = g.loggedFigs(mem).zeroCopy
		}
	} else {
		for _, t := range rows {
			gt.MemorySize = max(gt.MemorySize, t.offset()+t.size())
		}
	}
	gt.AfterReuse = gt.MemorySize
	if gt.Total > 0 {
		gt.ReuseRate = Rate(round2(max(0, float64(gt.Total-gt.AfterReuse)/float64(gt.Total)) * 100))
	}
	if gt.AfterReuse > 0 {
		gt.ReachTheoryRate = Rate(round2(min(100, float64(gt.TheoryMin)/float64(gt.AfterReuse)*100)))
	}
	return gt
}
