package model

import "imas/core/gelog"

type devmmKey struct {
	pid     int64
	memtype string
	device  int64
	module  string
}

// addDevmm keeps one entry per (pid, memory type, device, module); a later
// print of the same statistics (the driver prints them at each exit of a
// device context) replaces the earlier one. Cached_size lines become the
// memory type's entry with an empty module.
func (b *Builder) addDevmm(r *gelog.DevmmStat) {
	o := b.o()
	o.mall.seeDevice(r.PID, r.Device)
	k := devmmKey{r.PID, r.MemType, r.Device, r.Module}
	d := Devmm{PID: pidString(r.PID), MemType: b.Intern(r.MemType), Module: b.Intern(r.Module), Device: r.Device,
		ModuleID: r.ModuleID, Peak: r.Peak, Current: r.Current, AllocCnt: r.AllocCnt, FreeCnt: r.FreeCnt,
		Cached: r.Cached, Total: r.Total, Line: r.Line, Periodic: r.Periodic}
	if i, ok := o.devmm[k]; ok {
		b.R.Devmm[i] = d
		return
	}
	o.devmm[k] = len(b.R.Devmm)
	b.R.Devmm = append(b.R.Devmm, d)
}
