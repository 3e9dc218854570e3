package analyze

import (
	"math"
	"slices"

	"imas/core/model"
)

// Live computes g's live-bytes curve (model.LiveCurve): at each step where
// a counted tensor starts, or ends one step after its last, the sum of
// align512(realsize) of the counted tensors live, and of those with reuse
// flag 1. Lifetimes are Interval's, to the largest finite step. nil when
// the graph has no counted tensor.
func Live(g *model.Graph) *model.LiveCurve {
	sc := getScratch(len(g.Rows))
	defer putScratch(sc)
	return live(g, sc)
}

func live(g *model.Graph, sc *scratch) *model.LiveCurve {
	rows := g.Rows
	last := MaxFinite(rows)
	// Steps are topological ids, dense on a well-formed log: then the
	// changes are summed per step, without sorting (as watermark does).
	n, hi := 0, int64(0)
	dense := true
	for i := range rows {
		if r := &rows[i]; r.Counted {
			b, e := Interval(r, last)
			if b < 0 || e == math.MaxInt64 {
				dense = false
			}
			hi = max(hi, e+1)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if dense && hi <= 4*int64(n)+1024 {
		return liveDense(rows, last, hi, sc)
	}
	starts, ends := sc.liveStarts[:0], sc.liveEnds[:0]
	defer func() { sc.liveStarts, sc.liveEnds = starts[:0], ends[:0] }()
	for i := range rows {
		if r := &rows[i]; r.Counted {
			b, e := Interval(r, last)
			starts = append(starts, liveChange{b, int32(i)})
			ends = append(ends, liveChange{e + 1, int32(i)})
		}
	}
	byStep := func(a, b liveChange) int {
		switch {
		case a.step < b.step:
			return -1
		case a.step > b.step:
			return 1
		}
		return 0
	}
	slices.SortFunc(starts, byStep)
	slices.SortFunc(ends, byStep)
	// The steps are counted first, so that the curve takes exactly its
	// memory: report.json holds one per graph.
	n = 0
	walkChanges(starts, ends, func(int64, []liveChange, []liveChange) { n++ })
	buf := make([]int64, 3*n)
	c := &model.LiveCurve{Steps: buf[:0:n], Reusable: buf[n : n : 2*n], Counted: buf[2*n : 2*n : 3*n]}
	var reusable, counted int64
	walkChanges(starts, ends, func(step int64, started, ended []liveChange) {
		for _, x := range started {
			r := &rows[x.row]
			counted += model.Align512(r.RealSize)
			if r.Reuse != 0 {
				reusable += model.Align512(r.RealSize)
			}
		}
		for _, x := range ended {
			r := &rows[x.row]
			counted -= model.Align512(r.RealSize)
			if r.Reuse != 0 {
				reusable -= model.Align512(r.RealSize)
			}
		}
		c.Steps = append(c.Steps, step)
		c.Reusable = append(c.Reusable, reusable)
		c.Counted = append(c.Counted, counted)
	})
	return c
}

// liveChange is a step at which a row starts or stops being live.
type liveChange struct {
	step int64
	row  int32
}

// walkChanges calls f at each step of starts or ends (both sorted by
// step), in order, with the changes at that step; the values after them
// hold until the next step.
func walkChanges(starts, ends []liveChange, f func(step int64, started, ended []liveChange)) {
	for s, e := 0, 0; s < len(starts) || e < len(ends); {
		now := int64(math.MaxInt64)
		if e < len(ends) {
			now = ends[e].step
		}
		if s < len(starts) && starts[s].step < now {
			now = starts[s].step
		}
		s0, e0 := s, e
		for s < len(starts) && starts[s].step == now {
			s++
		}
		for e < len(ends) && ends[e].step == now {
			e++
		}
		f(now, starts[s0:s], ends[e0:e])
	}
}

// liveDense is Live for steps in [0, hi]: per step, the change of each sum
// and whether any tensor starts or ends there.
func liveDense(rows []model.Row, last, hi int64, sc *scratch) *model.LiveCurve {
	counted := grow(sc.liveCounted, int(hi+1))
	reusable := grow(sc.liveReusable, int(hi+1))
	touched := grow(sc.liveTouched, int(hi+1))
	sc.liveCounted, sc.liveReusable, sc.liveTouched = counted, reusable, touched
	clear(counted)
	clear(reusable)
	clear(touched)
	for i := range rows {
		r := &rows[i]
		if !r.Counted {
			continue
		}
		b, e := Interval(r, last)
		a := model.Align512(r.RealSize)
		counted[b] += a
		counted[e+1] -= a
		if r.Reuse != 0 {
			reusable[b] += a
			reusable[e+1] -= a
		}
		touched[b], touched[e+1] = true, true
	}
	n := 0
	for _, t := range touched {
		if t {
			n++
		}
	}
	buf := make([]int64, 3*n)
	c := &model.LiveCurve{Steps: buf[:0:n], Reusable: buf[n : n : 2*n], Counted: buf[2*n : 2*n : 3*n]}
	var liveCounted, liveReusable int64
	for t, changed := range touched {
		if !changed {
			continue
		}
		liveCounted += counted[t]
		liveReusable += reusable[t]
		c.Steps = append(c.Steps, int64(t))
		c.Reusable = append(c.Reusable, liveReusable)
		c.Counted = append(c.Counted, liveCounted)
	}
	return c
}
