package analyze

import "imas/core/model"

// Early runs a summary's per-graph analyses as graphs are finished while
// the model is built (model.Builder.OnFinished): counted rows, figures and
// reuse conflicts of a compilation are computed as soon as nothing later
// can change them, and its rows are let go, so that memory holds the rows
// of the graphs still open rather than every row of the run. SummaryAfter
// then skips those graphs and adds their diagnostics in graph order, where
// Summary adds every graph's, so the report is Summary's without the rows.
type Early struct {
	// detail also runs the analyses All adds to the summary's (waste,
	// peak, live curve), for "imas report" (NewEarlyDetail).
	detail bool
	marker model.CountMarker
	// diags holds each finished graph's figure diagnostics (nil for none).
	diags map[*model.Graph][]model.Diagnostic
}

// NewEarly returns an Early with no graph finished.
func NewEarly() *Early { return &Early{diags: map[*model.Graph][]model.Diagnostic{}} }

// NewEarlyDetail returns an Early whose Finish runs every per-graph
// analysis of All, so that AllAfter then gives All's report.
func NewEarlyDetail() *Early {
	e := NewEarly()
	e.detail = true
	return e
}

// Finish analyses the graphs of one compilation (one per memory type);
// the builder lets their rows go after.
func (e *Early) Finish(gs []*model.Graph) {
	for _, g := range gs {
		e.marker.Mark(g)
	}
	siblings := func(g *model.Graph) []*model.Graph {
		var sib []*model.Graph
		for _, o := range gs {
			if o != g {
				sib = append(sib, o)
			}
		}
		return sib
	}
	type peak struct{ bytes, step int64 }
	peaks := make([]peak, len(gs))
	for i, g := range gs {
		peaks[i].bytes, peaks[i].step = PeakStep(g.Rows)
		e.diags[g] = figures(g, peaks[i].bytes, siblings(g))
	}
	for i, g := range gs {
		if !e.detail {
			g.Conflicts = Conflicts(g)
			continue
		}
		var sib []*model.Graph
		if g.MemType == 2 {
			sib = siblings(g) // as run: HBM's waste counts its siblings' zero-copy blocks
		}
		graphAnalyses(g, peaks[i].bytes, peaks[i].step, sib)
	}
}

// finished reports whether g was analysed by e, and its diagnostics.
func (e *Early) finished(g *model.Graph) ([]model.Diagnostic, bool) {
	if e == nil {
		return nil, false
	}
	d, ok := e.diags[g]
	return d, ok
}

// SummaryAfter is Summary for a report whose finished graphs e analysed
// already.
func SummaryAfter(rep *model.Report, e *Early) { run(rep, false, e) }

// AllAfter is All for a report whose finished graphs e (NewEarlyDetail)
// analysed already.
func AllAfter(rep *model.Report, e *Early) { run(rep, true, e) }
