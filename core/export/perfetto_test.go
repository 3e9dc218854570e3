package export_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"imas/core/analyze"
	"imas/core/export"
	"imas/core/model"
)

func TestPerfettoGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := export.WritePerfetto(&buf, sample(t, "basic")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "testdata", "golden", "perfetto", "basic.json")
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./core/export -update)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("trace differs from %s (run go test ./core/export -update after checking the diff)\n%s", path, firstDiff(buf.Bytes(), want))
	}
}

func TestPerfettoSamplesValid(t *testing.T) {
	for _, s := range []string{"basic", "mixed", "conflicts", "pool"} {
		t.Run(s, func(t *testing.T) {
			rep := sample(t, s)
			var buf bytes.Buffer
			if err := export.WritePerfetto(&buf, rep); err != nil {
				t.Fatal(err)
			}
			checkTrace(t, rep, buf.Bytes())
		})
	}
}

func TestPerfettoOutput(t *testing.T) {
	for _, o := range export.Outputs() {
		if o.Name == "imas_graph_perfetto.json" {
			return
		}
	}
	t.Error("export.Outputs() has no imas_graph_perfetto.json")
}

// TestPerfettoRows checks what becomes of each kind of row, and that
// hostile names survive the trip through JSON.
func TestPerfettoRows(t *testing.T) {
	hostile := "a\"b\\c\n</script><script>alert(1)</script>\x01\xff卷积"
	g := &model.Graph{PID: "7", Graph: "g\"0", MemType: 2, Rows: []model.Row{
		{Node: hostile, Kind: "output", Offset: 0, Size: 1024, RealSize: 544, LifeBegin: 1, LifeEnd: 3, Reuse: 1, Counted: true},
		{Node: "inplace", Kind: "output", Offset: 0, Size: 1024, RealSize: 544, LifeBegin: 2, LifeEnd: 5, IsRef: 1},
		{Node: "next", Kind: "output", Offset: 0, Size: 1024, RealSize: 800, LifeBegin: 4, LifeEnd: 6, Reuse: 1, Counted: true},
		{Node: "next", Kind: "output", Offset: 0, Size: 1024, RealSize: 800, LifeBegin: 7, LifeEnd: 7},
		{Node: "const", Kind: "output", Offset: 0, Size: 0, RealSize: 0, LifeBegin: 1, LifeEnd: model.LifeMax},
		{Node: "out", Kind: "output", Offset: 1024, Size: 512, RealSize: 64, LifeBegin: 2, LifeEnd: model.LifeDefault, ZeroCopy: 1, Counted: true},
		{Node: "ws", Kind: "workspace", Offset: 1536, Size: 512, RealSize: 96, LifeBegin: 6, LifeEnd: 6, Reuse: 1, Counted: true},
	}, Conflicts: []model.Conflict{{A: "next:output:0", B: "ws:workspace:0"}}}
	analyze.Figures(g)
	rep := &model.Report{Graphs: []*model.Graph{g}}
	var buf bytes.Buffer
	if err := export.WritePerfetto(&buf, rep); err != nil {
		t.Fatal(err)
	}
	evs := checkTrace(t, rep, buf.Bytes())
	type want struct {
		ts, dur int64
		cat     string
		flags   string
	}
	wants := map[string]want{
		strings.ToValidUTF8(hostile, "\uFFFD") + ":output:0": {1000, 3000, "tensor", "reuse"},
		"inplace:output:0": {2000, 4000, "alias", "isref overlap"},
		"next:output:0":    {4000, 3000, "tensor", "reuse conflict"},
		"out:output:0":     {2000, 5000, "tensor", "zero_copy to_end"}, // to step 6, the last finite one
		"ws:workspace:0":   {6000, 1000, "tensor", "reuse conflict"},
	}
	seen := map[string]int{}
	for _, e := range evs {
		if e.Ph != "X" {
			continue
		}
		key := e.Args.Tensor + e.Args.Alias
		if key != e.Name {
			t.Errorf("slice %q: args key %q", e.Name, key)
		}
		seen[e.Name]++
		if e.Name == "next:output:0" && e.Args.Alias != "" {
			if e.Cat != "alias" || e.Args.Flags != "repeat conflict" {
				t.Errorf("repeated row: cat %q flags %q, want alias, repeat conflict", e.Cat, e.Args.Flags)
			}
			continue
		}
		w, ok := wants[e.Name]
		if !ok {
			t.Errorf("unexpected slice %q", e.Name)
			continue
		}
		if e.TS != w.ts || e.Dur != w.dur || e.Cat != w.cat || e.Args.Flags != w.flags {
			t.Errorf("slice %q: ts %d dur %d cat %q flags %q, want %+v", e.Name, e.TS, e.Dur, e.Cat, e.Args.Flags, w)
		}
		if e.Args.Graph != g.Graph {
			t.Errorf("slice %q: graph %q", e.Name, e.Args.Graph)
		}
	}
	if seen["const:output:0"] != 0 || seen["next:output:0"] != 2 || len(seen) != 5 {
		t.Errorf("slices per name %v", seen)
	}
}

