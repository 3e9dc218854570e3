package export

import (
	"bufio"
	"fmt"
	"strconv"

	"imas/core/model"
)

// writeRuntimeTotal writes the "Malloc memory from device" section, pools
// and devmm statistics of imas total.
func writeRuntimeTotal(w *bufio.Writer, rep *model.Report) {
	for _, p := range rep.Pools {
		w.WriteString(PoolSummaryLine(p))
		w.WriteString("\n")
	}
	writeDeviceMalloc(w, rep)
	writeDevmm(w, rep)
	if rep.Sanity != nil {
		for _, n := range rep.Sanity.Notes {
			w.WriteString("Log sanity: " + n + "\n")
		}
	}
}

// writeDeviceMalloc writes, per process and device, the memory GE really
// malloc'ed by category in the old imas layout (docs/runtime.md), with a
// share of Used total. Used total is GE's sum plus, when the run plog's
// devmm statistics are given, the peaks of the other modules (APP, HCCL,
// RUNTIME) on that device.
func writeDeviceMalloc(w *bufio.Writer, rep *model.Report) {
	type dev struct {
		pid string
		id  int64
	}
	byDev := map[dev]map[string]int64{}
	for _, t := range rep.DeviceMalloc {
		k := dev{t.PID, t.DeviceID}
		if byDev[k] == nil {
			byDev[k] = map[string]int64{}
		}
		byDev[k][t.Category] += t.Bytes
	}
	header := false
	for _, d := range rep.Devices {
		k := dev{d.PID, d.DeviceID}
		cats := byDev[k]
		others, order, gePeak := devmmModules(rep, d.PID, d.DeviceID)
		if cats == nil && len(order) == 0 {
			continue
		}
		if !header {
			w.WriteString("Malloc memory from device\n")
			header = true
		}
		var ge int64
		for _, v := range cats {
			ge += v
		}
		used := ge
		for _, m := range order {
			used += others[m]
		}
		fmt.Fprintf(w, "Process_%s\n", d.PID)
		fmt.Fprintf(w, "DeviceId: %s\n", idText(d.DeviceID))
		fmt.Fprintf(w, "StaticMemoryPolicy: %s\n", idText(d.StaticMemoryPolicy))
		if d.DeviceTotal > 0 {
			fmt.Fprintf(w, "%-24s%s\n", "Device total", Bytes(d.DeviceTotal))
		}
		line := func(name string, v int64) {
			share := 0.0
			if used > 0 {
				share = float64(v) / float64(used) * 100
			}
			fmt.Fprintf(w, "%-24s%-24s%7s%%\n", name, Bytes(v), Rate2(share))
		}
		line("Used total", used)
		line("|-GE", ge)
		for _, c := range model.MallocCategories {
			if v, ok := cats[c]; ok || c != "Other" {
				line("|-GE-"+c, v)
			}
		}
		for _, m := range order {
			line("|-"+m, others[m])
		}
		if len(order) > 0 || gePeak > 0 {
			fmt.Fprintf(w, "%-24s%s (devmm peak of GE; |-GE should be close to it)\n", "devmm GE", Bytes(gePeak))
		}
	}
}

// devmmModules sums the devmm peaks of the non-GE modules of one process
// and device (host memory types excluded), and returns GE's own peak for
// cross-checking the malloc categories.
func devmmModules(rep *model.Report, pid string, device int64) (peaks map[string]int64, order []string, gePeak int64) {
	peaks = map[string]int64{}
	for _, d := range rep.Devmm {
		if d.PID != pid || d.Module == "" || d.Device < 0 || (device >= 0 && d.Device != device) || d.Total > 0 {
			continue
		}
		if d.Module == "GE" {
			gePeak += d.Peak
			continue
		}
		if _, ok := peaks[d.Module]; !ok {
			order = append(order, d.Module)
		}
		peaks[d.Module] += d.Peak
	}
	return peaks, order, gePeak
}

// writeDevmm lists the driver statistics with leak hints.
func writeDevmm(w *bufio.Writer, rep *model.Report) {
	if len(rep.Devmm) == 0 {
		return
	}
	w.WriteString("Device memory by component (devmm, printed at process exit)\n")
	for i := range rep.Devmm {
		d := &rep.Devmm[i]
		where := d.MemType
		if d.Device >= 0 {
			where += " dev" + strconv.FormatInt(d.Device, 10)
		}
		switch {
		case d.Module == "":
			fmt.Fprintf(w, "Process_%s %s cached:%s\n", d.PID, where, Bytes(d.Cached))
		case d.Total > 0:
			fmt.Fprintf(w, "Process_%s %s %s total_size:%s\n", d.PID, where, d.Module, Bytes(d.Total))
		default:
			fmt.Fprintf(w, "Process_%s %s %s peak:%s current:%s alloc_cnt:%s free_cnt:%s", d.PID, where, d.Module,
				Bytes(d.Peak), Bytes(d.Current), idText(d.AllocCnt), idText(d.FreeCnt))
			if d.LeakHint {
				w.WriteString(" [not all freed at exit]")
			}
			if d.Periodic {
				w.WriteString(" [kernel log, while running]")
			}
			w.WriteString("\n")
		}
	}
}

// idText prints n, or "unknown" for the -1 the model uses for missing ids.
func idText(n int64) string {
	if n < 0 {
		return "unknown"
	}
	return strconv.FormatInt(n, 10)
}
