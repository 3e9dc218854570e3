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
	rows := g.Rows
	last := MaxFinite(rows)
	type change struct {
		step int64
		row  int32
	}
	var starts, ends []change
	for i := range rows {
		if r := &rows[i]; r.Counted {
			b, e := Interval(r, last)
			starts = append(starts, change{b, int32(i)})
			ends = append(ends, change{e + 1, int32(i)})
		}
	}
	if len(starts) == 0 {
		return nil
	}
	byStep := func(a, b change) int {
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
	c := &model.LiveCurve{}
	var reusable, counted int64
	for s, e := 0, 0; s < len(starts) || e < len(ends); {
		// Apply every change at the next step; the values hold until the
		// step after.
		now := int64(math.MaxInt64)
		if e < len(ends) {
			now = ends[e].step
		}
		if s < len(starts) && starts[s].step < now {
			now = starts[s].step
		}
		for ; s < len(starts) && starts[s].step == now; s++ {
			r := &rows[starts[s].row]
			counted += model.Align512(r.RealSize)
			if r.Reuse != 0 {
				reusable += model.Align512(r.RealSize)
			}
		}
		for ; e < len(ends) && ends[e].step == now; e++ {
			r := &rows[ends[e].row]
			counted -= model.Align512(r.RealSize)
			if r.Reuse != 0 {
				reusable -= model.Align512(r.RealSize)
			}
		}
		c.Steps = append(c.Steps, now)
		c.Reusable = append(c.Reusable, reusable)
		c.Counted = append(c.Counted, counted)
	}
	return c
}
