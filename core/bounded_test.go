package core

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"imas/core/diag"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
	"imas/internal/gen"
)

// TestMergeKeepsLittle: plain files of one or many processes that log at
// the same time, and a file of lines without a time, are merged while they
// are read, and the parsed chunks waiting to be built stay about one per
// process, while a merge after the
// last file (the path of sources whose heads are unknown) holds them all.
// Both give the same report, in summary and in full. Files of several
// chunks are read side by side, a chunk per process waiting.
func TestMergeKeepsLittle(t *testing.T) {
	for _, prof := range []string{"large", "poolheavy", "ranks", "smallgraphs"} {
		t.Run(prof, func(t *testing.T) {
			p, err := gen.ProfileByName(prof, 0, 16<<20)
			if err != nil {
				t.Fatal(err)
			}
			p.RotateBytes = 192 << 10 // many files, a chunk each
			dir := t.TempDir()
			if _, err := gen.Generate(p, dir); err != nil {
				t.Fatal(err)
			}
			// Listed last, a memory line without a plog header: without a
			// time, it comes first in the merge.
			if err := os.WriteFile(filepath.Join(dir, "zz-copied.txt"), []byte("[IMAS]Set g name[n] output[0] offset to [0]\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			procs := max(1, len(p.Processes))
			srcs, _ := input.FromPaths([]string{dir})
			for _, summary := range []bool{true, false} {
				t.Run(fmt.Sprint("summary=", summary), func(t *testing.T) {
					got, held := analyzeHeld(t, srcs, Options{Summary: summary})
					want, all := analyzeHeld(t, srcs, Options{Summary: summary, alwaysMerge: true})
					sameReport(t, got, want)
					if held > procs+2 || 3*held > all {
						t.Errorf("%d files (%d processes): %d parsed chunks held at once, %d by the merge after the last file", len(srcs), procs, held, all)
					}
				})
			}
		})
	}
	t.Run("ranks, files of several chunks", mergeKeepsAChunkPerProcess)
}

// fourRanks writes a folder of four processes that log at the same time,
// each in files of four chunks (64 MiB in all), and returns it and the
// number of processes.
func fourRanks(t *testing.T) (string, int) {
	t.Helper()
	const procs, chunksPerFile = 4, 4
	p, err := gen.ProfileByName("ranks", 0, procs*chunksPerFile*input.ChunkSize)
	if err != nil {
		t.Fatal(err)
	}
	p.Processes = p.Processes[:procs]
	p.RotateBytes = chunksPerFile * input.ChunkSize
	dir := t.TempDir()
	if _, err := gen.Generate(p, dir); err != nil {
		t.Fatal(err)
	}
	return dir, procs
}

// mergeKeepsAChunkPerProcess: files of several chunks, of processes that
// log at the same time, are read side by side, so that what waits in the
// merge is about a chunk per process, not a file per process, and the
// report is the merge's after the last file.
func mergeKeepsAChunkPerProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MiB of logs")
	}
	dir, procs := fourRanks(t)
	srcs, _ := input.FromPaths([]string{dir})
	got, held := analyzeHeld(t, srcs, Options{Summary: true})
	want, all := analyzeHeld(t, srcs, Options{Summary: true, alwaysMerge: true})
	sameReport(t, got, want)
	if held > 2*procs || all < 2*held {
		t.Errorf("%d files of %d processes: %d parsed chunks held at once, %d by the merge after the last file", len(srcs), procs, held, all)
	}
	// A copy of a file is read whole before its hash tells it is one:
	// the full report still is the merge's.
	first, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	b, err := os.ReadFile(first[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "copy.log"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, _ = input.FromPaths([]string{dir})
	got, _ = analyzeHeld(t, srcs, Options{})
	want, _ = analyzeHeld(t, srcs, Options{alwaysMerge: true})
	sameReport(t, got, want)
	if len(got.Inputs.Duplicates) != 1 {
		t.Errorf("duplicates %v, want the copy", got.Inputs.Duplicates)
	}
}

// analyzeHeld is analyzePlanned that also returns the most parsed chunks
// held at once.
func analyzeHeld(t *testing.T, srcs []input.Source, opt Options) (*model.Report, int) {
	t.Helper()
	p, srcs := planned(t.Context(), srcs, opt)
	p.readAll(srcs)
	rep, err := p.finish()
	if err != nil {
		t.Fatal(err)
	}
	return rep, p.consumer.maxHeld
}

// TestFiguresOnlyEqualsSummary: a summary build that analyses each graph
// as soon as it is finished and lets its rows go (Options.FiguresOnly)
// gives the summary's report without the rows — the same figures,
// conflicts and diagnostics in the same order, and the same "imas total"
// text — while few graphs hold rows at once; also on the files merged
// after the last one (alwaysMerge) and on each real log.
func TestFiguresOnlyEqualsSummary(t *testing.T) {
	type run struct {
		name  string
		paths []string
		procs int
	}
	var runs []run
	for _, prof := range []string{"basic", "mixed", "conflicts", "pool", "hostile", "large", "poolheavy", "ranks", "smallgraphs"} {
		p, err := gen.ProfileByName(prof, 0, 12<<20)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := gen.Generate(p, dir); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run{prof, []string{dir}, len(p.Processes)})
	}
	for _, s := range []string{"basic", "conflicts", "mixed", "pool"} {
		runs = append(runs, run{"sample " + s, []string{"../testdata/samples/" + s}, 0})
	}
	// The real logs, where they are (reallogs_test.go requires them in CI).
	const realLogs = "../../shared/real-logs"
	ents, _ := os.ReadDir(realLogs)
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".log") || strings.HasSuffix(n, ".txt") {
			runs = append(runs, run{"real " + n, []string{filepath.Join(realLogs, n)}, 0})
		}
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			srcs, _ := input.FromPaths(r.paths)
			for _, merge := range []bool{false, true} {
				want, _ := analyzeHeld(t, srcs, Options{Summary: true, alwaysMerge: merge})
				p, srcs := planned(t.Context(), srcs, Options{Summary: true, FiguresOnly: true, alwaysMerge: merge})
				p.readAll(srcs)
				got, err := p.finish()
				if err != nil {
					t.Fatal(err)
				}
				var a, b bytes.Buffer
				export.WriteTotal(&a, want)
				export.WriteTotal(&b, got)
				if a.String() != b.String() {
					t.Errorf("merge %v: imas total differs:\n got %.2000s\nwant %.2000s", merge, b.String(), a.String())
				}
				kept := 0
				for _, g := range got.Graphs {
					if len(g.Rows) > 0 {
						kept++
					}
				}
				sameReport(t, figuresOnlyView(got), figuresOnlyView(want))
				open := p.consumer.built.MaxOpenGraphs()
				if limit := max(8, 6*r.procs); len(got.Graphs) >= 3*limit && open > limit {
					t.Errorf("merge %v: %d graphs, up to %d held rows at once (%d at the end)", merge, len(got.Graphs), open, kept)
				}
				if r.name == "smallgraphs" && got.DoneGraphs() < 3*max(8, 6*r.procs) {
					t.Errorf("smallgraphs: only %d graphs done, the bound checks nothing", got.DoneGraphs())
				}
			}
		})
	}
}

