package analyze

import "imas/core/model"

// graphAnalyses runs the analyses beyond the figures on one graph:
// conflicts, waste, peak breakdown. Figures are already computed.
func graphAnalyses(g *model.Graph, theory, step int64, siblings []*model.Graph) {
	g.Conflicts = Conflicts(g)
	g.Waste = waste(g, step, siblings)
	g.Peak = peakAt(g, theory, step, PeakTop)
}