// TestPerfettoPool checks the runtime process on log time: async slices
// per allocation, the live counter (a free and an allocation at the same
// time do not add up), leaks, and device mallocs.
func TestPerfettoPool(t *testing.T) {
	const t0 = 830340000000000 // µs since 2000-01-01: 2026-04-24 10:00:00
	pl := &model.Pool{PID: "9", Allocator: "allocator_1", PeakLive: 150, Rows: []model.PoolRow{
		{Node: "a", Size: 100, RealSize: 90, Time: t0 + 10, FreeTime: t0 + 20},
		{Node: "b", Size: 100, RealSize: 80, Time: t0 + 20, FreeTime: t0 + 30},
		{Node: "leak", Size: 50, RealSize: 40, Time: t0 + 25},
		{Node: "untimed", Size: 999},
	}}
	rep := &model.Report{Pools: []*model.Pool{pl}, Mallocs: []model.Malloc{
		{PID: "9", Func: "aclrtMalloc", Purpose: "page caching", Category: "MemoryPool", Counted: true, Size: 2 << 20, Time: t0 + 5},
		{PID: "9", Func: "malloc", Purpose: "rt2 memory pool", Category: "MemoryPool", Size: 1 << 20, Time: t0 + 6},
	}}
	var buf bytes.Buffer
	if err := export.WritePerfetto(&buf, rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range checkTrace(t, rep, buf.Bytes()) {
		switch {
		case e.Ph == "M" && e.Name == "process_name":
			got = append(got, e.Args.Name)
		case e.Ph == "C" && e.Args.Live != nil:
			got = append(got, fmt.Sprintf("%s %d: live %d", e.Name, e.TS, *e.Args.Live))
		case e.Ph == "b" || e.Ph == "e":
			got = append(got, fmt.Sprintf("%s %d %s %s", e.Ph, e.TS, e.ID, e.Args.Node))
		case e.Ph == "i":
			got = append(got, fmt.Sprintf("i %d %s", e.TS, e.Name))
		}
	}
	want := []string{
		"pid 9 RT2 pools and device mallocs, log time from 2026-04-24 10:00:00.000005",
		"b 5 1 a", "e 15 1 ", "b 15 2 b", "e 25 2 ", "b 20 3 leak", "e 25 3 ",
		"pool allocator_1 5: live 100", "pool allocator_1 15: live 100", "pool allocator_1 20: live 150", "pool allocator_1 25: live 50",
		"i 0 page caching", "i 1 rt2 memory pool",
	}
	if !slices.Equal(got, want) {
		t.Errorf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPerfettoSynthetic checks the invariants on a trace of many blocks,
// lanes and aliases.
func TestPerfettoSynthetic(t *testing.T) {
	rep := synthReport(9000) // 1000 blocks, the last one living to the end
	var buf bytes.Buffer
	if err := export.WritePerfetto(&buf, rep); err != nil {
		t.Fatal(err)
	}
	checkTrace(t, rep, buf.Bytes())
}

// synthReport is one graph of n tensors: reuse chains of 8 tensors per
// block, each block with an in-place alias that overlaps its chain.
func synthReport(n int) *model.Report {
	g := &model.Graph{PID: "1", Graph: "synthetic_0", MemType: 2, Rows: make([]model.Row, 0, n)}
	for i := 0; len(g.Rows) < n; i++ {
		blk, j := i/9, i%9
		r := model.Row{Node: "op_" + strconv.Itoa(i), OpType: "Add", Kind: "output",
			Offset: int64(blk) * 4096, Size: 4096, RealSize: 4000, Stream: int64(blk % 4),
			LifeBegin: int64(blk%500 + 3*j + 1), Reuse: 1, SameStream: 1, Counted: true}
		r.LifeEnd = r.LifeBegin + 2
		if j == 8 {
			r.LifeBegin, r.LifeEnd = int64(blk%500+2), int64(blk%500+5)
			r.IsRef, r.Reuse, r.Counted = 1, 0, false
		}
		if blk%1000 == 999 {
			r.LifeEnd = model.LifeMax
		}
		g.Rows = append(g.Rows, r)
	}
	analyze.Figures(g)
	return &model.Report{Graphs: []*model.Graph{g}}
}

// traceEvent is what the checks read of an event.
type traceEvent struct {
	Ph   string `json:"ph"`
	TS   int64  `json:"ts"`
	Dur  int64  `json:"dur"`
	Pid  int64  `json:"pid"`
	Tid  int64  `json:"tid"`
	Name string `json:"name"`
	Cat  string `json:"cat"`
	ID   string `json:"id"`
	Args struct {
		Name       string           `json:"name"`
		SortIndex  *int64           `json:"sort_index"`
		Graph      string           `json:"graph"`
		PID        string           `json:"pid"`
		MemType    int64            `json:"memtype"`
		Tensor     string           `json:"tensor"`
		Alias      string           `json:"alias"`
		Flags      string           `json:"flags"`
		Reusable   *int64           `json:"reusable"`
		Live       *int64           `json:"live"`
		Node       string           `json:"node"`
		TheoryMin  *int64           `json:"theory_min"`
		AfterReuse *int64           `json:"after_reuse"`
		Held       map[string]int64 `json:"-"`
	} `json:"args"`
}

// UnmarshalJSON also keeps the args of "held" counters, whose keys are
// malloc categories.
func (e *traceEvent) UnmarshalJSON(b []byte) error {
	type plain traceEvent
	if err := json.Unmarshal(b, (*plain)(e)); err != nil {
		return err
	}
	if e.Ph == "C" && e.Name == "held" {
		var h struct{ Args map[string]int64 }
		if err := json.Unmarshal(b, &h); err != nil {
			return err
		}
		e.Args.Held = h.Args
	}
	return nil
}

// eventStart is how every event must begin: Perfetto's tokenizer reads
// the keys before "ts" with a parser that knows no \u escapes.
var eventStart = regexp.MustCompile(`^,?\{"ph":"[A-Za-z]","ts":-?[0-9]+[,}]`)

// checkTrace checks the trace of rep against the rules of the format and
// of imas, and returns its events.
func checkTrace(t *testing.T, rep *model.Report, data []byte) []traceEvent {
	t.Helper()
	var tr struct {
		TraceEvents []traceEvent      `json:"traceEvents"`
		Metadata    map[string]string `json:"metadata"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatalf("trace is not JSON: %v", err)
	}
	if !bytes.HasPrefix(data, []byte(`{"traceEvents":[`)) {
		t.Error(`trace does not start with {"traceEvents":[`)
	}
	if tr.Metadata["source"] != "imas" {
		t.Errorf("metadata %v", tr.Metadata)
	}
	lines := bytes.Split(data, []byte("\n"))
	for i, l := range lines[1 : len(lines)-3] {
		if !eventStart.Match(l) {
			t.Fatalf("line %d does not start an event with ph and ts: %.80s", i+2, l)
		}
	}

	type track struct{ pid, tid int64 }
	procName, procSort := map[int64]string{}, map[int64]bool{}
	threadName, threadSort := map[track]bool{}, map[track]bool{}
	for _, e := range tr.TraceEvents {
		if e.Ph != "M" {
			continue
		}
		switch e.Name {
		case "process_name":
			procName[e.Pid] = e.Args.Name
		case "process_sort_index":
			procSort[e.Pid] = e.Args.SortIndex != nil
		case "thread_name":
			threadName[track{e.Pid, e.Tid}] = e.Args.Name != ""
		case "thread_sort_index":
			threadSort[track{e.Pid, e.Tid}] = e.Args.SortIndex != nil
		}
	}
	type tensor struct {
		pid, graph string
		memtype    int64
		key        string
	}
	slicesOf := map[tensor]int{}
	pidOf := map[tensor]int64{}
	byTrack := map[track][]traceEvent{}
	live := map[int64]int64{} // process → peak live reusable bytes
	levels := map[int64][]traceEvent{}
	for _, e := range tr.TraceEvents {
		if procName[e.Pid] == "" || !procSort[e.Pid] {
			t.Fatalf("pid %d has no process_name or process_sort_index", e.Pid)
		}
		switch e.Ph {
		case "X":
			k := track{e.Pid, e.Tid}
			if !threadName[k] || !threadSort[k] {
				t.Fatalf("track %v has no thread_name or thread_sort_index", k)
			}
			if e.Dur <= 0 {
				t.Errorf("slice %q has duration %d", e.Name, e.Dur)
			}
			byTrack[k] = append(byTrack[k], e)
			if e.Args.Tensor != "" {
				id := tensor{e.Args.PID, e.Args.Graph, e.Args.MemType, e.Args.Tensor}
				slicesOf[id]++
				pidOf[id] = e.Pid
			}
		case "C":
			switch e.Name {
			case "live":
				if e.Args.Reusable == nil {
					t.Fatalf("live counter without reusable: %+v", e)
				}
				live[e.Pid] = max(live[e.Pid], *e.Args.Reusable)
			case "level":
				levels[e.Pid] = append(levels[e.Pid], e)
			}
		}
	}
	for k, evs := range byTrack {
		sort.Slice(evs, func(i, j int) bool { return evs[i].TS < evs[j].TS })
		for i := 1; i < len(evs); i++ {
			if p := evs[i-1]; evs[i].TS < p.TS+p.Dur {
				t.Errorf("track %v: %q [%d,+%d) overlaps %q at %d", k, p.Name, p.TS, p.Dur, evs[i].Name, evs[i].TS)
			}
		}
	}

	counted := 0
	for _, g := range rep.Graphs {
		pid := int64(-1)
		for i := range g.Rows {
			r := &g.Rows[i]
			if !r.Counted {
				continue
			}
			counted++
			// Invalid UTF-8 in names is written as U+FFFD.
			id := tensor{g.PID, g.Graph, g.MemType, strings.ToValidUTF8(r.Key(), "\uFFFD")}
			if n := slicesOf[id]; n != 1 {
				t.Errorf("%v: %d slices, want 1", id, n)
			}
			if pid < 0 {
				pid = pidOf[id]
			} else if pidOf[id] != pid {
				t.Errorf("%v: in process %d, the graph's other tensors in %d", id, pidOf[id], pid)
			}
		}
		if pid < 0 {
			continue // no tensors: nothing ties the graph to a process
		}
		if name := procName[pid]; !strings.HasPrefix(name, g.Graph+" ") || !strings.Contains(name, "pid "+g.PID) {
			t.Errorf("graph %s pid %s is drawn in process %q", g.Graph, g.PID, name)
		}
		if lv := levels[pid]; len(lv) == 0 || *lv[0].Args.TheoryMin != g.TheoryMin || *lv[0].Args.AfterReuse != g.AfterReuse {
			t.Errorf("graph %s: level counters %+v, want theory_min %d after_reuse %d", g.Graph, lv, g.TheoryMin, g.AfterReuse)
		}
		if got := live[pid] + g.NoReuse + g.Atomic; got != g.TheoryMin {
			t.Errorf("graph %s: peak live reusable %d + no_reuse + atomic = %d, theory_min is %d", g.Graph, live[pid], got, g.TheoryMin)
		}
	}
	if len(slicesOf) != counted {
		t.Errorf("%d slices carry args.tensor, %d tensors are counted", len(slicesOf), counted)
	}
	checkRuntime(t, rep, tr.TraceEvents, procName)
	return tr.TraceEvents
}

// checkRuntime checks the runtime processes: each timed pool allocation is
// one async slice of its allocator, the live counter peaks at the pool's
// peak_live, and each timed device malloc is one instant.
func checkRuntime(t *testing.T, rep *model.Report, evs []traceEvent, procName map[int64]string) {
	t.Helper()
	procOf := map[string]int64{}
	for pid, name := range procName {
		if lp, ok := strings.CutPrefix(name, "pid "); ok && strings.Contains(name, " RT2 pools ") {
			procOf[lp[:strings.IndexByte(lp, ' ')]] = pid
		}
	}
	type async struct {
		pid  int64
		name string
	}
	begins, ends := map[async]int{}, map[async]int{}
	open := map[string]int64{} // id → begin ts
	peak := map[async]int64{}
	instants := map[int64]int{}
	held := map[int64]map[string]int64{}
	for _, e := range evs {
		switch e.Ph {
		case "b":
			begins[async{e.Pid, e.Name}]++
			open[e.ID] = e.TS
		case "e":
			ends[async{e.Pid, e.Name}]++
			if ts, ok := open[e.ID]; !ok || ts > e.TS {
				t.Errorf("async %s ends at %d, begun at %d (%v)", e.ID, e.TS, ts, ok)
			}
			delete(open, e.ID)
		case "C":
			if a, ok := strings.CutPrefix(e.Name, "pool "); ok {
				k := async{e.Pid, a}
				peak[k] = max(peak[k], *e.Args.Live)
			}
			if e.Name == "held" {
				if held[e.Pid] == nil {
					held[e.Pid] = map[string]int64{}
				}
				for c, v := range e.Args.Held {
					held[e.Pid][c] = v
				}
			}
		case "i":
			instants[e.Pid]++
		}
	}
	if len(open) > 0 {
		t.Errorf("%d async slices never end", len(open))
	}
	for _, pl := range rep.Pools {
		timed := 0
		for _, r := range pl.Rows {
			if r.Time > 0 {
				timed++
			}
		}
		k := async{procOf[pl.PID], pl.Allocator}
		if begins[k] != timed || ends[k] != timed {
			t.Errorf("pool %s %s: %d begins, %d ends, want %d", pl.PID, pl.Allocator, begins[k], ends[k], timed)
		}
		if timed == len(pl.Rows) && timed > 0 && peak[k] != pl.PeakLive {
			t.Errorf("pool %s %s: live counter peaks at %d, peak_live is %d", pl.PID, pl.Allocator, peak[k], pl.PeakLive)
		}
	}
	wantInstants := map[int64]int{}
	wantHeld := map[int64]map[string]int64{}
	for _, m := range rep.Mallocs {
		if m.Time <= 0 {
			continue
		}
		pid := procOf[m.PID]
		wantInstants[pid]++
		if m.Counted {
			if wantHeld[pid] == nil {
				wantHeld[pid] = map[string]int64{}
			}
			wantHeld[pid][m.Category] += m.Size
		}
	}
	for pid, n := range wantInstants {
		if instants[pid] != n {
			t.Errorf("process %d: %d malloc instants, want %d", pid, instants[pid], n)
		}
		if !maps.Equal(held[pid], wantHeld[pid]) {
			t.Errorf("process %d: held %v at the end, want %v", pid, held[pid], wantHeld[pid])
		}
	}
}
