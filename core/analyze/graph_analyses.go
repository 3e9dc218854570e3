package analyze

import "imas/core/model"

// graphAnalyses runs the analyses beyond the figures on one graph:
// conflicts, waste, peak breakdown. Figures are already computed.
func graphAnalyses(rep *model.Report, g *model.Graph) {
	g.Conflicts = Conflicts(g)
	// The graph's other memory types lay out their zero-copy blocks in the
	// HBM area.
	var siblings []*model.Graph
	if g.MemType == 2 {
		for _, o := range rep.Graphs {
			if o != g && o.PID == g.PID && o.Graph == g.Graph {
				siblings = append(siblings, o)
			}
		}
	}
	theory, step := PeakStep(g.Rows)
	g.Waste = waste(g, step, siblings)
	g.Peak = peakAt(g, theory, step, PeakTop)
}
