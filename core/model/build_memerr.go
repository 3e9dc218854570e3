package model

import (
	"time"

	"imas/core/diag"
	"imas/core/gelog"
)

// MemoryError is one refused memory request: the statements every layer
// (driver, runtime, ACL, GE, the error report) logged about it, grouped,
// with what was asked, by whom, when, and what the logs say the device
// held just before.
type MemoryError struct {
	PID     string `json:"pid"`
	Process string `json:"process,omitempty"`
	Device  int64  `json:"device_id"` // -1 when no statement names it
	// Size is the bytes asked (-1 when no statement says). For GE's
	// InitRuntimeParams check it is the size GE expected (Expect).
	Size    int64  `json:"size"`
	Purpose string `json:"purpose,omitempty"`
	// What is the statement that says most about the error (the first
	// with a size, else the first): MemErr* of gelog.
	What string `json:"what"`
	// Module and Func logged that statement; Caller is the outermost
	// function of the chain (the last statement's, when it differs).
	Module string `json:"module"`
	Func   string `json:"func"`
	Caller string `json:"caller,omitempty"`
	// DriverModule is the driver module the memory was asked for
	// (moduleId=N of the runtime's driver call, named by the devmm
	// statistics or the driver's fixed ids), when printed.
	DriverModule string `json:"driver_module,omitempty"`
	MemType      int64  `json:"memtype"` // driver / rtMalloc memory type, -1 unknown
	Code         string `json:"code,omitempty"`
	Reason       string `json:"reason,omitempty"`
	// Expect and Actual are the sizes of GE's failed InitRuntimeParams
	// check (the model's HBM size, and what its memory infos add up to).
	Expect   *int64 `json:"expect,omitempty"`
	Actual   *int64 `json:"actual,omitempty"`
	Time     int64  `json:"time_us"` // 0 when no statement has a time
	TimeText string `json:"time,omitempty"`
	Path     string `json:"path"`
	Line     int64  `json:"line"`
	// Statements lists every line of the chain in log order.
	Statements []MemoryErrorLine `json:"statements"`
	// Before is the device memory picture the logs give just before the
	// error; nil when they give none.
	Before *MemoryPicture `json:"before,omitempty"`

	file int32
	last int64 // time of the latest statement, for grouping
}

// MemoryErrorLine is one statement of a memory error.
type MemoryErrorLine struct {
	What   string `json:"what"`
	Form   string `json:"form"` // plog, kernel-log, ddk, damaged-plog, error-report
	Module string `json:"module,omitempty"`
	Func   string `json:"func,omitempty"`
	Source string `json:"source,omitempty"` // CANN source file:line
	Size   int64  `json:"size"`
	Code   string `json:"code,omitempty"`
	Time   int64  `json:"time_us"`
	Path   string `json:"path"`
	Line   int64  `json:"line"`

	file int32
}

// MemoryPicture is what the logs say the process held on the device just
// before an error: the latest driver statistics of each module, and the
// GE device mallocs logged so far.
type MemoryPicture struct {
	// DevmmCurrent is Σ current of the latest devmm statistics of the
	// process's device memory types (modules), DevmmPeak Σ their peaks.
	DevmmCurrent int64          `json:"devmm_current"`
	DevmmPeak    int64          `json:"devmm_peak"`
	Devmm        []PictureDevmm `json:"devmm"`
	// MallocBytes is Σ size of the counted GE device mallocs of the
	// process (on the error's device when known) logged before, in
	// MallocCount lines.
	MallocBytes int64 `json:"malloc_bytes"`
	MallocCount int64 `json:"malloc_count"`
}

// PictureDevmm is one module's latest devmm statistics.
type PictureDevmm struct {
	MemType string `json:"memtype"`
	Module  string `json:"module"`
	Device  int64  `json:"device"`
	Current int64  `json:"current"`
	Peak    int64  `json:"peak"`
	Line    int64  `json:"line"`
}

