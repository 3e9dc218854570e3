package core_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"imas/core"
	"imas/core/input"
	"imas/core/model"
)

func analyzeReal(t *testing.T, names ...string) *model.Report {
	t.Helper()
	var srcs []input.Source
	for _, n := range names {
		p := filepath.Join(realLogsDir, n)
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is required in CI: %v", p, err)
			}
			t.Skipf("%s absent: %v", p, err)
		}
		srcs = append(srcs, input.FileSource(p))
	}
	rep, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// memErrWant is what one memory error must say; the figures are read off
// the files by hand.
type memErrWant struct {
	pid, process string
	device, size int64
	purpose      string
	fn, module   string
	caller, code string
	time         string
	line         int64
	statements   []int64
}

func checkMemErrs(t *testing.T, rep *model.Report, want []memErrWant) {
	t.Helper()
	if len(rep.MemoryErrors) != len(want) {
		for _, e := range rep.MemoryErrors {
			t.Logf("got %+v", *e)
		}
		t.Fatalf("%d memory errors, want %d", len(rep.MemoryErrors), len(want))
	}
	for i, w := range want {
		e := rep.MemoryErrors[i]
		var lines []int64
		for _, s := range e.Statements {
			lines = append(lines, s.Line)
		}
		if e.PID != w.pid || e.Process != w.process || e.Device != w.device || e.Size != w.size || e.Purpose != w.purpose ||
			e.Func != w.fn || e.Module != w.module || e.Caller != w.caller || e.Code != w.code || e.TimeText != w.time ||
			e.Line != w.line || !slices.Equal(lines, w.statements) {
			t.Errorf("error %d:\n got pid=%s process=%s dev=%d size=%d purpose=%q fn=%s module=%s caller=%s code=%s time=%q line=%d statements=%v\nwant %+v",
				i, e.PID, e.Process, e.Device, e.Size, e.Purpose, e.Func, e.Module, e.Caller, e.Code, e.TimeText, e.Line, lines, w)
		}
	}
	if got := rep.DiagSummary["memory-error"]; got != int64(len(want)) {
		t.Errorf("%d memory-error findings, want %d", got, len(want))
	}
}

func TestRealMemoryErrors(t *testing.T) {
	for _, tc := range []struct {
		file     string
		want     []memErrWant
		rejected int64
	}{
		// Driver → runtime → ACL chain of one 20 MiB physical malloc, within 2 ms.
		{"hiascend-ts0050-2024-oom.log", []memErrWant{
			{"4176881", "python3.7", 0, 20971520, "", "halMemCreate", "DRV", "aclrtMallocPhysical", "207001",
				"2024-06-29 16:19:28.520085", 2, []int64{2, 3, 4, 7}},
		}, 0},
		// Two PCIe BAR mappings of 4 MiB (two processes) and GE's size check
		// 20 ms after the first: three errors.
		{"channy-2025-blog-loadfail.log", []memErrWant{
			{"69072", "python3", 0, 4194304, "", "_devmm_mem_remote_map", "DRV", "", "ret=8", "2025-03-18 14:35:48.599331", 1, []int64{1}},
			{"69072", "python3", -1, 469474304, "", "InitRuntimeParams", "GE", "", "", "2025-03-18 14:35:48.619628", 6, []int64{6}},
			{"10686", "msame", 0, 4194304, "", "_devmm_mem_remote_map", "DRV", "", "ret=8", "2025-03-19 15:09:45.659913", 17, []int64{17}},
		}, 0},
		// Two huge-page allocations under damaged level tags, 140 ms apart;
		// the second line is wrapped: its tail has no envelope.
		{"hixl-2025-guides-memreg.log", []memErrWant{
			{"27271", "ker_DP7_EP7", 7, 2122688, "", "DevMemAllocHugePageManaged", "RUNTIME", "", "207001", "2026-02-27 16:24:15.595677", 11, []int64{11}},
			{"27271", "ker_DP7_EP7", -1, 2097152, "", "DevMemAllocHugePageManaged", "RUNTIME", "", "", "2026-02-27 16:24:15.735937", 12, []int64{12}},
		}, 1},
		// The DDK logs the size on the request line, the failure without it.
		{"atlas200dk-2019-omg-devmalloc.log", []memErrWant{
			{"0", "", -1, 545656832, "", "DevMalloc", "RUNTIME", "", "errno=2", "2019-09-12 04:53:55.522058", 11, []int64{11}},
		}, 0},
		// An error report: the header gives pid and time, two page-caching
		// mallocs of different sizes.
		{"errmsg-helios62-2026-pagecaching.txt", []memErrWant{
			{"210907", "", 0, 3221291008, "page caching", "Alloc", "", "", "EL0004", "2026-04-09 21:56:40.384694", 5, []int64{1, 5}},
			{"210907", "", 0, 1610678272, "page caching", "Alloc", "", "", "", "2026-04-09 21:56:40.384694", 6, []int64{6}},
		}, 0},
		{"errmsg-vllmascend3479-2025-el0004.txt", []memErrWant{
			{"3132", "EngineCore_DP0", -1, -1, "", "", "", "ReportCallError", "207001", "2025-10-15 16:32:16.417528", 1, []int64{1, 5}},
		}, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			rep := analyzeReal(t, tc.file)
			checkMemErrs(t, rep, tc.want)
			if rep.Inputs.Rejected != tc.rejected {
				t.Errorf("%d lines rejected, want %d: %+v", rep.Inputs.Rejected, tc.rejected, rep.Diagnostics)
			}
		})
	}
}

