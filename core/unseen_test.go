package core_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"imas/core/input"
	"imas/core/model"
)

// unseenDir holds logs written by hand in the forms of the real logs (the
// 2019 DDK, 2020 and 2021 debug plogs, the 2021 AICPU device log, the 2023
// driver and RT2 pool, the 2025 run plog and kernel log, OOM chains and
// CANN's error report), with other processes, names, sizes and addresses
// than any real file or other test. Each case asserts the figures computed
// by hand from its lines: the acceptance check that the reading of each
// form, not of one file, is right.
const unseenDir = "testdata/unseen"

func TestUnseenLogsByHand(t *testing.T) {
	cases := []struct {
		file string
		// lines, records and ignored are the file's own counts: every line
		// that is a statement is a record; none is rejected.
		lines, records int64
		ignored        map[string]int64
		check          func(t *testing.T, rep *model.Report)
	}{
		{"devmm-2023.log", 14, 14, nil, func(t *testing.T, rep *model.Report) {
			// Lines 6-9 repeat lines 2-5 43 ms later: 10 entries, not 14.
			if len(rep.Devmm) != 10 {
				t.Errorf("%d devmm entries, want 10", len(rep.Devmm))
			}
			wantDevmm(t, rep, "DEV_MEM", 5, "RUNTIME", 8388608, 41943040, true)
			wantDevmm(t, rep, "DEV_MEM", 5, "APP", 0, 6442450944, false)
			wantDevmm(t, rep, "DEV_MEM", 5, "GE", 0, 805306368, false)
			wantDevmm(t, rep, "HOST_MEM", -1, "RUNTIME", 2097152, 16777216, true)
			wantDevmm(t, rep, "HOST_MEM", -1, "HCCL", 0, 8192, false) // the _svm_mem_stats_show 154 spelling
			cached := map[string]int64{}
			for _, d := range rep.Devmm {
				if d.Module == "" {
					cached[d.MemType+" "+itoa(d.Device)] = d.Cached
				}
				if d.Module != "" && (d.AllocCnt != -1 || d.FreeCnt != -1) {
					t.Errorf("%+v: the 2023 form has no counts (-1)", d)
				}
			}
			if len(cached) != 5 || cached["DEV_MEM 4"] != 4194304 || cached["DEV_MEM 5"] != 31457280 || cached["HOST_MEM -1"] != 6291456 {
				t.Errorf("cached sizes %v", cached)
			}
			if !rep.Sanity.RunLog || hasNote(rep, "No devmm statistics") {
				t.Errorf("sanity %+v: the devmm statistics were read", rep.Sanity)
			}
		}},
		{"rt2-pool-2023.log", 42, 39, map[string]int64{"allocator-lifecycle": 2, "caching-allocator-bins": 1,
			"device-allocator-free": 3, "kernel-trace": 1, "pool-breakdown": 5}, func(t *testing.T, rep *model.Report) {
			if len(rep.Pools) != 1 {
				t.Fatalf("%d pools, want 1", len(rep.Pools))
			}
			p := rep.Pools[0]
			// Four Malloc blocks of 128 KiB (1000+4096+512+70000 bytes asked)
			// on three addresses; live: A, A B, B, B A, B A C, A C, C, -.
			// The last block is given back by its Free block line alone.
			if p.PID != "5150" || p.Allocator != "allocator_3" || p.Device != 1 || p.Allocs != 4 || p.Frees != 4 ||
				p.Leaked != 0 || p.Total != 4*131072 || p.PeakLive != 3*131072 || p.Requested != 75608 ||
				p.PeakRequested != 512+4096+70000 || p.Addresses != 3 || p.UnmatchedFrees != 0 {
				t.Errorf("pool %+v", p)
			}
			// GE's largest PrintDetails: 3 page-caching mallocs, 393216 bytes,
			// the pool's peak; the three pages came back at finalize.
			if d := p.Details; d == nil || d.AllocCount != 3 || d.TotalSize != 393216 || p.Physical != 393216 || p.Unit != 131072 {
				t.Errorf("details %+v, physical %d, unit %d", p.Details, p.Physical, p.Unit)
			}
			wantMalloc(t, rep, "MemoryPool", 393216, 3, 393216)
		}},
		{"static-2020.log", 33, 31, map[string]int64{"allocator-lifecycle": 1, "memory-key-miss": 1, "io-size": 1}, func(t *testing.T, rep *model.Report) {
			if len(rep.Graphs) != 1 {
				t.Fatalf("%d graphs, want 1", len(rep.Graphs))
			}
			g := rep.Graphs[0]
			f := g.Figures
			// The name already ends in _1. Rows with a realsize: 800, 1540,
			// 600 (aligned 1024+2048+1024, all live to the end);
			// memoffset[4096]; zero-copy 4096 − 1024 = 3072 = BuildModelDef's.
			if g.Graph != "ge_default_20201015093000_1" || f.Tensors != 3 || f.Total != 2940 || f.GETotal != 4096 ||
				f.MemorySize != 4096 || f.TheoryMin != 4096 || f.ZeroCopy != 3072 {
				t.Errorf("graph %s figures %+v", g.Graph, f)
			}
			if len(rep.Variables) != 1 || rep.Variables[0].SizeSum != 1536 {
				t.Errorf("variables %+v", rep.Variables)
			}
			wantMalloc(t, rep, "StaticGraph", 4096, 1, 0)
			wantMalloc(t, rep, "Variable", 1073741824, 1, 0)
			// 8 operator addresses and 2 CopyPlainData destinations, in
			// the F and V regions.
			wantAddrs(t, rep, 10, 10, map[string]int64{"F": 8, "V": 2}, nil)
		}},
		{"acl-2021-withmem.log", 14, 14, map[string]int64{"runtime-params": 1}, func(t *testing.T, rep *model.Report) {
			// 4 constants inside the 1 MiB weight region; 6 feature-map
			// addresses in memory the caller gave aclmdlLoadFromFileWithMem.
			wantAddrs(t, rep, 10, 4, map[string]int64{"C": 4}, map[string]int64{"user-memory": 6})
		}},
		{"aicpu-device.log", 5, 5, nil, func(t *testing.T, rep *model.Report) {
			if rep.Sanity.InfoLevel || hasNote(rep, "INFO-level GE statements found") || !hasNote(rep, "5 CCECPU (AICPU)") {
				t.Errorf("sanity %+v", rep.Sanity)
			}
			if len(rep.DeviceMalloc) != 0 {
				t.Errorf("CPU allocations counted as device memory: %+v", rep.DeviceMalloc)
			}
		}},
		{"host-kernel-devmm.log", 4, 4, nil, func(t *testing.T, rep *model.Report) {
			if rep.Sanity.RunLog || !hasNote(rep, "devmm statistics found in the driver's kernel log") {
				t.Errorf("sanity %+v: a kernel log, not a run plog", rep.Sanity)
			}
			// The later row of each module replaces the earlier one.
			if len(rep.Devmm) != 2 {
				t.Fatalf("%d devmm entries, want 2", len(rep.Devmm))
			}
			for _, d := range rep.Devmm {
				got := [4]int64{d.Current, d.Peak, d.AllocCnt, d.FreeCnt}
				want := map[string][4]int64{"RUNTIME": {0, 131072, 3, 3}, "APP": {10485760, 10485760, 5, 0}}[d.Module]
				if d.PID != "9120" || d.Device != 1 || !d.Periodic || d.LeakHint || got != want {
					t.Errorf("%+v: want %v, periodic, no leak hint", d, want)
				}
			}
		}},
		{"oom-2025.log", 10, 10, map[string]int64{"error-propagation": 1}, func(t *testing.T, rep *model.Report) {
			checkMemErrs(t, rep, []memErrWant{
				// The driver → runtime → ACL chain of one physical malloc.
				{"77120", "python3", 3, 41943040, "", "halMemCreate", "DRV", "aclrtMallocPhysical", "207001",
					"2025-08-12 03:10:05.200010", 3, []int64{3, 4, 5, 6}},
				// 300 ms later: another request, for the HCCL module (moduleId=3).
				{"77120", "python3", 3, 6291456, "", "DevMemAllocHugePageManaged", "RUNTIME", "", "207001",
					"2025-08-12 03:10:05.500700", 7, []int64{7}},
				{"77200", "msame", 1, 8388608, "", "_devmm_mem_remote_map", "DRV", "", "ret=8",
					"2025-08-12 03:12:40.010500", 8, []int64{8}},
				// GE's size check 30 ms after the mapping: an error of its own.
				{"77200", "msame", -1, 268435456, "", "InitRuntimeParams", "GE", "", "",
					"2025-08-12 03:12:40.040900", 9, []int64{9}},
			})
			e := rep.MemoryErrors
			if e[1].DriverModule != "HCCL" || e[3].Expect == nil || *e[3].Expect != 268435456 || e[3].Actual == nil || *e[3].Actual != 134217728 {
				t.Errorf("driver module %q, expect/actual %v/%v", e[1].DriverModule, e[3].Expect, e[3].Actual)
			}
			// The device picture before the first error: the two statistics
			// lines of dev3, current 62914560000+4194304, peak 62914560000+6291456.
			b := e[0].Before
			if b == nil || len(b.Devmm) != 2 || b.DevmmCurrent != 62918754304 || b.DevmmPeak != 62920851456 {
				t.Errorf("picture before the first error %+v", b)
			}
			if e[2].Before != nil {
				t.Errorf("pid 77200 logged no statistics, picture %+v", e[2].Before)
			}
		}},
		{"errreport-2026.txt", 6, 2, nil, func(t *testing.T, rep *model.Report) {
			// The header names the process and time; the traceback line the
			// page-caching malloc of 2 GiB + 64 KiB on device 2.
			checkMemErrs(t, rep, []memErrWant{
				{"52311", "", 2, 2147549184, "page caching", "Alloc", "", "", "EL0004", "2026-07-21 10:02:31.908115", 5, []int64{1, 5}},
			})
		}},
		{"ddk-2019.log", 5, 3, nil, func(t *testing.T, rep *model.Report) {
			// The failure line has no size: the latest request of its thread
			// (1 GiB, not the 32 MiB before it) is what was asked.
			checkMemErrs(t, rep, []memErrWant{
				{"0", "", -1, 1073741824, "", "DevMalloc", "RUNTIME", "", "errno=2", "2019-11-28 16:40:12.600731", 4, []int64{4}},
			})
		}},
	}
	ents, err := os.ReadDir(unseenDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(cases) {
		t.Errorf("%d files in %s, %d cases: every file needs its figures by hand", len(ents), unseenDir, len(cases))
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(unseenDir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			rep := run(t, input.BytesSource(c.file, data))
			in := rep.Inputs
			if in.Lines != c.lines || in.Records != c.records || in.Rejected != 0 {
				t.Errorf("lines/records/rejected %d/%d/%d, want %d/%d/0: %+v", in.Lines, in.Records, in.Rejected, c.lines, c.records, rep.Diagnostics)
			}
			if rep.Sanity == nil || rep.Sanity.Truncated != 0 || hasNote(rep, "1024") {
				t.Errorf("a complete line called truncated: %+v", rep.Sanity)
			}
			for k, n := range rep.DiagSummary {
				if name, ok := strings.CutPrefix(k, "ignored:"); ok && c.ignored[name] != n {
					t.Errorf("ignored by %s: %d, want %d", name, n, c.ignored[name])
				}
			}
			for name, n := range c.ignored {
				if rep.DiagSummary["ignored:"+name] != n {
					t.Errorf("ignored by %s: %d, want %d", name, rep.DiagSummary["ignored:"+name], n)
				}
			}
			checkReasonsKnown(t, rep)
			c.check(t, rep)
		})
	}
}

