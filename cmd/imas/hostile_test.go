package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const cleanLog = "../../testdata/samples/basic/plog-1311101_20261202080000000.log"

// hostileFile is the clean log rewritten the way real inputs arrive: CRLF
// line ends, no final newline, and between its lines binary junk, lines of
// other processes (some valid, some that must be rejected), a line cut by
// GE's 1024-character logger limit, and two lines of megabytes.
type hostileFile struct {
	data     []byte
	rejected []int64 // line numbers of the candidate lines that must be rejected
	overlong []int64 // line numbers of the lines longer than the parser reads
}

func buildHostileFile(t *testing.T) hostileFile {
	t.Helper()
	clean, err := os.ReadFile(cleanLog)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	var h hostileFile
	var out bytes.Buffer
	line := int64(0)
	emit := func(s string) {
		if line > 0 {
			out.WriteString("\r\n")
		}
		out.WriteString(s)
		line++
	}
	env := func(pid int, fn string) string {
		return fmt.Sprintf("[INFO] GE(%d,python3):2026-04-18-10:00:00.900.%03d [x.cc:1]%d %s:", pid, line%1000, pid, fn)
	}
	reject := func(s string) { emit(s); h.rejected = append(h.rejected, line) }
	binary := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			for b[i] = byte(rng.UintN(256)); b[i] == '\n' || b[i] == '['; b[i] = byte(rng.UintN(256)) {
			}
		}
		return string(b)
	}
	cut := env(999, "SetOffsetSize") + "[IMAS]Set junk_graph_9 name[" + strings.Repeat("n", 900) +
		"] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512] realsize[480] noalignsize[448] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0]"
	cut = cut[:strings.Index(cut, "[x.cc:1]")+1024] // GE's MSG_LENGTH, counted from [file:line]
	junk := []func(){
		func() { emit(binary(40 + rng.IntN(200))) },
		func() { emit("\x00\x00\x00" + binary(30)) },
		func() { reject("\x00\xfe\xff junk [IMAS]Set " + binary(20)) },
		func() { reject(env(999, "SetOffsetSize") + "[IMAS]Set junk_graph_9 name[cut") },
		func() {
			reject(env(999, "MallocMemory") + "MallocMemory, func=aclrtMalloc, size=99999999999999999999999, purpose=feature map,used for op input and output")
		},
		func() {
			reject(env(999, "SetOffsetSize") + "[IMAS]Set junk_graph_9 name[neg] optype[X] output[0] offset to [-512] streamid[0] memtype[2] size[512] realsize[480] noalignsize[448] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]")
		},
		func() { reject(cut) },
		func() {
			emit(env(778, "SetOffsetSize") + "[IMAS]Set other_graph_1 name[x] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512] realsize[480] noalignsize[448] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]")
		},
	}
	lines := strings.Split(strings.TrimSuffix(string(clean), "\n"), "\n")
	for i, l := range lines {
		emit(l)
		switch {
		case i == 100: // longer than the parser reads, shorter than a chunk
			emit(binary(2 << 20))
			h.overlong = append(h.overlong, line)
		case i == 300: // longer than a chunk: the chunker drops its tail
			reject(env(999, "SetOffsetSize") + "[IMAS]Set junk_graph_9 name[" + strings.Repeat("n", 6<<20))
			h.overlong = append(h.overlong, line)
		case i%40 == 39:
			junk[(i/40)%len(junk)]()
		}
	}
	h.data = out.Bytes()
	return h
}