// GE's size check keeps what it expected and what it found.
func TestRealRuntimeParamsCheck(t *testing.T) {
	rep := analyzeReal(t, "channy-2025-blog-loadfail.log")
	if len(rep.MemoryErrors) < 2 {
		t.Fatal("memory errors missing")
	}
	e := rep.MemoryErrors[1]
	if e.Expect == nil || e.Actual == nil || *e.Expect != 469474304 || *e.Actual != 0 {
		t.Errorf("expect/actual = %v/%v, want 469474304/0", e.Expect, e.Actual)
	}
	if got := rep.DiagSummary["ignored:error-propagation"]; got != 2 {
		t.Errorf("%d asserts passing the error up, want 2 (lines 7 and 8)", got)
	}
}

// The devmm statistics logged before an error are its device picture.
func TestRealMemoryErrorPicture(t *testing.T) {
	rep := analyzeReal(t, "mindcluster-2023-faultdiag-fixture.log")
	if len(rep.MemoryErrors) != 1 {
		t.Fatalf("%d memory errors, want 1", len(rep.MemoryErrors))
	}
	e := rep.MemoryErrors[0]
	if e.Size != 2097152 || e.Device != 0 || e.DriverModule != "RUNTIME" || e.Line != 12 {
		t.Errorf("got size=%d dev=%d driver module=%s line=%d; want 2097152, 0, RUNTIME (moduleId=7), 12", e.Size, e.Device, e.DriverModule, e.Line)
	}
	// Line 8 replaces line 7 (same module and memory type); line 9 is
	// host memory.
	if e.Before == nil || !slices.ContainsFunc(e.Before.Devmm, func(d model.PictureDevmm) bool {
		return d.MemType == "DEV_MEM" && d.Module == "RUNTIME" && d.Peak == 33641111 && d.Current == 0 && d.Line == 8
	}) {
		t.Errorf("picture %+v lacks RUNTIME DEV_MEM peak 33641111 (line 8)", e.Before)
	}
}

// The kernel log's table: one devmm entry per (pid, memory type, module),
// the last row of each; printed while the process runs, so no leak hints.
func TestRealKernelDevmm(t *testing.T) {
	rep := analyzeReal(t, "oam-2025-host-kernel-devmm.log")
	if rep.Inputs.Candidates != 582 || rep.Inputs.Records != 582 || rep.Inputs.Rejected != 0 {
		t.Errorf("candidates/records/rejected = %d/%d/%d, want 582/582/0", rep.Inputs.Candidates, rep.Inputs.Records, rep.Inputs.Rejected)
	}
	if len(rep.Devmm) != 16 {
		t.Fatalf("%d devmm entries, want 16 (8 per process)", len(rep.Devmm))
	}
	want := map[string][4]int64{ // current, peak, alloc_cnt, free_cnt of the last row
		"7005 MEM_DEV_HUGE_HBM APP":      {65072529408, 65072529408, 31029, 0},
		"8009 MEM_DEV_HUGE_HBM APP":      {65074626560, 65074626560, 31030, 0},
		"7005 MEM_DEV_SMALL_HBM APP":     {31375360, 31375360, 20, 0},
		"8009 MEM_DEV_SMALL_HBM APP":     {29278208, 29278208, 19, 0},
		"8009 MEM_DEV_SMALL_DDR RUNTIME": {16384, 16384, 1, 0},
	}
	for _, d := range rep.Devmm {
		if d.Device != 0 || d.LeakHint || !d.Periodic {
			t.Errorf("%+v: want device 0, periodic, no leak hint", d)
		}
		if w, ok := want[d.PID+" "+d.MemType+" "+d.Module]; ok {
			if got := [4]int64{d.Current, d.Peak, d.AllocCnt, d.FreeCnt}; got != w {
				t.Errorf("%s %s %s: %v, want %v", d.PID, d.MemType, d.Module, got, w)
			}
		}
	}
}

// GE's InitRuntimeParams traces and its error manager naming EL0004 at
// start are no memory errors.
func TestRealNoMemoryErrors(t *testing.T) {
	for _, f := range []string{"oam-2020-tf-host0.log", "oam-2021-acl-plog10043.log", "oam-2023-tf-plog370-debug.log"} {
		t.Run(f, func(t *testing.T) {
			rep := analyzeReal(t, f)
			if len(rep.MemoryErrors) != 0 {
				t.Errorf("%d memory errors, want 0: %+v", len(rep.MemoryErrors), rep.MemoryErrors[0])
			}
			if rep.DiagSummary["ignored:runtime-params"] != 1 {
				t.Errorf("ignored:runtime-params = %d, want 1 (the INFO trace of the load)", rep.DiagSummary["ignored:runtime-params"])
			}
		})
	}
}
