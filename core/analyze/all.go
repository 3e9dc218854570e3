package analyze

import "imas/core/model"

// All runs every analysis on a freshly built report.
func All(rep *model.Report) {
	type inst struct{ pid, graph string }
	byInst := map[inst][]*model.Graph{}
	for _, g := range rep.Graphs {
		k := inst{g.PID, g.Graph}
		byInst[k] = append(byInst[k], g)
	}
	for _, g := range rep.Graphs {
		var sib []*model.Graph
		for _, o := range byInst[inst{g.PID, g.Graph}] {
			if o != g {
				sib = append(sib, o)
			}
		}
		for _, d := range Figures(g, sib...) {
			addDiag(rep, d)
		}
	}
	for _, g := range rep.Graphs {
		graphAnalyses(rep, g)
	}
	runtimeAnalyses(rep)
}

// addDiag appends a diagnostic and counts it.
func addDiag(rep *model.Report, d model.Diagnostic) {
	rep.Diagnostics = append(rep.Diagnostics, d)
	if rep.DiagSummary == nil {
		rep.DiagSummary = map[string]int64{}
	}
	rep.DiagSummary[d.Reason]++
}
