// Package analyze computes what the logs mean: the figures of each graph
// (docs/figures.md#figures), reuse conflicts, waste, peak breakdown, pool
// statistics and run diffs. It reads and annotates the model; it does no I/O.
package analyze

import (
	"fmt"
	"math"
	"strconv"

	"imas/core/diag"
	"imas/core/model"
)

// Round2 rounds a percentage to two decimals.
func Round2(x float64) float64 { return math.Round(x*100) / 100 }

// Figures fills g.Figures from its rows, atomic pieces and GE's own summary,
// and returns diagnostics for figures GE logged differently. siblings are
// the graph's other memory types (zero-copy blocks of every memory type are
// laid out in the HBM area, so HBM's zero_copy counts them all).
func Figures(g *model.Graph, siblings ...*model.Graph) []model.Diagnostic {
	peak, _ := PeakStep(g.Rows)
	return figures(g, peak, siblings)
}

// figures is Figures given the graph's peak of reusable bytes (PeakStep),
// which the other analyses need too (it is a sort of every row).
func figures(g *model.Graph, peakReusable int64, siblings []*model.Graph) []model.Diagnostic {
	f := &g.Figures
	*f = model.Figures{}
	streams := map[int64]struct{}{}
	prev := int64(0) // the stream last added: rows of one stream come in runs
	for i := range g.Rows {
		r := &g.Rows[i]
		if !r.Counted {
			continue
		}
		a := model.Align512(r.RealSize)
		f.Tensors++
		f.Total += r.RealSize
		f.GETotal += a
		if r.Reuse == 0 {
			f.NoReuse += a
		} else if r.Stream != prev || len(streams) == 0 {
			streams[r.Stream] = struct{}{}
			prev = r.Stream
		}
	}
	f.Streams = int64(len(streams))
	for _, p := range g.AtomicPieces {
		f.Atomic += model.Align512(p.RealSize)
	}
	f.TheoryMin = peakReusable + f.NoReuse + f.Atomic
	f.Continuous = blockSum(g.Rows, func(r *model.Row) bool { return r.Continuous != 0 })
	// zero_copy is an HBM figure: GE's AssignZeroCopyMemory lays graph
	// input/output blocks out at the end of the HBM area, and GE prints 0
	// (or repeats the HBM value on its failure path) for other types.
	var zc int64
	if g.MemType == 2 {
		zc = blockSum(g.Rows, func(r *model.Row) bool { return r.ZeroCopy != 0 })
		for _, s := range siblings {
			zc += blockSum(s.Rows, func(r *model.Row) bool { return r.ZeroCopy != 0 })
		}
		f.ZeroCopy = zc
		if v, ok := loggedZeroCopy(g.Logged); ok {
			f.ZeroCopy = v
		}
	}
	if v, ok := loggedInt(g.Logged, "memory_size"); ok {
		f.MemorySize = v
	} else {
		for i := range g.Rows {
			if end := g.Rows[i].Offset + g.Rows[i].Size; end > f.MemorySize {
				f.MemorySize = end
			}
		}
	}
	f.AfterReuse = f.MemorySize
	if v, ok := g.Logged.Get("topo"); ok {
		f.Topo = v
	}
	var diags []model.Diagnostic
	if len(g.Rows) == 0 && g.HasSummary {
		// Only GE's summary line is there (run log without debug log): take
		// its figures rather than report zeros.
		if v, ok := loggedInt(g.Logged, "theory_min"); ok {
			f.TheoryMin = v
		}
		if v, ok := loggedInt(g.Logged, "ge_total"); ok {
			f.GETotal, f.Total = v, v
		}
		if v, ok := loggedInt(g.Logged, "no_reuse"); ok {
			f.NoReuse = v
		}
		if v, ok := loggedInt(g.Logged, "streams"); ok {
			f.Streams = v
		}
		diags = append(diags, model.Diagnostic{Path: g.SummaryPath, Line: g.SummaryLine, Reason: diag.SummaryOnly,
			Detail: fmt.Sprintf("graph %s memtype %d: no [IMAS]Set rows; figures are GE's own AfterAssignMemory values", g.Graph, g.MemType)})
	} else {
		check := func(key string, computed int64) {
			if v, ok := loggedInt(g.Logged, key); ok && v != computed {
				diags = append(diags, model.Diagnostic{Path: g.SummaryPath, Line: g.SummaryLine, Reason: diag.LoggedMismatch,
					Detail: fmt.Sprintf("graph %s (pid %s) memtype %d: %s computed %d, GE logged %d", g.Graph, g.PID, g.MemType, key, computed, v)})
			}
		}
		check("theory_min", f.TheoryMin)
		check("ge_total", f.GETotal)
		check("no_reuse", f.NoReuse)
		check("streams", f.Streams)
		if _, ok := g.Logged.Get("zero_copy"); ok && g.MemType == 2 {
			check("zero_copy", zc)
		}
	}
	if f.Total > 0 {
		f.ReuseRate = Round2(math.Max(0, float64(f.Total-f.AfterReuse)/float64(f.Total)*100))
	}
	if f.AfterReuse > 0 {
		f.ReachTheoryRate = Round2(math.Min(100, float64(f.TheoryMin)/float64(f.AfterReuse)*100))
	}
	return diags
}

