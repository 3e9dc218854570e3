package analyze

import "imas/core/model"

// graphAnalyses runs the analyses beyond the figures on one graph:
// conflicts, waste, peak breakdown. Figures are already computed.
func graphAnalyses(g *model.Graph, siblings []*model.Graph) {
	g.Conflicts = Conflicts(g)
	theory, step := PeakStep(g.Rows)
	g.Waste = waste(g, step, siblings)
	g.Peak = peakAt(g, theory, step, PeakTop)
}
