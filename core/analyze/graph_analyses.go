package analyze

import "imas/core/model"

// graphAnalyses runs the analyses beyond the figures on one graph:
// conflicts, waste, peak breakdown. Figures are already computed. The
// analyses share one set of buffers and the rows' alias roots, which the
// conflicts and the peak breakdown both need.
func graphAnalyses(g *model.Graph, theory, step int64, siblings []*model.Graph) {
	sc := getScratch(len(g.Rows))
	defer putScratch(sc)
	roots := aliasRoots(g.Rows, sc)
	g.Conflicts = conflicts(g, roots, sc)
	g.Waste = waste(g, step, siblings, sc)
	g.Peak = peakAt(g, theory, step, PeakTop, roots, sc)
	g.Live = live(g, sc)
}