// memErrWindow: statements of one process less than this apart (µs) in
// the merged log order belong to one error (the layers log it within a few
// milliseconds; two failed requests are further apart or ask other sizes).
const memErrWindow = 10_000

// memErrLineGap: statements without a time (error-report lines whose
// header was not seen) group by line distance in their file.
const memErrLineGap = 8

// driverModules are the driver's fixed module ids, as its statistics
// lines name them; ids seen in the logs' own statistics take precedence.
var driverModules = map[int64]string{0: "UNKNOWN", 1: "IDEDD", 3: "HCCL", 7: "RUNTIME", 33: "APP", 45: "GE"}

type memErrState struct {
	open map[int64]*MemoryError // the latest error of each pid
	asks map[thread]*gelog.MemRequest
}

func (b *Builder) memErr() *memErrState {
	if b.memErrs == nil {
		b.memErrs = &memErrState{open: map[int64]*MemoryError{}, asks: map[thread]*gelog.MemRequest{}}
	}
	return b.memErrs
}

// addMemRequest remembers a request that its failure line will not size.
func (b *Builder) addMemRequest(r *gelog.MemRequest) {
	b.memErr().asks[thread{r.PID, r.TID}] = r
}

// addMemError adds one statement: to the open error of its process when it
// continues it, else as a new error.
func (b *Builder) addMemError(r *gelog.MemError) {
	s := b.memErr()
	if r.Size < 0 && r.What == gelog.MemErrDDKAllocError {
		if q := s.asks[thread{r.PID, r.TID}]; q != nil {
			r.Size, r.MemType = q.Size, q.MemType
			delete(s.asks, thread{r.PID, r.TID})
		}
	}
	st := MemoryErrorLine{What: r.What, Form: r.Form, Module: r.Module, Func: r.Func, Source: r.Source,
		Size: r.Size, Code: r.Code, Time: r.Time, Line: r.Line, file: r.File}
	e := s.open[r.PID]
	if e == nil || !continues(e, r) {
		e = &MemoryError{PID: pidString(r.PID), Device: -1, Size: -1, MemType: -1, file: r.File, Line: r.Line,
			Time: r.Time, Module: r.Module, Func: r.Func, What: r.What}
		e.Before = b.pictureBefore(r)
		b.R.MemoryErrors = append(b.R.MemoryErrors, e)
		s.open[r.PID] = e
	}
	e.Statements = append(e.Statements, st)
	e.last = r.Time
	if e.Process == "" {
		e.Process = r.PName
	}
	if e.Time == 0 {
		e.Time = r.Time
	}
	if e.Device < 0 {
		e.Device = r.Device
	}
	if e.Size < 0 && r.Size >= 0 {
		// The statement with the size says what was asked.
		e.Size, e.What, e.Module, e.Func = r.Size, r.What, r.Module, r.Func
		e.file, e.Line = r.File, r.Line
		if r.What == gelog.MemErrRuntimeParams {
			x, a := r.Expect, r.Actual
			e.Expect, e.Actual = &x, &a
		}
	}
	if e.Purpose == "" {
		e.Purpose = r.Purpose
	}
	if e.MemType < 0 {
		e.MemType = r.MemType
	}
	if e.DriverModule == "" && r.ModuleID >= 0 {
		e.DriverModule = b.driverModuleName(r.PID, r.ModuleID)
	}
	// The runtime's out-of-memory code says more than a driver return value.
	if r.Code != "" && (e.Code == "" || r.Code == "207001") {
		e.Code = r.Code
	}
	if r.Reason != "" && (e.Reason == "" || r.What == gelog.MemErrRuntimeParams) {
		e.Reason = r.Reason
	}
	if r.Func != "" && r.Func != e.Func {
		e.Caller = r.Func
	}
}

