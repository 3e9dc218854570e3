package plog

import "testing"

// Lines of every non-plog form, written for these tests (values invented).
func TestParseAnyForms(t *testing.T) {
	tests := []struct {
		name                     string
		line                     string
		form                     Form
		level, module, pname, fn string
		file                     string
		fileNo                   int
		pid, tid                 int64
		time                     string // plog form of the expected time, "" for 0
		msg                      string
	}{
		{name: "kernel log table row",
			line: "[2024-02-03-04:05:06.123456] [ascend] [devmm] [INFO] [devmm_mem_stats_show 81] <app_x:4321,4322> 4321 dev1 MEM_DEV_HUGE_HBM APP 33 4096 8192 2 1",
			form: FormKernel, level: "INFO", module: "devmm", pname: "app_x", fn: "devmm_mem_stats_show", fileNo: 81,
			pid: 4321, tid: 4322, time: "2024-02-03-04:05:06.123.456", msg: "4321 dev1 MEM_DEV_HUGE_HBM APP 33 4096 8192 2 1"},
		{name: "kernel log without task tag",
			line: "[2024-02-03-04:05:06.000001] [ascend] [devmm] [ERROR] [devmm_x 9] text here",
			form: FormKernel, level: "ERROR", module: "devmm", fn: "devmm_x", fileNo: 9, tid: -1,
			time: "2024-02-03-04:05:06.000.001", msg: "text here"},
		{name: "DDK runtime line",
			line: "[INFO] RUNTIME:2018-11-12-13:14:15.016.017 555 rt/src/alloc.cc:12 DevMalloc:dev memory alloc, size = 1024, type = 1 ",
			form: FormDDK, level: "INFO", module: "RUNTIME", fn: "DevMalloc", file: "rt/src/alloc.cc", fileNo: 12,
			tid: 555, time: "2018-11-12-13:14:15.016.017", msg: "dev memory alloc, size = 1024, type = 1 "},
		{name: "DDK framework line (function before the path)",
			line: "[ERROR] FMK:2018-11-12-13:14:15.016.017 Build:fw/model.cpp:77:\"failed\" ",
			form: FormDDK, level: "ERROR", module: "FMK", fn: "Build", tid: -1,
			time: "2018-11-12-13:14:15.016.017", msg: "fw/model.cpp:77:\"failed\" "},
		{name: "level tag without its bracket, space before the colon",
			line: "ERROR] RUNTIME(42,worker_1) :2025-01-02-03:04:05.006.007 [drv.cc:10]43 AllocX:[drv api] halMemAlloc failed:size=10(bytes)",
			form: FormDamaged, level: "ERROR", module: "RUNTIME", pname: "worker_1", fn: "AllocX", file: "drv.cc", fileNo: 10,
			pid: 42, tid: 43, time: "2025-01-02-03:04:05.006.007", msg: "[drv api] halMemAlloc failed:size=10(bytes)"},
		{name: "level tag with a wrong letter",
			line: "ERR0R] GE(42,p) :2025-01-02-03:04:05.006.007 [x.cc:1]43 F:m",
			form: FormDamaged, level: "ERR0R", module: "GE", pname: "p", fn: "F", file: "x.cc", fileNo: 1,
			pid: 42, tid: 43, time: "2025-01-02-03:04:05.006.007", msg: "m"},
		{name: "error report header",
			line: "WARN 01-02 03:04:05 [engine.py:9] [PID: 777] 2025-01-02-03:04:05.123.456 Memory_Allocation_Failure(EL0004): no memory.",
			form: FormReport, level: "ERROR", pid: 777, tid: -1, time: "2025-01-02-03:04:05.123.456",
			msg: "[PID: 777] 2025-01-02-03:04:05.123.456 Memory_Allocation_Failure(EL0004): no memory."},
		{name: "error report traceback line takes no time of its own",
			line: "WARN 01-02 03:04:05 [engine.py:9]     Call rtMalloc fail, size:64[FUNC:Alloc][FILE:alloc.cc][LINE:12]",
			form: FormReport, level: "ERROR", fn: "Alloc", file: "alloc.cc", fileNo: 12, tid: -1,
			msg: "Call rtMalloc fail, size:64"},
		{name: "framework prefix names the process",
			line: "(Worker_3 pid=88) ERROR 01-02 03:04:05 [core.py:1]     alloc failed[FUNC:F][FILE:f.cpp][LINE:2]",
			form: FormReport, level: "ERROR", pname: "Worker_3", fn: "F", file: "f.cpp", fileNo: 2, pid: 88, tid: -1,
			msg: "alloc failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e Envelope
			if !ParseAny([]byte(tc.line), &e) {
				t.Fatal("not read")
			}
			want := int64(0)
			if tc.time != "" {
				want = parseTime([]byte(tc.time))
			}
			if e.Form != tc.form || string(e.Level) != tc.level || string(e.Module) != tc.module || string(e.PName) != tc.pname ||
				string(e.Func) != tc.fn || string(e.File) != tc.file || e.FileNo != tc.fileNo || e.PID != tc.pid || e.TID != tc.tid ||
				e.Time != want || string(e.Msg) != tc.msg {
				t.Errorf("got form=%v level=%q module=%q pname=%q fn=%q file=%q:%d pid=%d tid=%d time=%d msg=%q\nwant form=%v level=%q module=%q pname=%q fn=%q file=%q:%d pid=%d tid=%d time=%d msg=%q",
					e.Form, e.Level, e.Module, e.PName, e.Func, e.File, e.FileNo, e.PID, e.TID, e.Time, e.Msg,
					tc.form, tc.level, tc.module, tc.pname, tc.fn, tc.file, tc.fileNo, tc.pid, tc.tid, want, tc.msg)
			}
		})
	}
}