func gzipOf(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// hostileReport is the part of report.json the test reads.
type hostileReport struct {
	Inputs struct {
		Files []struct {
			Path                                 string
			Lines, Candidates, Records, Rejected int64
		}
		Duplicates                           []string
		Lines, Candidates, Records, Rejected int64
	}
	Diagnostics []struct {
		Path, Reason, Detail, Text string
		Line                       int64
		Rejected                   bool
	}
}

// TestHostileInputs is the end-to-end check of docs/robustness.md: one input
// set with every kind of damage must still give exit 0, the clean process's
// figures to the byte, every problem in report.json, nothing written outside
// the output directory, and no live formula in the CSVs.
func TestHostileInputs(t *testing.T) {
	root := t.TempDir()
	in := filepath.Join(root, "in")
	h := buildHostileFile(t)
	writeFile(t, filepath.Join(in, "a", "plog-1311101.log"), h.data)
	writeFile(t, filepath.Join(in, "b", "plog-1311101.log.gz"), gzipOf(h.data)) // same content: a duplicate
	conflicts, err := os.ReadFile("../../testdata/samples/conflicts/plog-4242_20261202080000000.log")
	if err != nil {
		t.Fatal(err)
	}
	z := gzipOf(conflicts)
	writeFile(t, filepath.Join(in, "c", "plog-4242.log.gz"), z[:len(z)*3/5]) // truncated
	var inject, evil logBuilder
	writeInjectionLog(&inject, 777)
	writeInjectionLog(&evil, 666)
	writeFile(t, filepath.Join(in, "d", "bundle.tar.gz"), tarGz(t,
		tarMember{"plog/plog-777.log", tar.TypeReg, inject.b.Bytes()},
		tarMember{"../evil.log", tar.TypeReg, evil.b.Bytes()},
		tarMember{"/abs.log", tar.TypeReg, evil.b.Bytes()},
		tarMember{"link.log", tar.TypeSymlink, nil},
		tarMember{"dev", tar.TypeChar, nil},
	))
	clean, err := filepath.Abs(cleanLog)
	if err != nil {
		t.Fatal(err)
	}
	before := filesUnder(t, root)
	work := filepath.Join(root, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)

	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"report", "-o", "out", "../in"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"report", "-o", "clean", clean}, &stdout, &stderr); code != exitOK {
		t.Fatalf("clean log alone: exit %d: %s", code, stderr.String())
	}
	want := slices.Concat(before, reportFiles("work/out"), reportFiles("work/clean"))
	slices.Sort(want)
	if got := filesUnder(t, root); !slices.Equal(got, want) {
		t.Errorf("files after the run:\n%v\nwant:\n%v", got, want)
	}
	readCSVs(t, "out")

	t.Run("clean process figures are exact", func(t *testing.T) {
		got, clean := pidSections(t, "out/report.json", "1311101"), pidSections(t, "clean/report.json", "1311101")
		if len(clean["graphs"]) != 3 {
			t.Fatalf("the clean log has %d graphs, want 3", len(clean["graphs"]))
		}
		for name, want := range clean {
			if !reflect.DeepEqual(got[name], want) {
				g, _ := json.Marshal(got[name])
				w, _ := json.Marshal(want)
				t.Errorf("%s of pid 1311101 differ from the clean log's:\n got %.600s\nwant %.600s", name, g, w)
			}
		}
		all := pidSections(t, "out/report.json", "")
		for _, pid := range []string{"666"} {
			if n := len(pidSections(t, "out/report.json", pid)["graphs"]); n > 0 {
				t.Errorf("pid %s of an escaping archive member was read", pid)
			}
		}
		if !slices.ContainsFunc(all["graphs"], func(g any) bool { return g.(map[string]any)["graph"] == hostileNames[0] }) {
			t.Errorf("the tar.gz member with the formula graph name was not read")
		}
	})

	var rep hostileReport
	b, err := os.ReadFile("out/report.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	diag := func(reason, pathPart string, line int64) bool {
		for _, d := range rep.Diagnostics {
			if d.Reason == reason && strings.Contains(d.Path, pathPart) && (line == 0 || d.Line == line) {
				return true
			}
		}
		return false
	}

	t.Run("accounting adds up", func(t *testing.T) {
		in := rep.Inputs
		var lines, cands, recs, rejected, listed int64
		for _, f := range in.Files {
			lines, cands, recs, rejected = lines+f.Lines, cands+f.Candidates, recs+f.Records, rejected+f.Rejected
			if f.Candidates != f.Records+f.Rejected {
				t.Errorf("%s: %d candidates != %d records + %d rejected", f.Path, f.Candidates, f.Records, f.Rejected)
			}
		}
		for _, d := range rep.Diagnostics {
			if d.Rejected {
				listed++
			}
		}
		if lines != in.Lines || cands != in.Candidates || recs != in.Records || rejected != in.Rejected ||
			in.Candidates != in.Records+in.Rejected || listed != in.Rejected {
			t.Errorf("inputs %+v; per-file sums %d/%d/%d/%d; %d rejected lines listed", in, lines, cands, recs, rejected, listed)
		}
	})

	t.Run("every problem is reported", func(t *testing.T) {
		var a *struct {
			Path                                 string
			Lines, Candidates, Records, Rejected int64
		}
		for i, f := range rep.Inputs.Files {
			if strings.HasSuffix(f.Path, "a/plog-1311101.log") {
				a = &rep.Inputs.Files[i]
			}
		}
		if a == nil {
			t.Fatalf("the hostile log is not among the inputs: %+v", rep.Inputs.Files)
		}
		if wantLines := int64(bytes.Count(h.data, []byte("\n")) + 1); a.Lines != wantLines || a.Rejected != int64(len(h.rejected)) {
			t.Errorf("hostile log: %d lines, %d rejected; want %d and %d", a.Lines, a.Rejected, wantLines, len(h.rejected))
		}
		for _, l := range h.rejected {
			found := false
			for _, d := range rep.Diagnostics {
				if d.Rejected && d.Line == l && strings.HasSuffix(d.Path, "a/plog-1311101.log") && d.Text != "" {
					found = true
				}
			}
			if !found {
				t.Errorf("rejected line %d is not listed with its text", l)
			}
		}
		for _, l := range h.overlong {
			if !diag("line-too-long", "a/plog-1311101.log", l) {
				t.Errorf("line %d of megabytes is not reported", l)
			}
		}
		if len(rep.Inputs.Duplicates) != 1 || !strings.Contains(rep.Inputs.Duplicates[0], "b/plog-1311101.log") || !diag("duplicate-input", "b/plog-1311101.log", 0) {
			t.Errorf("duplicates %v: want the gzipped copy, with a diagnostic", rep.Inputs.Duplicates)
		}
		for _, f := range rep.Inputs.Files {
			if strings.Contains(f.Path, "b/plog-1311101.log") {
				t.Errorf("the duplicate was read: %+v", f)
			}
		}
		if !diag("truncated-input", "c/plog-4242", 0) {
			t.Errorf("the truncated gzip is not reported")
		}
		for _, m := range []string{"../evil.log", "/abs.log", "link.log", "dev"} {
			if !diag("unsafe-member", "bundle.tar!"+m, 0) {
				t.Errorf("archive member %s is not reported", m)
			}
		}
		for _, d := range rep.Diagnostics {
			if strings.ContainsAny(d.Text, "\x00\r\n") {
				t.Errorf("raw control bytes in a diagnostic text: %q", d.Text)
			}
		}
	})
}

