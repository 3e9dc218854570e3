package export_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"imas/core"
	"imas/core/analyze"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
)

// analysesGolden compares got with testdata/golden/analyses/name
// (go test ./core/export -update rewrites it).
func analysesGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", "analyses", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./core/export -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file (run go test ./core/export -update after checking the diff)\n%s", name, firstDiff(got, want))
	}
}

// variant analyses a bundled sample after edit has rewritten each log, as
// one run named name.
func variant(t *testing.T, sampleName, name string, edit func(string) string) *analyze.Run {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "samples", sampleName, "*.log"))
	var srcs []input.Source
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, input.BytesSource(filepath.Base(f), []byte(edit(string(b)))))
	}
	rep, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return analyze.RunOf(name, rep)
}

// replaceLines applies re → repl on the lines that contain marker.
func replaceLines(s, marker, re, repl string) string {
	rx := regexp.MustCompile(re)
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if strings.Contains(l, marker) {
			lines[i] = rx.ReplaceAllString(l, repl)
		}
	}
	return strings.Join(lines, "")
}

func same(s string) string { return s }

func TestCheckGolden(t *testing.T) {
	for _, tt := range []struct {
		sample   string
		findings int
	}{{"conflicts", 13}, {"basic", 0}} {
		var buf bytes.Buffer
		n, err := export.WriteCheck(&buf, sample(t, tt.sample))
		if err != nil {
			t.Fatal(err)
		}
		if n != tt.findings {
			t.Errorf("%s: %d findings, want %d", tt.sample, n, tt.findings)
		}
		analysesGolden(t, "check_"+tt.sample+".txt", buf.Bytes())
	}
}

func TestTotalListsConflicts(t *testing.T) {
	rep := sample(t, "conflicts")
	var buf bytes.Buffer
	if err := export.WriteTotal(&buf, rep); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	for _, g := range rep.Graphs {
		i := indexOf(lines, export.SummaryLine(g))
		if i < 0 || i+1 == len(lines) {
			t.Fatalf("%s: no summary line", g.Graph)
		}
		want := "  reuse conflicts: " + itoa(len(g.Conflicts)) + " "
		if len(g.Conflicts) == 0 || !strings.HasPrefix(lines[i+1], want) || !strings.Contains(lines[i+1], g.Conflicts[0].A+" × "+g.Conflicts[0].B) {
			t.Errorf("%s: line after the summary is %q", g.Graph, lines[i+1])
		}
		if strings.Contains(lines[i+1], "reuse rate") || strings.Contains(lines[i+1], "reuse_rate") {
			t.Errorf("the tuning script would take %q for a summary line", lines[i+1])
		}
	}
}

func indexOf(lines []string, s string) int {
	for i, l := range lines {
		if l == s {
			return i
		}
	}
	return -1
}

func TestPeakGolden(t *testing.T) {
	for _, s := range []string{"basic", "mixed"} {
		var buf bytes.Buffer
		if err := export.WritePeak(&buf, sample(t, s), 10); err != nil {
			t.Fatal(err)
		}
		analysesGolden(t, "peak_"+s+".md", buf.Bytes())
	}
}

// newBasic is the basic sample as a later run: graph 0 got a new id,
// sub_15's output 1 grew, matmul_20 is gone, cast_99 is new, graph 1 takes
// 512 KiB more and graph 2 was sorted DFS.
func newBasic(s string) string {
	s = strings.ReplaceAll(s, "kernel_graph0_1", "kernel_graph0_9")
	s = replaceLines(s, "name[sub_15] optype[Sub] output[1]", `realsize\[581472\]`, "realsize[981472]")
	s = replaceLines(s, "name[sub_15] optype[Sub] output[1]", `size\[581632\]`, "size[981504]")
	s = replaceLines(s, "kernel_graph1_2 name[matmul_20]", `.*\n`, "")
	s = replaceLines(s, "AfterAssignMemory : kernel_graph1_2", `memoffset\[4932096\]`, "memoffset[5456384]")
	s = replaceLines(s, "AfterAssignMemory : kernel_graph2_3", `topo_mode\[RDFS\]`, "topo_mode[DFS]")
	return addCast99(s)
}

