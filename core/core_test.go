package core_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"imas/core"
	"imas/core/input"
	"imas/core/model"
)

func run(t *testing.T, srcs ...input.Source) *model.Report {
	t.Helper()
	rep, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkAccounting(t, rep)
	return rep
}

// checkAccounting: every candidate line is a record or a rejected line.
func checkAccounting(t *testing.T, rep *model.Report) {
	t.Helper()
	in := rep.Inputs
	if in.Candidates != in.Records+in.Rejected {
		t.Errorf("candidates %d != records %d + rejected %d", in.Candidates, in.Records, in.Rejected)
	}
	var lines, cand, rejected int64
	for _, f := range in.Files {
		lines += f.Lines
		cand += f.Candidates
		rejected += f.Rejected
	}
	if lines != in.Lines || cand != in.Candidates || rejected != in.Rejected {
		t.Errorf("per-file sums %d/%d/%d differ from totals %d/%d/%d", lines, cand, rejected, in.Lines, in.Candidates, in.Rejected)
	}
	var listed int64
	for _, d := range rep.Diagnostics {
		if d.Rejected {
			listed++
		}
	}
	if listed != in.Rejected {
		t.Errorf("%d rejected lines but %d listed in diagnostics", in.Rejected, listed)
	}
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func figures(rep *model.Report) map[string]model.Figures {
	m := map[string]model.Figures{}
	for _, g := range rep.Graphs {
		m[fmt.Sprintf("%s/%s/%d", g.PID, g.Graph, g.MemType)] = g.Figures
	}
	return m
}

func TestDuplicateInputsReadOnce(t *testing.T) {
	log, err := os.ReadFile("../testdata/samples/basic/plog-1311101_20261202080000000.log")
	if err != nil {
		t.Fatal(err)
	}
	one := run(t, input.BytesSource("a.log", log))
	two := run(t, input.BytesSource("a.log", log), input.BytesSource("a.log.gz", gzipped(log)), input.BytesSource("copy.log", log))
	// The skipped copies are listed under their own names: the .gz keeps
	// its suffix, so that it never reads like the file that was kept.
	if got := two.Inputs.Duplicates; len(got) != 2 || got[0] != "a.log.gz" || got[1] != "copy.log" {
		t.Errorf("duplicates = %v, want [a.log.gz copy.log]", got)
	}
	if got := two.Inputs.Files; len(got) != 1 || got[0].Path != "a.log" {
		t.Errorf("files read = %v, want a.log alone", got)
	}
	if fmt.Sprint(figures(one)) != fmt.Sprint(figures(two)) {
		t.Errorf("figures changed with duplicates:\n%v\n%v", figures(one), figures(two))
	}
	if one.Inputs.Lines != two.Inputs.Lines {
		t.Errorf("lines %d vs %d", one.Inputs.Lines, two.Inputs.Lines)
	}
}

// TestDuplicateFilesOnDisk: files on disk are hashed only when another
// file has their size (input.MarkUnique); a copy is still found, and files
// of other sizes are all read.
func TestDuplicateFilesOnDisk(t *testing.T) {
	log, err := os.ReadFile("../testdata/samples/basic/plog-1311101_20261202080000000.log")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var srcs []input.Source
	for _, f := range []struct {
		name string
		text []byte
	}{{"a.log", log}, {"longer.log", append(bytes.Clone(log), log[:100]...)}, {"copy.log", log}, {"shorter.log", log[:len(log)/2]}} {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, f.text, 0o644); err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, input.FileSource(p))
	}
	rep := run(t, srcs...)
	if got := rep.Inputs.Duplicates; len(got) != 1 || filepath.Base(got[0]) != "copy.log" {
		t.Errorf("duplicates = %v, want copy.log", got)
	}
	if got := rep.Inputs.Files; len(got) != 3 {
		t.Errorf("files read = %v, want a.log, longer.log and shorter.log", got)
	}
}

const hdr = "[INFO] GE(77,python3):2026-08-12-10:21:33.%03d.000 [block_mem_assigner.cc:2914]78 SetOffsetSize:"

func setLine(ms int, graph, node string, off, size, real, begin, end int) string {
	return fmt.Sprintf(hdr+"[IMAS]Set %s name[%s] optype[Add] output[0] offset to [%d] streamid[0] memtype[2] size[%d] realsize[%d] noalignsize[%d] life time begin[%d] life time end[%d] child[0:1:0:0:1] isref[0] batch[], block_type[]",
		ms, graph, node, off, size, real, real-32, begin, end)
}

func afterLine(ms int, graph string, off int) string {
	return fmt.Sprintf(hdr+"[IMAS]AfterAssignMemory : %s memoffset[%d], memtype[2], theory_min[1024], zero_copy[0], total_size[1024], no_reuse[0], streams[1], topo_mode[DFS], mop[], io_reuse[0:0], alloc_mode[], smp[0]", ms, graph, off)
}

func TestRecompilationIsANewGraph(t *testing.T) {
	lines := []string{
		setLine(1, "g_1", "a", 0, 512, 480, 1, 2),
		setLine(2, "g_1", "b", 512, 512, 480, 2, 3),
		afterLine(3, "g_1", 1024),
		setLine(4, "g_1", "a", 0, 1024, 1000, 1, 2),
		afterLine(5, "g_1", 1024),
		afterLine(6, "g_1", 2048), // summary-only third compile
	}
	rep := run(t, input.BytesSource("p.log", []byte(strings.Join(lines, "\n"))))
	var names []string
	for _, g := range rep.Graphs {
		names = append(names, fmt.Sprintf("%s:%d:%d", g.Graph, g.Tensors, g.MemorySize))
	}
	if got := strings.Join(names, " "); got != "g_1:2:1024 g_1#2:1:1024 g_1#3:0:2048" {
		t.Errorf("graphs: %s", got)
	}
}

