package core_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"imas/core/input"
	"imas/core/model"
)

var updateReal = flag.Bool("update-real", false, "rewrite testdata/real/*.json from ../shared/real-logs")

// realLogsDir holds real GE logs from public sources (../shared/real-logs
// from the repository root). They are read, never copied: the goldens
// under testdata/real keep figures and counts only.
const realLogsDir = "../../shared/real-logs"

// realLogs lists the real log files, skipping the test where the folder is
// absent (it is required in CI).
func realLogs(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(realLogsDir)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs the real logs in %s: %v", realLogsDir, err)
		}
		t.Skipf("no real logs in %s (%v): skipped", realLogsDir, err)
	}
	var out []string
	for _, e := range ents {
		if n := e.Name(); !e.IsDir() && (strings.HasSuffix(n, ".log") || strings.HasSuffix(n, ".txt")) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no logs", realLogsDir)
	}
	return out
}

// runReal analyses one real file alone.
func runReal(t *testing.T, name string) *model.Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realLogsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return run(t, input.BytesSource(name, data))
}

// realFigures is what a golden keeps of a report: counts and figures, no
// text of the lines.
func realFigures(t *testing.T, rep *model.Report) []byte {
	t.Helper()
	raw, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var full map[string]any
	if err := json.Unmarshal(raw, &full); err != nil {
		t.Fatal(err)
	}
	keep := func(m any, keys ...string) map[string]any {
		out := map[string]any{}
		src, _ := m.(map[string]any)
		for _, k := range keys {
			if v, ok := src[k]; ok {
				out[k] = v
			}
		}
		return out
	}
	each := func(list any, keys ...string) []any {
		out := []any{}
		l, _ := list.([]any)
		for _, e := range l {
			out = append(out, keep(e, keys...))
		}
		return out
	}
	g := map[string]any{
		"inputs":            keep(full["inputs"], "lines", "candidates", "records", "rejected"),
		"diagnostic_counts": full["diagnostic_counts"],
		"sanity":            keep(full["sanity"], "families", "info_level", "run_log", "truncated"),
		"graphs": each(full["graphs"], "pid", "graph", "memtype", "memory_size", "after_reuse", "total", "ge_total",
			"theory_min", "no_reuse", "atomic", "zero_copy", "continuous", "streams", "tensors", "reuse_rate", "reach_theory_rate"),
		"pools": each(full["pools"], "pid", "allocator", "allocs", "frees", "total", "peak_live", "leaked", "device_id",
			"requested", "peak_requested", "addresses", "physical", "physical_from", "unmatched_frees", "logged"),
		"devmm":         each(full["devmm"], "pid", "memtype", "device", "module", "module_id", "peak", "current", "alloc_cnt", "free_cnt", "cached", "total"),
		"device_malloc": full["device_malloc"],
		"regions":       len(rep.Regions),
		"variables":     len(rep.Variables),
	}
	out, err := json.MarshalIndent(g, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// TestRealLogsGolden: each real file gives the figures and counts of its
// golden (go test ./core -run RealLogs -update-real rewrites them).
func TestRealLogsGolden(t *testing.T) {
	for _, name := range realLogs(t) {
		t.Run(name, func(t *testing.T) {
			got := realFigures(t, runReal(t, name))
			path := filepath.Join("testdata", "real", strings.TrimSuffix(name, filepath.Ext(name))+".json")
			if *updateReal {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./core -run RealLogs -update-real)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the report's figures:\n%s", path, got)
			}
		})
	}
}

// hasRealLog skips the calling test when one real file is absent.
func hasRealLog(t *testing.T, name string) {
	t.Helper()
	if !slices.Contains(realLogs(t), name) {
		t.Fatalf("%s missing from %s", name, realLogsDir)
	}
}

// Figures computed by hand from the lines of the real files.
func TestRealLogsByHand(t *testing.T) {
	realLogs(t)
	t.Run("2020 static graph and zero-copy", func(t *testing.T) {
		hasRealLog(t, "oam-2020-tf-host0.log")
		rep := runReal(t, "oam-2020-tf-host0.log")
		if len(rep.Graphs) != 1 {
			t.Fatalf("%d graphs, want 1", len(rep.Graphs))
		}
		f := rep.Graphs[0].Figures
		// Counted rows: realsize 2080, 4128, 96 (the fourth has realsize 0);
		// 512-aligned 2560 + 4608 + 512; memoffset[7680]; zero-copy: 7680
		// after AssignZeroCopyMemory − 2560 before = 5120, as BuildModelDef says.
		if f.Tensors != 3 || f.Total != 6304 || f.GETotal != 7680 || f.MemorySize != 7680 || f.ZeroCopy != 5120 {
			t.Errorf("figures %+v", f)
		}
		if rep.Inputs.Rejected != 0 {
			t.Errorf("%d rejected lines", rep.Inputs.Rejected)
		}
	})
	t.Run("2023 RT2 pool checked by GE's PrintDetails", func(t *testing.T) {
		hasRealLog(t, "oam-2023-tf-plog370-debug.log")
		rep := runReal(t, "oam-2023-tf-plog370-debug.log")
		if len(rep.Pools) != 1 {
			t.Fatalf("%d pools, want 1", len(rep.Pools))
		}
		p := rep.Pools[0]
		// Five traced allocations of 64 KiB blocks (two on one address),
		// requested 128+128+288+288+64 bytes, all freed; at most four live.
		if p.Allocator != "allocator_1" || p.Allocs != 5 || p.Frees != 5 || p.Total != 5*65536 ||
			p.PeakLive != 4*65536 || p.Requested != 896 || p.Addresses != 4 || p.Leaked != 0 {
			t.Errorf("pool %+v", p)
		}
		// GE's own account: its largest PrintDetails says 4 device
		// allocations holding 262144 bytes; the page-caching mallocs agree.
		// 64 KiB pages: no granularity or fragmentation above the peak.
		if p.Unit != 65536 || p.Step != p.PeakLive {
			t.Errorf("unit %d, step %d; want 65536, %d", p.Unit, p.Step, p.PeakLive)
		}
		d := p.Details
		if d == nil || d.AllocCount != 4 || d.TotalSize != p.PeakLive {
			t.Errorf("PrintDetails %+v disagrees with the pool's peak %d", d, p.PeakLive)
		}
		var pageBytes, pages, freed int64
		for _, m := range rep.DeviceMalloc {
			if m.Category == "MemoryPool" {
				pageBytes, pages, freed = m.Bytes, m.Count, m.Freed
			}
		}
		if d != nil && (pageBytes != d.TotalSize || pages != d.AllocCount) {
			t.Errorf("page caching %d bytes in %d mallocs; PrintDetails %d in %d", pageBytes, pages, d.TotalSize, d.AllocCount)
		}
		// DeviceAllocator::Alloc names each page; RtMemAllocator::free gave all four back.
		if freed != pageBytes {
			t.Errorf("RtMemAllocator::free gave back %d of %d page-caching bytes", freed, pageBytes)
		}
		if rep.Inputs.Rejected != 0 {
			t.Errorf("%d rejected lines: %v", rep.Inputs.Rejected, rep.DiagSummary)
		}
		ge := devmmPeak(rep, "DEV_MEM", 0, "GE")
		if ge != 307200 {
			t.Errorf("devmm GE peak %d, want 307200", ge)
		}
	})
	t.Run("2023 devmm dump printed twice", func(t *testing.T) {
		hasRealLog(t, "paddle690-2023-devmm.log")
		rep := runReal(t, "paddle690-2023-devmm.log")
		// 17 lines, lines 6-9 repeat lines 2-5: 13 distinct entries.
		if rep.Inputs.Records != 17 || rep.Inputs.Rejected != 0 || len(rep.Devmm) != 13 {
			t.Errorf("records %d, rejected %d, devmm entries %d", rep.Inputs.Records, rep.Inputs.Rejected, len(rep.Devmm))
		}
		if ge := devmmPeak(rep, "DEV_MEM", 2, "GE"); ge != 1297368064 {
			t.Errorf("GE peak on dev2 %d", ge)
		}
		if app := devmmPeak(rep, "DEV_MEM", 2, "APP"); app != 29984937408 {
			t.Errorf("APP peak on dev2 %d", app)
		}
	})
	t.Run("2023 comma form under _svm_mem_stats_show", func(t *testing.T) {
		hasRealLog(t, "mindcluster-2023-faultdiag-fixture.log")
		rep := runReal(t, "mindcluster-2023-faultdiag-fixture.log")
		if rep.Inputs.Rejected != 0 || devmmPeak(rep, "DEV_MEM", 0, "GE") != 108003328 || devmmPeak(rep, "HOST_MEM", -1, "HCCL") != 4096 {
			t.Errorf("rejected %d, devmm %+v", rep.Inputs.Rejected, rep.Devmm)
		}
	})
	t.Run("2021 harmless allocator lines ignored by rule", func(t *testing.T) {
		hasRealLog(t, "oam-2021-acl-plog10043.log")
		rep := runReal(t, "oam-2021-acl-plog10043.log")
		c := rep.DiagSummary
		if rep.Inputs.Rejected != 0 || c["ignored:allocator-lifecycle"] != 4 || c["ignored:memory-key-miss"] != 1 || c["ignored:caching-allocator-bins"] != 2 {
			t.Errorf("rejected %d, counts %v", rep.Inputs.Rejected, c)
		}
	})
	t.Run("2025 run plog: the application's 2 MiB not freed at exit", func(t *testing.T) {
		hasRealLog(t, "oam-2025-run-plog17890.log")
		rep := runReal(t, "oam-2025-run-plog17890.log")
		// 18 statistics lines, each of its own (memory type, module); only
		// APP's huge-page 2 MiB is still allocated (alloc_cnt 1, free_cnt 0).
		var hints []string
		for _, d := range rep.Devmm {
			if d.LeakHint {
				hints = append(hints, d.MemType+" "+d.Module)
			}
		}
		app := devmmPeak(rep, "MEM_DEV_HUGE_HBM", 0, "APP")
		if rep.Inputs.Records != 18 || rep.Inputs.Rejected != 0 || len(rep.Devmm) != 18 || app != 2097152 ||
			len(hints) != 1 || hints[0] != "MEM_DEV_HUGE_HBM APP" {
			t.Errorf("records %d, rejected %d, %d entries, APP peak %d, leak hints %v", rep.Inputs.Records, rep.Inputs.Rejected, len(rep.Devmm), app, hints)
		}
	})
	t.Run("2021 AICPU device log", func(t *testing.T) {
		hasRealLog(t, "oam-2021-acl-device10043.log")
		rep := runReal(t, "oam-2021-acl-device10043.log")
		notes := strings.Join(rep.Sanity.Notes, "\n")
		if rep.Sanity.InfoLevel || strings.Contains(notes, "INFO-level GE statements found") || !strings.Contains(notes, "124 CCECPU (AICPU)") {
			t.Errorf("sanity %+v", rep.Sanity)
		}
	})
}

func devmmPeak(rep *model.Report, memtype string, dev int64, module string) int64 {
	for _, d := range rep.Devmm {
		if d.MemType == memtype && d.Device == dev && d.Module == module {
			return d.Peak
		}
	}
	return -1
}