// loggedZeroCopy is GE's zero-copy size for a graph: the summary's
// zero_copy, else BuildModelDef's zero_copy_mem_size, else the offset
// after AssignZeroCopyMemory minus the one before it (docs/runtime.md).
func loggedZeroCopy(l model.Logged) (int64, bool) {
	if v, ok := loggedInt(l, "zero_copy"); ok {
		return v, true
	}
	if v, ok := loggedInt(l, model.LoggedZeroCopyBuild); ok {
		return v, true
	}
	in, ok1 := loggedInt(l, model.LoggedZeroCopyInclude)
	ex, ok2 := loggedInt(l, model.LoggedZeroCopyExclude)
	if ok1 && ok2 && in >= ex {
		return in - ex, true
	}
	return 0, false
}

func loggedInt(l model.Logged, key string) (int64, bool) {
	v, ok := l.Get(key)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// blockSum adds the size of distinct blocks (offset, size) whose rows match.
func blockSum(rows []model.Row, match func(*model.Row) bool) int64 {
	type blk struct{ off, size int64 }
	seen := map[blk]struct{}{}
	var sum int64
	for i := range rows {
		r := &rows[i]
		if !match(r) {
			continue
		}
		k := blk{r.Offset, r.Size}
		if _, ok := seen[k]; ok {
			continue
		}
		seen[k] = struct{}{}
		sum += r.Size
	}
	return sum
}

// MaxFinite is the largest finite lifetime (begin or end) of counted rows.
func MaxFinite(rows []model.Row) int64 {
	var mx int64
	for i := range rows {
		r := &rows[i]
		if !r.Counted {
			continue
		}
		if !model.IsInfinite(r.LifeBegin) && r.LifeBegin > mx {
			mx = r.LifeBegin
		}
		if !model.IsInfinite(r.LifeEnd) && r.LifeEnd > mx {
			mx = r.LifeEnd
		}
	}
	return mx
}

// Interval returns the inclusive live interval of a row, with infinite ends
// clipped to maxFinite.
func Interval(r *model.Row, maxFinite int64) (begin, end int64) {
	begin, end = r.LifeBegin, r.LifeEnd
	if model.IsInfinite(end) {
		end = maxFinite
	}
	if end < begin {
		end = begin
	}
	return
}

// PeakStep returns the peak live reusable bytes (over time, the sum of
// model.Align512(realsize) of the live counted tensors with reuse flag 1:
// the first term of theory_min) and the first step at which it is reached.
func PeakStep(rows []model.Row) (peak, step int64) {
	sc := getScratch(len(rows))
	defer putScratch(sc)
	mx := MaxFinite(rows)
	items := grow(sc.items, len(rows))[:0]
	for i := range rows {
		r := &rows[i]
		if r.Counted && r.Reuse != 0 {
			b, e := Interval(r, mx)
			items = append(items, liveItem{b, e, model.Align512(r.RealSize)})
		}
	}
	sc.items = items
	return sc.watermark(items)
}