// A traceback line takes the process and time of the report header before
// it, and a plog line in between does not forget them.
func TestParseAnyReportState(t *testing.T) {
	var e Envelope
	lines := []string{
		"E 01-02 03:04:05 [a.py:1] EL0004: [PID: 31] 2025-05-06-07:08:09.010.011 Failed to allocate memory.",
		"[INFO] GE(1,p):2025-05-06-07:08:09.010.012 [x.cc:1]2 F:m",
		"E 01-02 03:04:05 [a.py:1]     alloc device memory failed[FUNC:R][FILE:r.cpp][LINE:3]",
	}
	for _, l := range lines {
		if !ParseAny([]byte(l), &e) {
			t.Fatalf("not read: %s", l)
		}
	}
	if e.PID != 31 || e.Time != parseTime([]byte("2025-05-06-07:08:09.010.011")) {
		t.Errorf("traceback line: pid %d time %d; want the header's", e.PID, e.Time)
	}
}

func TestParseAnyRejects(t *testing.T) {
	for _, l := range []string{
		"",
		"7, ErrCode=207001, desc=[x]",
		"[2024-02-03-04:05:06.123456] no groups",
		"plain text (with parens) : and colons",
		"X(12,p):not-a-time",
	} {
		var e Envelope
		if ParseAny([]byte(l), &e) {
			t.Errorf("%q read as %v", l, e.Form)
		}
		if string(e.Msg) != l {
			t.Errorf("%q: msg %q, want the line", l, e.Msg)
		}
	}
}

func FuzzParseAny(f *testing.F) {
	for _, s := range []string{
		"[2024-02-03-04:05:06.123456] [ascend] [devmm] [INFO] [devmm_mem_stats_show 81] <app_x:4321,4322> 4321 dev1 T APP 33 1 2 3 4",
		"[INFO] RUNTIME:2018-11-12-13:14:15.016.017 555 rt/src/alloc.cc:12 DevMalloc:dev memory alloc, size = 1024",
		"ERR0R] RUNTIME(42,w) :2025-01-02-03:04:05.006.007 [drv.cc:10]43 AllocX:halMemAlloc failed:size=10(bytes)",
		"E 01-02 03:04:05 [a.py:1] EL0004: [PID: 31] 2025-05-06-07:08:09.010.011 Failed to allocate memory.",
		"(W pid=88) ERROR 01-02 03:04:05 [core.py:1]     alloc failed[FUNC:F][FILE:f.cpp][LINE:2]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var e Envelope
		ParseAny(line, &e)
		// The non-plog readers alias the line too, except the error
		// report's level, which the form implies.
		for _, b := range [][]byte{e.Module, e.PName, e.File, e.KV, e.Alloc, e.Func, e.Msg} {
			if len(b) > 0 && !contains(line, b) {
				t.Fatalf("field %q not in line", b)
			}
		}
	})
}