// continues reports whether statement r belongs to error e (same process,
// checked by the caller).
func continues(e *MemoryError, r *gelog.MemError) bool {
	if r.Time != 0 && e.last != 0 {
		if d := r.Time - e.last; d < 0 || d > memErrWindow {
			return false
		}
	} else {
		last := e.Statements[len(e.Statements)-1]
		if last.file != r.File || r.Line-last.Line > memErrLineGap || r.Line < last.Line {
			return false
		}
	}
	if r.Size >= 0 && e.Size >= 0 && r.Size != e.Size {
		return false
	}
	if r.Device >= 0 && e.Device >= 0 && r.Device != e.Device {
		return false
	}
	return true
}

func (b *Builder) driverModuleName(pid, id int64) string {
	for i := range b.R.Devmm {
		d := &b.R.Devmm[i]
		if d.ModuleID == id && d.Module != "" {
			return d.Module
		}
	}
	if n, ok := driverModules[id]; ok {
		return n
	}
	return "module " + itoa(id)
}

// pictureBefore collects what the logs said about the process's device
// memory before r: the latest devmm statistics (device memory types) and
// the GE device mallocs.
func (b *Builder) pictureBefore(r *gelog.MemError) *MemoryPicture {
	pid := pidString(r.PID)
	p := &MemoryPicture{}
	for i := range b.R.Devmm {
		d := &b.R.Devmm[i]
		if d.PID != pid || d.Module == "" || d.Device < 0 || (r.Device >= 0 && d.Device != r.Device) {
			continue
		}
		p.Devmm = append(p.Devmm, PictureDevmm{MemType: d.MemType, Module: d.Module, Device: d.Device,
			Current: d.Current, Peak: d.Peak, Line: d.Line})
		p.DevmmCurrent += d.Current
		p.DevmmPeak += d.Peak
	}
	for i := range b.R.Mallocs {
		m := &b.R.Mallocs[i]
		if m.PID != pid || !m.Counted || (r.Device >= 0 && m.DeviceID >= 0 && m.DeviceID != r.Device) {
			continue
		}
		p.MallocBytes += m.Size
		p.MallocCount++
	}
	if s := &b.o().mall; b.figuresOnly() {
		for _, k := range s.sumOrder {
			if k.pid != pid || (r.Device >= 0 && k.dev >= 0 && k.dev != r.Device) {
				continue
			}
			p.MallocBytes += s.sums[k].size
			p.MallocCount += s.sums[k].count
		}
	}
	if len(p.Devmm) == 0 && p.MallocCount == 0 {
		return nil
	}
	return p
}

// finishMemErrors names the files, formats the times and adds one
// memory-error finding per error. The errors are in log order already:
// the records come merged by time.
func (b *Builder) finishMemErrors() {
	r := b.R
	if r.MemoryErrors == nil {
		r.MemoryErrors = []*MemoryError{}
	}
	for _, e := range r.MemoryErrors {
		e.Path = b.Path(e.file)
		for i := range e.Statements {
			e.Statements[i].Path = b.Path(e.Statements[i].file)
		}
		if e.Time != 0 {
			e.TimeText = LogTime(e.Time)
		}
		b.Diag(Diagnostic{Path: e.Path, Line: e.Line, Reason: diag.MemoryError, Detail: e.Summary(), Text: ""})
	}
}

// Summary is the error in one line: what was asked, by whom, and why it failed.
func (e *MemoryError) Summary() string {
	s := "size not logged"
	if e.Size >= 0 {
		s = itoa(e.Size) + " bytes"
	}
	if e.Purpose != "" {
		s += " for " + e.Purpose
	}
	if e.Func != "" {
		s += " by " + e.Func
	}
	if e.Caller != "" {
		s += " (called from " + e.Caller + ")"
	}
	if e.Device >= 0 {
		s += " on device " + itoa(e.Device)
	}
	if e.Code != "" {
		s += ", code " + e.Code
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// LogTime formats a log time (µs since 2000-01-01, the log's local time).
func LogTime(us int64) string {
	return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(us) * time.Microsecond).Format("2006-01-02 15:04:05.000000")
}
