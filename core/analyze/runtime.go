package analyze

import "imas/core/model"

// runtimeAnalyses computes the load- and run-time figures
// (docs/figures.md#runtime): variable sessions, pool statistics, devmm leak hints and, with
// detail, the address checks. Device-malloc totals need the log order (live
// physical pages) and are summed by the model builder.
func runtimeAnalyses(rep *model.Report, detail bool) {
	for _, s := range rep.Variables {
		VarFigures(s)
	}
	for _, p := range rep.Pools {
		PoolFigures(p)
	}
	for i := range rep.Devmm {
		d := &rep.Devmm[i]
		d.LeakHint = DevmmLeak(d)
	}
	if !detail {
		return
	}
	for _, d := range CheckAddresses(rep) {
		addDiag(rep, d)
	}
}

// DevmmLeak reports whether a devmm entry still held memory when the driver
// printed it at process exit. Cached_size and DEV_PROC_MEM entries carry no
// counts; the kernel log's periodic rows are not printed at exit.
func DevmmLeak(d *model.Devmm) bool {
	if d.Module == "" || d.Total > 0 || d.Periodic {
		return false
	}
	return d.Current != 0 || (d.AllocCnt >= 0 && d.FreeCnt >= 0 && d.AllocCnt != d.FreeCnt)
}