// figuresOnlyView is what a figures-only report keeps of a report: every
// graph (model.Report.AllGraphs) with its figures, conflicts and GE's mop
// and smp, but not its rows, continuous and atomic lines or other logged
// fields (model.GraphDone), and no regions, address checks nor list of
// device mallocs (their totals are kept).
func figuresOnlyView(rep *model.Report) *model.Report {
	v := *rep
	v.Regions, v.AddressChecks, v.Mallocs = []model.Region{}, []model.AddressCheck{}, []model.Malloc{}
	v.Graphs = nil
	for g := range rep.AllGraphs() {
		c := *g
		c.Rows, c.Reassign, c.AtomicPieces, c.AtomicClean, c.AppendWs = []model.Row{}, []model.Reassign{}, []model.AtomicPiece{}, nil, nil
		c.Logged = model.Logged{}
		for _, k := range []string{"mop", "smp"} {
			if val, ok := g.Logged.Get(k); ok {
				c.Logged = append(c.Logged, model.LoggedField{Key: k, Value: val})
			}
		}
		v.Graphs = append(v.Graphs, &c)
	}
	return &v
}

// TestFiguresOnlyWaitsForEverySummary: a compilation is finished only once
// each of its memory types has its summary, even when the process moved
// on to another graph in between: the late P2P summary still sets that
// graph's figures.
func TestFiguresOnlyWaitsForEverySummary(t *testing.T) {
	head := func(ms int) string {
		return fmt.Sprintf("[INFO] GE(4711,python3):2026-04-18-10:00:00.%03d.000 ", ms)
	}
	set := func(ms int, graph string, memtype int) string {
		return head(ms) + "[block_mem_assigner.cc:2914]4712 SetOffsetSize:[IMAS]Set " + graph + " name[op_a] optype[Add] output[0] offset to [0] streamid[0] memtype[" +
			fmt.Sprint(memtype) + "] size[2048] realsize[1696] noalignsize[1653] life time begin[1] life time end[7] child[0:1:0:0:1] isref[0] batch[], block_type[]\n"
	}
	summary := func(ms int, graph string, memtype, offset int) string {
		return head(ms) + "[graph_mem_assigner.cc:1664]4712 SetInputOffset:[IMAS]AfterAssignMemory : " + graph + " memoffset[" + fmt.Sprint(offset) + "], memtype[" +
			fmt.Sprint(memtype) + "], theory_min[2048], zero_copy[0], total_size[2048], no_reuse[0], streams[1], topo_mode[RDFS], mop[], io_reuse[0:0], alloc_mode[], smp[0]\n"
	}
	log := set(1, "ga", 2) + set(2, "ga", 16) + summary(3, "ga", 2, 4096) +
		set(4, "gb", 2) + summary(5, "ga", 16, 8192) + summary(6, "gb", 2, 2048) + set(7, "gc", 2)
	want, got := summaries(t, log)
	var a, b bytes.Buffer
	export.WriteTotal(&a, want)
	export.WriteTotal(&b, got)
	if a.String() != b.String() || !strings.Contains(a.String(), "8192") {
		t.Errorf("imas total:\n got %s\nwant (with ga's P2P memory size 8192) %s", b.String(), a.String())
	}
}