// pidSections returns, for every array of report.json whose entries carry a
// "pid", the entries of pid ("" for all), with "line" keys removed: the
// hostile file interleaves lines, so line numbers move but nothing else may.
func pidSections(t *testing.T, name, pid string) map[string][]any {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var rep map[string]any
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	out := map[string][]any{}
	for key, v := range rep {
		arr, ok := v.([]any)
		if !ok {
			continue
		}
		for _, e := range arr {
			m, ok := e.(map[string]any)
			if !ok || m["pid"] == nil || (pid != "" && m["pid"] != pid) {
				continue
			}
			out[key] = append(out[key], dropLines(m))
		}
	}
	return out
}

func dropLines(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "line")
		for k, e := range x {
			x[k] = dropLines(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dropLines(e)
		}
	}
	return v
}

// extremeLog holds statements of every family with values at the int64 and
// uint64 limits, lifetimes out of order and sizes that overflow when added:
// the figures may be meaningless, but every command must finish.
func extremeLog() []byte {
	const m = "9223372036854775807"
	var l logBuilder
	for _, s := range []struct{ fn, msg string }{
		{"SetOffsetSize", "[IMAS]Set g_1 name[a] optype[X] output[" + m + "] offset to [" + m + "] streamid[" + m + "] memtype[" + m + "] size[" + m + "] realsize[" + m + "] noalignsize[" + m + "] life time begin[" + m + "] life time end[" + m + "] child[" + m + ":" + m + ":1:1:1] isref[0] batch[], block_type[]"},
		{"SetOffsetSize", "[IMAS]Set g_1 name[b] optype[X] output[0] offset to [" + m + "] streamid[-" + m + "] memtype[2] size[1] realsize[" + m + "] noalignsize[1] life time begin[0] life time end[4294967294] child[0:1:1:1:1] isref[1] batch[], block_type[]"},
		{"SetOffsetSize", "[IMAS]Set g_1 name[c] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[" + m + "] realsize[" + m + "] noalignsize[1] life time begin[4294967293] life time end[1] child[0:1:1:0:1] isref[0] batch[], block_type[]"},
		{"SetOffsetSize", "[IMAS]Continuous input : Set g_1 name[c] optype[X] output[0] offset to [" + m + "] stream_id[0] memtype[2] size[" + m + "] realsize[" + m + "] nopadding[0]"},
		{"SetOffsetSize", "[IMAS]Atomic output : Set g_1 name[d] optype[X] output[0] offset to [" + m + "] stream_id[0] memtype[2] size[" + m + "] real_size[" + m + "] batch[]."},
		{"SetInputOffset", "[IMAS]AfterAssignMemory : g_1 memoffset[" + m + "], memtype[2], theory_min[" + m + "], zero_copy[" + m + "], total_size[-5], streams[" + m + "] topo_mode[DFS]"},
		{"SetOffsetSize", "[IMAS]after append ws, node a refresh output offset from [" + m + "] to [0]"},
		{"AssignVarMem", "[IMAS]AssignVarMem Set session_0 name[v] output[0] offset to [" + m + "] size[" + m + "] realsize[" + m + "]."},
		{"AssignVarMem", "[IMAS]AssignVarMem Set session_0 name[w] output[0] offset to [" + m + "] size[" + m + "] realsize[" + m + "]."},
		{"MallocMemory", "MallocMemory, func=aclrtMalloc, size=" + m + ", purpose=feature map,used for op input and output, ptr=0xffffffffffffffff, device_id=" + m + ", module_id=45"},
		{"MallocMemory", "MallocMemory, func=aclrtMalloc, size=" + m + ", purpose=page caching, ptr=0xffffffffffffffff, device_id=0, module_id=45"},
		{"InitFeatureMapAndP2PMem", "[IMAS]InitFeatureMapAndP2PMem graph_" + m + " MallocMemory type[F] memaddr[0xffffffffffffffff] mem_size[" + m + "]Bytes"},
		{"GetOutputDataAddrs", "[IMAS]graph_" + m + " type[F] name[a] output[0] offset[" + m + "] size[" + m + "] memaddr[0xfffffffffffffff0]"},
		{"AllocHbmMem", "[KernelTrace][AllocMemHbm_Add_1_325][MEM]Alloc memory at stream " + m + ", block 0x1, address 0xffffffffffffffff, size " + m + ", tensor size " + m + ", index " + m},
		{"AllocHbmMem", "[KernelTrace][AllocMemHbm_Add_1_326][MEM]Alloc memory at stream " + m + ", block 0x1, address 0xfffffffffffffff0, size " + m + ", tensor size " + m + ", index 0"},
		{"AllocHbmMem", "[KernelTrace][AllocBatchHbm_Add_1_327][MEM]Alloc memory at stream 0, block 0x2, address 0xffffffffffffff00, size " + m + ", tensor size 1, index 0"},
		{"FreeHbmMem", "[KernelTrace][FreeMemHbm_Add_1_328][MEM]Free memory at stream " + m + ", address 0xffffffffffffffff"},
		{"MallocPhysicalPage", "rtMallocPhysical success pa_index:" + m + ", current physical memory size:" + m + " reuse:0, memory_type:2, pg_type:2M."},
		{"ReserveVirtualMemory", "virtual_active_addr_base:0xffffffffffffffff virtual_memory_size:" + m + "(8E) device_id:0, memory_type:2, share_phy_allocator:0."},
	} {
		l.ge(1, 11, s.fn, s.msg)
	}
	for i := range 2 {
		fmt.Fprintf(&l.b, "[INFO] DRV(9,x):2026-06-13-17:00:34.718.18%d [svm_mem_statistics.c:150][ascend][curpid:9,9][drv][devmm][_svm_mem_stats_show]DEV_MEM dev%s Mem stats (Bytes). (module_name=R; module_id=%s; current_alloced_size=%s; allocated_peak_size=%s; alloc_cnt=%s; free_cnt=%s)\n", i, m, m, m, m, m, m)
	}
	return l.b.Bytes()
}

func TestExtremeValues(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "extreme.log")
	writeFile(t, log, extremeLog())
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"report", "-o", out, log}, exitOK},
		{[]string{"total", log}, exitOK},
		{[]string{"addr", log}, exitOK},
		{[]string{"var", log}, exitOK},
		{[]string{"check", log}, exitFinding},
		{[]string{"peak", log}, exitOK},
		{[]string{"compare", log, log}, exitOK},
		{[]string{"diff", log, filepath.Join(out, "report.json")}, exitOK},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tc.args, &stdout, &stderr); code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr.String())
			}
		})
	}
	readCSVs(t, out)
	var rep hostileReport
	b, _ := os.ReadFile(filepath.Join(out, "report.json"))
	if err := json.Unmarshal(b, &rep); err != nil || rep.Inputs.Candidates != int64(bytes.Count(extremeLog(), []byte("\n"))) {
		t.Errorf("report.json (%v): %d candidates", err, rep.Inputs.Candidates)
	}
}
