package analyze

import (
	"slices"

	"imas/core/model"
)

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
	DeviceUsage(rep)
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

// DeviceUsage sets Used on each of rep.Devices that has mallocs or devmm
// peaks of other modules: GE's malloc'ed bytes (all categories), the devmm
// peaks of the other modules of the process on that device (host memory
// types excluded; a device of unknown id takes every device's), and GE's
// own devmm peak.
func DeviceUsage(rep *model.Report) {
	type dev struct {
		pid string
		id  int64
	}
	ge := map[dev]int64{}
	mallocs := map[dev]bool{}
	for _, t := range rep.DeviceMalloc {
		k := dev{t.PID, t.DeviceID}
		ge[k] += t.Bytes
		mallocs[k] = true
	}
	for i := range rep.Devices {
		d := &rep.Devices[i]
		d.Used = nil
		u := &model.DeviceUsed{GE: ge[dev{d.PID, d.DeviceID}], Modules: []model.ModulePeak{}}
		for _, m := range rep.Devmm {
			if m.PID != d.PID || m.Module == "" || m.Device < 0 || (d.DeviceID >= 0 && m.Device != d.DeviceID) || m.Total > 0 {
				continue
			}
			if m.Module == "GE" {
				u.DevmmGE += m.Peak
				continue
			}
			k := slices.IndexFunc(u.Modules, func(p model.ModulePeak) bool { return p.Module == m.Module })
			if k < 0 {
				k = len(u.Modules)
				u.Modules = append(u.Modules, model.ModulePeak{Module: m.Module})
			}
			u.Modules[k].Peak += m.Peak
		}
		if !mallocs[dev{d.PID, d.DeviceID}] && len(u.Modules) == 0 {
			continue
		}
		u.Total = u.GE
		for _, p := range u.Modules {
			u.Total += p.Peak
		}
		d.Used = u
	}
}
