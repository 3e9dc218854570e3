package analyze

import "imas/core/model"

// Early runs a report's per-graph analyses as graphs are finished while
// the model is built: counted rows, figures and reuse conflicts of a
// compilation are computed as soon as nothing later can change them, so
// that memory holds the rows of the graphs still open rather than every
// row of the run. For "imas total" (model.Builder.OnFinished) the builder
// then keeps only what a summary prints of them (model.GraphDone), and
// SummaryAfter analyses the graphs still open and lists every graph's
// figure diagnostics in graph order, so the report is Summary's without
// the rows. For "imas report" (NewEarlyDetail, model.Builder.OnSpill) the
// analyses of All run too and the graphs stay in the report, their rows in
// a store; AllAfter skips them, so the report is All's.
type Early struct {
	// detail also runs the analyses All adds to the summary's (waste,
	// peak, live curve) and keeps each graph's figure diagnostics for
	// AllAfter.
	detail bool
	marker model.CountMarker
	// diags is written by Finish (on the builder's goroutine) and read by
	// AllAfter once the build is over.
	diags map[*model.Graph][]model.Diagnostic // detail only
}

// NewEarly returns an Early for a figures-only build.
func NewEarly() *Early { return &Early{} }

// NewEarlyDetail returns an Early whose Finish runs every per-graph
// analysis of All, so that AllAfter then gives All's report.
func NewEarlyDetail() *Early {
	return &Early{detail: true, diags: map[*model.Graph][]model.Diagnostic{}}
}

// Finish analyses the graphs of one compilation (one per memory type) and
// returns each one's figure diagnostics; the builder lets their rows go
// after.
func (e *Early) Finish(gs []*model.Graph) [][]model.Diagnostic {
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
	diags := make([][]model.Diagnostic, len(gs))
	for i, g := range gs {
		peaks[i].bytes, peaks[i].step = PeakStep(g.Rows)
		diags[i] = figures(g, peaks[i].bytes, siblings(g))
	}
	for i, g := range gs {
		analyzeGraph(g, e.detail, peaks[i].bytes, peaks[i].step, siblings)
	}
	if e.detail {
		for i, g := range gs {
			e.diags[g] = diags[i]
		}
	}
	return diags
}

// finished reports whether g was analysed by e (NewEarlyDetail), and its
// figure diagnostics.
func (e *Early) finished(g *model.Graph) ([]model.Diagnostic, bool) {
	if e == nil || e.diags == nil {
		return nil, false
	}
	d, ok := e.diags[g]
	return d, ok
}

// SummaryAfter is Summary for a report whose finished graphs Early
// analysed already (model.Report.WalkGraphs lists them as done).
func SummaryAfter(rep *model.Report) { run(rep, false, nil, true) }

// AllAfter is All for a report whose finished graphs e (NewEarlyDetail)
// analysed already; they stay in rep.Graphs, their rows in rep.Spilled.
func AllAfter(rep *model.Report, e *Early) { run(rep, true, e, false) }