// addCast99 repeats sub_15's output 0 line of graph 1 as a new tensor.
func addCast99(s string) string {
	rx := regexp.MustCompile(`(?m)^.*kernel_graph1_2 name\[sub_15\] optype\[Sub\] output\[0\].*$`)
	line := rx.FindString(s)
	if line == "" {
		return s
	}
	extra := strings.Replace(strings.Replace(line, "name[sub_15] optype[Sub]", "name[cast_99] optype[Cast]", 1), "offset to [301568]", "offset to [5000000]", 1)
	return strings.Replace(s, line, line+"\n"+extra, 1)
}

func TestDiffGolden(t *testing.T) {
	old := variant(t, "basic", "run1/basic", same)
	new := variant(t, "basic", "run2/basic", newBasic)
	d := analyze.Diff(old, new)
	var txt, js bytes.Buffer
	if err := export.WriteDiff(&txt, d); err != nil {
		t.Fatal(err)
	}
	if err := export.WriteDiffJSON(&js, d); err != nil {
		t.Fatal(err)
	}
	analysesGolden(t, "diff_basic.txt", txt.Bytes())
	analysesGolden(t, "diff_basic.json", js.Bytes())
	if len(d.Graphs) != 3 || d.Graphs[0].MatchBy != "base name" || d.Graphs[1].Counts != (analyze.ChangeCounts{Added: 1, Removed: 1, Resized: 1, AddedBytes: 317760, RemovedBytes: -2240, ResizedBytes: 400000}) {
		t.Errorf("diff: %+v", d.Graphs)
	}
}

func TestCompareGolden(t *testing.T) {
	topo := func(mode, mop string, grow int64) func(string) string {
		return func(s string) string {
			s = replaceLines(s, "AfterAssignMemory", `topo_mode\[\w*\]`, "topo_mode["+mode+"]")
			s = replaceLines(s, "AfterAssignMemory", `mop\[\]`, "mop["+mop+"]")
			return replaceLines(s, "AfterAssignMemory : kernel_graph2_3", `memoffset\[12662272\]`, "memoffset["+itoa(int(12662272+grow))+"]")
		}
	}
	c := analyze.Compare([]*analyze.Run{
		variant(t, "basic", "sweep/topo0_mopdefault.log", topo("BFS", "", 1<<20)),
		variant(t, "basic", "sweep/topo2_mopMemoryPriority.log", topo("RDFS", "MemoryPriority", -1<<20)),
		variant(t, "basic", "sweep/topo2_mopdefault.log", topo("RDFS", "", -1<<20)),
		variant(t, "basic", "sweep/topo1_mopdefault.log", topo("DFS", "", 0)),
	})
	var buf bytes.Buffer
	if err := export.WriteCompare(&buf, c); err != nil {
		t.Fatal(err)
	}
	analysesGolden(t, "compare_basic.md", buf.Bytes())
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 1024: "1024", 1025: "1025 (1.00K)", 1049088: "1049088 (1.00M)", -2048: "-2048 (-2.00K)"} {
		if got := export.SizeText(n); got != want {
			t.Errorf("SizeText(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestPeakNames: names keep their ':' and escape '|' in the table.
func TestPeakNames(t *testing.T) {
	g := &model.Graph{PID: "1", Graph: "g_0", MemType: 2, Rows: []model.Row{{Node: "scope:a|b", OpType: "Add", Kind: "workspace", Index: 2,
		Size: 512, RealSize: 512, LifeBegin: 1, LifeEnd: model.LifeMax, Reuse: 1, Counted: true}}}
	g.Peak = analyze.Peak(g, 10)
	var buf bytes.Buffer
	if err := export.WritePeak(&buf, &model.Report{Graphs: []*model.Graph{g}}, 10); err != nil {
		t.Fatal(err)
	}
	if want := `| 1 | scope:a\|b | workspace_2 | 0 | 512 | 1→∞ | 1:0:0:0 | Add |  |`; !strings.Contains(buf.String(), want) {
		t.Errorf("got\n%s\nwant a line %s", buf.String(), want)
	}
}
