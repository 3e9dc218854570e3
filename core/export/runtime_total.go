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
// share of Used total (model.DeviceUsed).
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
		u := d.Used
		if u == nil {
			continue
		}
		cats := byDev[dev{d.PID, d.DeviceID}]
		if !header {
			w.WriteString("Malloc memory from device\n")
			header = true
		}
		fmt.Fprintf(w, "Process_%s\n", d.PID)
		fmt.Fprintf(w, "DeviceId: %s\n", idText(d.DeviceID))
		fmt.Fprintf(w, "StaticMemoryPolicy: %s\n", idText(d.StaticMemoryPolicy))
		if d.DeviceTotal > 0 {
			fmt.Fprintf(w, "%-24s%s\n", "Device total", Bytes(d.DeviceTotal))
		}
		line := func(name string, v int64) {
			share := 0.0
			if u.Total > 0 {
				share = float64(v) / float64(u.Total) * 100
			}
			fmt.Fprintf(w, "%-24s%-24s%7s%%\n", name, Bytes(v), Rate2(share))
		}
		line("Used total", u.Total)
		line("|-GE", u.GE)
		for _, c := range model.MallocCategories {
			if v, ok := cats[c]; ok || c != "Other" {
				line("|-GE-"+c, v)
			}
		}
		for _, m := range u.Modules {
			line("|-"+m.Module, m.Peak)
		}
		if len(u.Modules) > 0 || u.DevmmGE > 0 {
			fmt.Fprintf(w, "%-24s%s (devmm peak of GE; |-GE should be close to it)\n", "devmm GE", Bytes(u.DevmmGE))
		}
	}
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
