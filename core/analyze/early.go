package analyze

import "imas/core/model"

// Early runs a summary's per-graph analyses as graphs are finished while
// the model is built (model.Builder.OnFinished): counted rows, figures and
// reuse conflicts of a compilation are computed as soon as nothing later
// can change them, and the builder keeps only what a summary prints of
// them (model.GraphDone), so that memory holds the rows of the graphs
// still open rather than every row of the run. SummaryAfter then analyses
// the graphs still open and lists every graph's figure diagnostics in
// graph order, so the report is Summary's without the rows.
type Early struct {
	marker model.CountMarker
}

// NewEarly returns an Early.
func NewEarly() *Early { return &Early{} }

// Finish analyses the graphs of one compilation (one per memory type) and
// returns each one's figure diagnostics; the builder lets their rows go
// after.
func (e *Early) Finish(gs []*model.Graph) [][]model.Diagnostic {
	for _, g := range gs {
		e.marker.Mark(g)
	}
	diags := make([][]model.Diagnostic, len(gs))
	var sib []*model.Graph
	for i, g := range gs {
		sib = sib[:0]
		for _, o := range gs {
			if o != g {
				sib = append(sib, o)
			}
		}
		peak, _ := PeakStep(g.Rows)
		diags[i] = figures(g, peak, sib)
	}
	for _, g := range gs {
		g.Conflicts = Conflicts(g)
	}
	return diags
}

// SummaryAfter is Summary for a report whose finished graphs Early
// analysed already (model.Report.WalkGraphs lists them as done).
func SummaryAfter(rep *model.Report) { run(rep, false, true) }
