package engine

import (
	"cmp"
	"slices"

	"imas/core/analyze"
	"imas/core/model"
)

// Live is a graph's live bytes over its steps, as the page's timeline
// draws them: from Steps[k] on (until Steps[k+1]) Counted bytes of counted
// tensors are live, Reusable of them reusable (aligned to 512 bytes, as
// theory_min counts them: max(Reusable) + no_reuse + atomic = theory_min).
// Long graphs are cut into at most LivePoints spans, each keeping the
// largest values in it, so that no peak is lost.
type Live struct {
	Steps    []int64 `json:"steps"`
	Counted  []int64 `json:"counted"`
	Reusable []int64 `json:"reusable,omitempty"` // none for a pool
	// Base is no_reuse + atomic: Reusable + Base reaches theory_min at
	// theory_min's peak step.
	Base int64 `json:"base"`
}

// LivePoints bounds the points of a Live curve.
const LivePoints = 2000

// LiveCurve is g's live-bytes curve as the timeline draws it: the report's
// (analyze.Live, report.json's "live"; computed here for a report saved
// without it), with no_reuse + atomic as its base, thinned to LivePoints.
// The Perfetto trace's "live" counters are the same curve. Nil when no
// tensor is counted (a graph of size-0 rows): there is no curve to draw.
func LiveCurve(g *model.Graph) *Live {
	c := g.Live
	if c == nil {
		c = analyze.Live(g)
	}
	if c == nil || len(c.Steps) == 0 {
		return nil
	}
	l := &Live{Base: g.NoReuse + g.Atomic}
	l.Steps, l.Counted, l.Reusable = c.Steps, c.Counted, c.Reusable
	return l.thin(LivePoints)
}

// thin cuts the curve into at most n spans of equal steps, each taking its
// first step and its largest values.
func (l *Live) thin(n int) *Live {
	if len(l.Steps) <= n {
		return l
	}
	first, end := l.Steps[0], l.Steps[len(l.Steps)-1]+1
	span := max(1, (end-first+int64(n)-1)/int64(n))
	out := &Live{Base: l.Base}
	for k := range l.Steps {
		s := first + (l.Steps[k]-first)/span*span
		if m := len(out.Steps); m > 0 && out.Steps[m-1] == s {
			out.Counted[m-1] = max(out.Counted[m-1], l.Counted[k])
			if l.Reusable != nil {
				out.Reusable[m-1] = max(out.Reusable[m-1], l.Reusable[k])
			}
			continue
		}
		out.Steps = append(out.Steps, s)
		out.Counted = append(out.Counted, l.Counted[k])
		if l.Reusable != nil {
			out.Reusable = append(out.Reusable, l.Reusable[k])
		}
	}
	return out
}

// At lists the tensors of graph i of slot live at step, largest first, as
// the peak list does (the report's PeakTop blocks).
func (s *Session) At(slot string, i int, step int64) (*model.Peak, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.rows(slot, i)
	if err != nil {
		return nil, err
	}
	p := analyze.PeakAt(g, step, analyze.PeakTop)
	if p == nil {
		p = &model.Peak{Step: step, Tensors: []model.PeakItem{}}
	}
	return p, nil
}

// poolLive is a pool's live block bytes on its allocation clock (the x of
// its map): Theory after each allocation, in Begin order; no reusable part.
func poolLive(rows []model.PoolRow) *Live {
	l := &Live{}
	for k := range rows {
		r := &rows[k]
		if m := len(l.Steps); m > 0 && l.Steps[m-1] == r.Begin {
			l.Counted[m-1] = r.Theory
			continue
		}
		l.Steps = append(l.Steps, r.Begin)
		l.Counted = append(l.Counted, r.Theory)
	}
	return l.thin(LivePoints)
}

// poolLiveTime is a pool's live block bytes over log time (µs after
// origin): the pool's events replayed in the order its figures count them
// (analyze.PoolFigures: allocations in Begin order, a free with End == t
// before allocation t), each placed at its own time. So the curve's top is
// the pool's peak_live even where two events share a microsecond or the
// times of interleaved threads are not in order. Where several events share
// a time the curve shows their largest level there and the level after
// them from the next µs on.
func poolLiveTime(rows []model.PoolRow, origin int64) *Live {
	type free struct{ at, time, size int64 }
	var frees []free
	for k := range rows {
		if r := &rows[k]; r.KernelFree {
			frees = append(frees, free{r.End, r.FreeTime - origin, r.Size})
		}
	}
	frees = stableSorted(frees, func(f *free) int64 { return f.at })
	type level struct{ time, live int64 }
	levels := make([]level, 0, len(rows)+len(frees))
	var live int64
	f := 0
	for k := range rows {
		r := &rows[k]
		for ; f < len(frees) && frees[f].at <= r.Begin; f++ {
			live -= frees[f].size
			levels = append(levels, level{frees[f].time, live})
		}
		live += r.Size
		levels = append(levels, level{r.Time - origin, live})
	}
	for ; f < len(frees); f++ {
		live -= frees[f].size
		levels = append(levels, level{frees[f].time, live})
	}
	levels = stableSorted(levels, func(l *level) int64 { return l.time })
	l := &Live{}
	for k := 0; k < len(levels); {
		t, top := levels[k].time, levels[k].live
		j := k
		for ; j < len(levels) && levels[j].time == t; j++ {
			top = max(top, levels[j].live)
		}
		l.Steps = append(l.Steps, t)
		l.Counted = append(l.Counted, top)
		if after := levels[j-1].live; after != top && (j == len(levels) || levels[j].time > t+1) {
			l.Steps = append(l.Steps, t+1)
			l.Counted = append(l.Counted, after)
		}
		k = j
	}
	return l.thin(LivePoints)
}

// stableSorted returns a copy of vs stably sorted by key. It sorts their
// indexes: one copy of the sort in the page's WebAssembly for every
// element type rather than one per type (some 7 KB each).
func stableSorted[T any](vs []T, key func(*T) int64) []T {
	idx := make([]int32, len(vs))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(key(&vs[a]), key(&vs[b])) })
	out := make([]T, len(vs))
	for j, i := range idx {
		out[j] = vs[i]
	}
	return out
}