// TestFiguresOnlyReportsLateEdits: a cut line naming a finished graph makes
// it the process's current graph again, and an "after append ws" line
// then edits rows imas total let go: that is reported, not passed over.
func TestFiguresOnlyReportsLateEdits(t *testing.T) {
	head := func(ms int) string {
		return fmt.Sprintf("[INFO] GE(4711,python3):2026-04-18-10:00:00.%03d.000 ", ms)
	}
	set := func(ms int, graph string) string {
		return head(ms) + "[block_mem_assigner.cc:2914]4712 SetOffsetSize:[IMAS]Set " + graph +
			" name[op_a] optype[Add] output[0] offset to [0] streamid[0] memtype[2] size[2048] realsize[1696] noalignsize[1653] life time begin[1] life time end[7] child[0:1:0:0:1] isref[0] batch[], block_type[]\n"
	}
	summary := func(ms int, graph string) string {
		return head(ms) + "[graph_mem_assigner.cc:1664]4712 SetInputOffset:[IMAS]AfterAssignMemory : " + graph +
			" memoffset[2048], memtype[2], theory_min[2048], zero_copy[0], total_size[2048], no_reuse[0], streams[1], topo_mode[RDFS], mop[], io_reuse[0:0], alloc_mode[], smp[0]\n"
	}
	cut := set(4, "ga")
	cut = cut[:strings.Index(cut, "life time end")] + "life ti\n"
	log := set(1, "ga") + summary(2, "ga") + set(3, "gb") + cut +
		head(5) + "[davinci_model.cc:1]4712 F:[IMAS]after append ws, node op_a refresh output offset from [0] to [4096]\n" + summary(6, "gb")
	want, got := summaries(t, log)
	if want.DiagSummary[diag.Truncated] != 1 {
		t.Fatalf("the cut line is not read as cut: %v", want.DiagSummary)
	}
	if n := got.DiagSummary[diag.FinishedGraphEdited]; n != 1 || want.DiagSummary[diag.FinishedGraphEdited] != 0 {
		t.Errorf("finished-graph-edited: %d with FiguresOnly (want 1), %d without (want 0)", n, want.DiagSummary[diag.FinishedGraphEdited])
	}
}

// summaries analyses one log file as a summary, keeping rows (want) and
// letting them go (got).
func summaries(t *testing.T, log string) (want, got *model.Report) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plog-4711.log")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs := []input.Source{input.FileSource(path)}
	want, err := Analyze(t.Context(), srcs, Options{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err = Analyze(t.Context(), srcs, Options{Summary: true, FiguresOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	return want, got
}

// TestFiguresOnlyDevicePolicy: a process's static memory policy, when no
// line states it, is the smp[] of its last graph that printed a number,
// which may be a graph imas total finished and keeps as done.
func TestFiguresOnlyDevicePolicy(t *testing.T) {
	head := func(ms int) string {
		return fmt.Sprintf("[INFO] GE(4711,python3):2026-04-18-10:00:00.%03d.000 ", ms)
	}
	set := func(ms int, graph string) string {
		return head(ms) + "[block_mem_assigner.cc:2914]4712 SetOffsetSize:[IMAS]Set " + graph +
			" name[op_a] optype[Add] output[0] offset to [0] streamid[0] memtype[2] size[2048] realsize[1696] noalignsize[1653] life time begin[1] life time end[7] child[0:1:0:0:1] isref[0] batch[], block_type[]\n"
	}
	summary := func(ms int, graph, smp string) string {
		return head(ms) + "[graph_mem_assigner.cc:1664]4712 SetInputOffset:[IMAS]AfterAssignMemory : " + graph +
			" memoffset[2048], memtype[2], theory_min[2048], zero_copy[0], total_size[2048], no_reuse[0], streams[1], topo_mode[RDFS], mop[], io_reuse[0:0], alloc_mode[], smp[" + smp + "]\n"
	}
	malloc := head(5) + "[graph_var_manager.cc:1463]4712 MallocMemory:MallocMemory, func=aclrtMalloc, size=4096, purpose=Auto malloc var and constant op memory, ptr=0x12c000000000, device_id=0, module_id=45\n"
	log := set(1, "ga") + summary(2, "ga", "1") + set(3, "gb") + summary(4, "gb", "") + malloc
	want, got := summaries(t, log)
	if len(want.Devices) != 1 || want.Devices[0].StaticMemoryPolicy != 1 {
		t.Fatalf("the summary build gives devices %+v, want one of policy 1", want.Devices)
	}
	if got.DoneGraphs() != 1 {
		t.Fatalf("%d graphs done, want ga", got.DoneGraphs())
	}
	if len(got.Devices) != 1 || got.Devices[0].StaticMemoryPolicy != 1 {
		t.Errorf("figures-only: devices %+v, want one of policy 1", got.Devices)
	}
}