func TestRunAndDebugLogEventCountOnce(t *testing.T) {
	debug := strings.Join([]string{setLine(1, "g_1", "a", 0, 512, 480, 1, 2), afterLine(3, "g_1", 512)}, "\n")
	runlog := strings.Replace(afterLine(3, "g_1", 512), "2914]78 ", "2914][EVENT]78 ", 1)
	// Run log first: ordering by time must still attach the summary after the rows.
	rep := run(t, input.BytesSource("run/plog-77.log", []byte(runlog)), input.BytesSource("debug/plog-77.log", []byte(debug)))
	if len(rep.Graphs) != 1 || rep.Graphs[0].Graph != "g_1" || rep.Graphs[0].Tensors != 1 {
		for _, g := range rep.Graphs {
			t.Logf("graph %s tensors %d", g.Graph, g.Tensors)
		}
		t.Fatalf("want one graph g_1 with its row")
	}
	if rep.DiagSummary["duplicate-event"] != 1 {
		t.Errorf("duplicate events: %v", rep.DiagSummary)
	}
}

func TestHostileLinesNeverVanish(t *testing.T) {
	good := setLine(1, "g_1", "a", 0, 512, 480, 1, 2)
	// A row whose long node name makes GE's logger cut it at 1024
	// characters (counted from [file:line]) before isref[..].
	long := setLine(1, "g_1", "b"+strings.Repeat("x", 960), 0, 512, 480, 1, 2)
	cut := long[:strings.Index(long, " [")+1+1024]
	lines := []string{
		good,
		cut,                 // cut by the logger: rejected as truncated
		good[:len(good)-40], // complete as far as anyone can tell: missing-field
		"\x00\x01\x02 binary [IMAS] junk \xff\xfe",
		strings.Repeat("z", 200000) + "[IMAS]Set far away",
		"[INFO] GE(77,python3):2026-08-12-10:21:33.009.000 [x.cc:1]78 F:[IMAS]Set g_1 name[=cmd|' /C calc'!A0] optype[Add] output[0] offset to [512] streamid[0] memtype[2] size[512] realsize[480] noalignsize[448] life time begin[2] life time end[3] child[0:1:0:0:1] isref[0] batch[], block_type[]",
	}
	rep := run(t, input.BytesSource("h.log", []byte(strings.Join(lines, "\r\n"))))
	if len(rep.Graphs) != 1 || rep.Graphs[0].Tensors != 2 || rep.Graphs[0].Truncated != 1 {
		t.Fatalf("graphs %+v", rep.Graphs)
	}
	reasons := map[string]int{}
	for _, d := range rep.Diagnostics {
		reasons[d.Reason]++
	}
	if reasons["truncated"] != 1 || reasons["missing-field"] != 1 || reasons["bad-envelope"] != 1 || reasons["line-too-long"] != 1 {
		t.Errorf("diagnostics: %v", reasons)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := core.Analyze(ctx, []input.Source{input.BytesSource("x", []byte("a\n"))}, core.Options{})
	if err == nil {
		t.Fatal("cancelled run returned no error")
	}
}

// The diagnostics that compare figures with GE's summary point at its line.
func TestSummaryDiagnosticsNameTheLine(t *testing.T) {
	lines := []string{
		setLine(1, "g_1", "a", 0, 512, 480, 1, 2),
		afterLine(2, "g_1", 512),  // GE logged theory_min 1024, ge_total 1024: both differ
		afterLine(3, "g_2", 2048), // summary only
	}
	rep := run(t, input.BytesSource("p.log", []byte(strings.Join(lines, "\n"))))
	seen := map[string]int{}
	for _, d := range rep.Diagnostics {
		switch d.Reason {
		case "logged-mismatch", "summary-only":
			seen[d.Reason]++
			want := map[string]int64{"logged-mismatch": 2, "summary-only": 3}[d.Reason]
			if d.Path != "p.log" || d.Line != want {
				t.Errorf("%s at %s:%d, want p.log:%d (%s)", d.Reason, d.Path, d.Line, want, d.Detail)
			}
		}
	}
	if seen["logged-mismatch"] == 0 || seen["summary-only"] != 1 {
		t.Errorf("diagnostics %v", seen)
	}
}

// A line is truncated only where something cut it: the logger at its
// limit, or the end of a file that stops mid-line. The same short line in
// the middle of a file is complete: it lacks a field (missing-field), and
// the sanity notes do not blame the logger for it.
func TestTruncatedOnlyAtLimitOrFileEnd(t *testing.T) {
	good := setLine(1, "g_1", "a", 0, 512, 480, 1, 2)
	short := good[:strings.Index(good, " isref[")]
	for _, tc := range []struct {
		name, text, reason string
	}{
		{"mid-file", short + "\n" + good + "\n", "missing-field"},
		{"last line without newline", good + "\n" + short, "truncated"},
		{"last line with newline", good + "\n" + short + "\n", "missing-field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := run(t, input.BytesSource("t.log", []byte(tc.text)))
			var got []string
			for _, d := range rep.Diagnostics {
				got = append(got, d.Reason)
			}
			if len(got) != 1 || got[0] != tc.reason {
				t.Fatalf("diagnostics %v, want [%s]", got, tc.reason)
			}
			for _, n := range rep.Sanity.Notes {
				if strings.Contains(n, "1024") {
					t.Errorf("note blames the logger's limit: %s", n)
				}
			}
		})
	}
}