func wantDevmm(t *testing.T, rep *model.Report, memtype string, dev int64, module string, current, peak int64, leakHint bool) {
	t.Helper()
	for _, d := range rep.Devmm {
		if d.MemType == memtype && d.Device == dev && d.Module == module {
			if d.Current != current || d.Peak != peak || d.LeakHint != leakHint {
				t.Errorf("%s dev%d %s: current %d peak %d hint %v; want %d, %d, %v", memtype, dev, module,
					d.Current, d.Peak, d.LeakHint, current, peak, leakHint)
			}
			return
		}
	}
	t.Errorf("no devmm entry %s dev%d %s", memtype, dev, module)
}

func wantMalloc(t *testing.T, rep *model.Report, category string, bytes, count, freed int64) {
	t.Helper()
	for _, m := range rep.DeviceMalloc {
		if m.Category == category {
			if m.Bytes != bytes || m.Count != count || m.Freed != freed {
				t.Errorf("%s: %d bytes in %d mallocs, %d freed; want %d, %d, %d", category, m.Bytes, m.Count, m.Freed, bytes, count, freed)
			}
			return
		}
	}
	t.Errorf("no device malloc of category %s in %+v", category, rep.DeviceMalloc)
}

// wantAddrs checks the one address check of rep: rows, checked (all valid),
// the checked rows by memory type and the unchecked ones by reason.
func wantAddrs(t *testing.T, rep *model.Report, rows, checked int64, okByType, unchecked map[string]int64) {
	t.Helper()
	if len(rep.AddressChecks) != 1 {
		t.Fatalf("%d address checks, want 1", len(rep.AddressChecks))
	}
	ac := rep.AddressChecks[0]
	byType := map[string]int64{}
	for _, r := range ac.Rows {
		if r.Status == "ok" {
			byType[r.Type]++
		}
	}
	if int64(len(ac.Rows)) != rows || ac.Checked != checked || len(ac.Invalid) != 0 || ac.UserMemory != (unchecked["user-memory"] > 0) {
		t.Errorf("rows %d checked %d invalid %d user memory %v; want %d, %d, 0", len(ac.Rows), ac.Checked, len(ac.Invalid), ac.UserMemory, rows, checked)
	}
	if len(byType) != len(okByType) || len(ac.Unchecked) != len(unchecked) {
		t.Errorf("checked by type %v, unchecked %v; want %v, %v", byType, ac.Unchecked, okByType, unchecked)
	}
	for k, n := range okByType {
		if byType[k] != n {
			t.Errorf("checked by type %v, want %v", byType, okByType)
		}
	}
	for k, n := range unchecked {
		if ac.Unchecked[k] != n {
			t.Errorf("unchecked %v, want %v", ac.Unchecked, unchecked)
		}
	}
}

func hasNote(rep *model.Report, s string) bool {
	return rep.Sanity != nil && strings.Contains(strings.Join(rep.Sanity.Notes, "\n"), s)
}

func itoa(n int64) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
