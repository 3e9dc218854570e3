package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"imas/core/input"
	"imas/core/model"
	"imas/internal/gen"
)

func samples(t *testing.T, name string) []input.Source {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "samples", name, "plog-*.log"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sample %s: %v", name, err)
	}
	var srcs []input.Source
	for _, f := range files {
		srcs = append(srcs, input.FileSource(f))
	}
	return srcs
}

func analyzed(t *testing.T, name string) *Session {
	t.Helper()
	s := NewSession()
	if _, err := s.Analyze(context.Background(), SlotRun, samples(t, name), nil); err != nil {
		t.Fatal(err)
	}
	return s
}

// withRows returns graph i of the run of s with its rows, read back from
// the run's store.
func withRows(t *testing.T, s *Session, i int) *model.Graph {
	t.Helper()
	rep := s.Run(SlotRun).Report
	g, err := rep.WithRows(rep.Graphs[i])
	if err != nil {
		t.Fatal(err)
	}
	return g
}

type truth struct {
	Graphs []struct {
		PID        int64    `json:"pid"`
		Graph      string   `json:"graph"`
		MemType    int64    `json:"memtype"`
		MemorySize int64    `json:"memory_size"`
		Tensors    int64    `json:"tensors"`
		Conflicts  [][]any  `json:"conflicts"`
		Keys       []string `json:"tensor_keys"`
	} `json:"graphs"`
}

func readTruth(t *testing.T, name string) truth {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "samples", name, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tr truth
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestViewMatchesTruthAndIsTrimmed(t *testing.T) {
	for _, name := range []string{"basic", "mixed", "conflicts"} {
		t.Run(name, func(t *testing.T) {
			s := analyzed(t, name)
			v, err := s.View(SlotRun)
			if err != nil {
				t.Fatal(err)
			}
			// The view travels as JSON; check what the UI decodes.
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var got View
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			tr := readTruth(t, name)
			for _, want := range tr.Graphs {
				i := slices.IndexFunc(got.Report.Graphs, func(g *model.Graph) bool {
					return g.PID == strconv.FormatInt(want.PID, 10) && g.Graph == want.Graph && g.MemType == want.MemType
				})
				if i < 0 {
					t.Fatalf("graph %d/%s/%d missing", want.PID, want.Graph, want.MemType)
				}
				g := got.Report.Graphs[i]
				if g.MemorySize != want.MemorySize || g.Tensors != want.Tensors {
					t.Errorf("%s: memory_size %d tensors %d, want %d %d", want.Graph, g.MemorySize, g.Tensors, want.MemorySize, want.Tensors)
				}
				if len(g.Rows)+len(g.Conflicts) != 0 || g.Peak != nil || g.Waste != nil || g.Live != nil {
					t.Errorf("%s: view carries per-graph lists; the UI asks for them per graph", want.Graph)
				}
				if got.Counts[i].Rows != len(withRows(t, s, i).Rows) || got.Counts[i].Rows == 0 {
					t.Errorf("%s: row count %d", want.Graph, got.Counts[i].Rows)
				}
			}
			if len(got.Outputs) == 0 || !slices.ContainsFunc(got.Outputs, func(o OutputInfo) bool { return o.Name == "report.json" }) {
				t.Errorf("outputs %v lack report.json", got.Outputs)
			}
		})
	}
}

func TestGraphCapsLists(t *testing.T) {
	s := analyzed(t, "conflicts")
	g := s.Run(SlotRun).Report.Graphs[0]
	for len(g.Conflicts) <= CapConflicts {
		g.Conflicts = append(g.Conflicts, model.Conflict{A: "a", B: "b"})
	}
	full := len(g.Conflicts)
	got, err := s.Graph(SlotRun, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Conflicts) != CapConflicts || len(got.Rows) != 0 || got.MemorySize != g.MemorySize {
		t.Errorf("graph: %d conflicts, %d rows", len(got.Conflicts), len(got.Rows))
	}
	if withRows(t, s, 0).Live == nil || got.Live != nil {
		t.Errorf("graph: live curve %v in the report, %v in the answer; want one in the report only (the map carries it)", g.Live != nil, got.Live != nil)
	}
	if len(g.Conflicts) != full {
		t.Error("Graph changed the session's report")
	}
	if _, err := s.Graph(SlotRun, len(s.Run(SlotRun).Report.Graphs)); err == nil {
		t.Error("graph out of range accepted")
	}
}

func TestViewCapsLongLists(t *testing.T) {
	s := analyzed(t, "mixed")
	rep := s.Run(SlotRun).Report
	for i := 0; i < CapDiagnostics+7; i++ {
		rep.Diagnostics = append(rep.Diagnostics, model.Diagnostic{Reason: "test"})
	}
	vs := rep.Variables[0]
	for len(vs.Rows) <= CapNested+3 {
		vs.Rows = append(vs.Rows, model.VarRow{Name: "v"})
	}
	full, rows := len(rep.Diagnostics), len(vs.Rows)
	v, err := s.View(SlotRun)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Report.Diagnostics) != CapDiagnostics || v.Diags != full {
		t.Errorf("diagnostics %d of %d, want %d of %d", len(v.Report.Diagnostics), v.Diags, CapDiagnostics, full)
	}
	sec := gjson.ParseBytes(v.Sections)
	if sec.Get("graphs").Exists() || sec.Get("diagnostics").Exists() || !sec.Get("device_malloc").IsArray() {
		t.Errorf("sections hold %s", sec.Get("@keys").Raw)
	}
	cut := sec.Get("variables.0.rows")
	if n := cut.Get("#").Int(); n != CapNested+1 || cut.Get("20._more").Int() != int64(rows-CapNested) {
		t.Errorf("variable rows: %d items, last %s; want %d and {\"_more\":%d}", n, cut.Get("20").Raw, CapNested+1, rows-CapNested)
	}
	if len(rep.Diagnostics) != full || len(vs.Rows) != rows || rep.RowCount(rep.Graphs[0]) == 0 {
		t.Error("View changed the session's report")
	}
}

// TestViewSectionsAsWhole checks the sections, whose lists are cut before
// marshaling, against cutting the whole report's JSON: on the samples as
// they are, and with lists longer than the caps at both levels.
func TestViewSectionsAsWhole(t *testing.T) {
	for _, name := range []string{"basic", "mixed", "conflicts", "pool"} {
		s := analyzed(t, name)
		checkSections(t, name, s)
	}
	// The large profile's address checks hold thousands of rows each.
	log, err := gen.Log("large", 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	large := NewSession()
	if _, err := large.Analyze(context.Background(), SlotRun, []input.Source{input.BytesSource("large.log", log)}, nil); err != nil {
		t.Fatal(err)
	}
	if v := checkSections(t, "large", large); !strings.Contains(string(v.Sections), `"rows":[`) || !strings.Contains(string(v.Sections), `_more`) {
		t.Error("the large profile's sections have no cut rows")
	}
	s := analyzed(t, "mixed")
	rep := s.Run(SlotRun).Report
	for len(rep.AddressChecks) <= CapList+5 {
		// Some checks hold more rows than CapNested, some fewer.
		n := len(rep.AddressChecks)
		rep.AddressChecks = append(rep.AddressChecks, model.AddressCheck{PID: fmt.Sprint("a", n),
			Invalid: make([]model.BadAddress, n%30), Rows: make([]model.AddrRow, n%(3*CapNested))})
	}
	vs := rep.Variables[0] // a list of pointers
	for len(vs.Rows) <= CapNested+3 {
		vs.Rows = append(vs.Rows, model.VarRow{Name: fmt.Sprint("v", len(vs.Rows))})
	}
	rows := len(vs.Rows)
	rep.Regions = rep.Regions[:0] // an empty list stays []
	rep.Pools = nil               // a nil one null
	full := len(rep.AddressChecks)
	v := checkSections(t, "mixed, long lists", s)
	if m := gjson.GetBytes(v.Sections, fmt.Sprintf("address_checks.%d._more", CapList)).Int(); m != int64(full-CapList) {
		t.Errorf("address_checks cut: _more %d, want %d", m, full-CapList)
	}
	if len(rep.AddressChecks) != full || len(vs.Rows) != rows || len(rep.AddressChecks[CapNested+5].Rows) != CapNested+5 {
		t.Error("View changed the session's report")
	}
}

// checkSections compares the view's sections with the whole report's JSON
// cut by capJSON.
func checkSections(t *testing.T, name string, s *Session) *View {
	t.Helper()
	rep := s.Run(SlotRun).Report
	v, err := s.View(SlotRun)
	if err != nil {
		t.Fatal(err)
	}
	rest := *rep
	rest.Graphs, rest.Diagnostics = nil, nil
	raw, err := json.Marshal(&rest)
	if err != nil {
		t.Fatal(err)
	}
	var whole bytes.Buffer
	whole.WriteByte('{')
	gjson.ParseBytes(raw).ForEach(func(k, val gjson.Result) bool {
		if !typedKeys[k.String()] {
			if whole.Len() > 1 {
				whole.WriteByte(',')
			}
			whole.WriteString(k.Raw + ":")
			capJSON(&whole, val, CapList, CapNested)
		}
		return true
	})
	whole.WriteByte('}')
	if got, want := v.Sections, whole.Bytes(); !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		from := max(0, i-120)
		t.Errorf("%s: sections differ from the cut whole report at byte %d:\n got …%.240s\nwant …%.240s", name, i, got[from:], want[from:])
	}
	return v
}

func TestTensorsFilterSortPage(t *testing.T) {
	s := analyzed(t, "basic")
	g := withRows(t, s, 0)
	all, err := s.Tensors(TensorQuery{Slot: SlotRun, PageSize: 10, Focus: -1})
	if err != nil {
		t.Fatal(err)
	}
	if all.Rows != len(g.Rows) || all.Match != len(g.Rows) || len(all.Items) != 10 || all.Pages != (len(g.Rows)+9)/10 {
		t.Fatalf("unfiltered page: %+v", all)
	}
	if all.Items[0].I != 0 || all.Items[0].Node != g.Rows[0].Node {
		t.Errorf("log order: first item %d %s", all.Items[0].I, all.Items[0].Node)
	}

	bySize, err := s.Tensors(TensorQuery{Slot: SlotRun, Sort: "size", Desc: true, PageSize: MaxPageSize, Focus: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSortedFunc(bySize.Items, func(a, b TensorRow) int { return int(b.Size - a.Size) }) {
		t.Error("not sorted by size, descending")
	}

	op := g.Rows[0].OpType
	f, err := s.Tensors(TensorQuery{Slot: SlotRun, OpType: strings.ToUpper(op[:3]), MinSize: 1024, Flags: []string{"counted"}, PageSize: 500, Focus: -1})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, r := range g.Rows {
		if strings.Contains(strings.ToLower(r.OpType), strings.ToLower(op[:3])) && r.Size >= 1024 && r.Counted {
			want++
		}
	}
	if f.Match != want || want == 0 {
		t.Errorf("filtered %d rows, want %d", f.Match, want)
	}

	last := len(g.Rows) - 1
	foc, err := s.Tensors(TensorQuery{Slot: SlotRun, PageSize: 10, Focus: last})
	if err != nil {
		t.Fatal(err)
	}
	if foc.Page != foc.Pages-1 || foc.Items[len(foc.Items)-1].I != last {
		t.Errorf("focus on row %d gave page %d of %d", last, foc.Page, foc.Pages)
	}

	for _, bad := range []TensorQuery{{Slot: SlotRun, Sort: "nope"}, {Slot: SlotRun, Stream: "x"}, {Slot: SlotRun, Flags: []string{"nope"}}, {Slot: SlotBase}} {
		if _, err := s.Tensors(bad); err == nil {
			t.Errorf("query %+v: no error", bad)
		}
	}
}

func TestTensorsConflictFlag(t *testing.T) {
	s := analyzed(t, "conflicts")
	tr := readTruth(t, "conflicts")
	for gi, g := range s.Run(SlotRun).Report.Graphs {
		want := map[string]bool{}
		for _, c := range g.Conflicts {
			want[c.A], want[c.B] = true, true
		}
		p, err := s.Tensors(TensorQuery{Slot: SlotRun, Graph: gi, Flags: []string{"conflict"}, PageSize: MaxPageSize, Focus: -1})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, it := range p.Items {
			if !it.Conflict {
				t.Errorf("row %s listed without the conflict mark", it.Key())
			}
			got[it.Key()] = true
		}
		if len(got) != len(want) {
			t.Errorf("graph %s: %d conflicting keys, want %d", g.Graph, len(got), len(want))
		}
	}
	n := 0
	for _, g := range tr.Graphs {
		n += len(g.Conflicts)
	}
	if n == 0 {
		t.Fatal("sample has no conflicts")
	}
}

// decodeMap reads the buffer the way ui/web/memmap.js does.
type rectOut struct {
	x0, x1, y0, y1            float64
	row, color, flags, stream int32
	label                     string
}

func decodeMap(t *testing.T, n int, b []byte) []rectOut {
	t.Helper()
	le := binary.LittleEndian
	if len(b) < 52*n+4 {
		t.Fatalf("buffer of %d bytes for %d rects", len(b), n)
	}
	text := b[52*n+4:]
	out := make([]rectOut, n)
	for k := range out {
		f := func(j int) float64 { return math.Float64frombits(le.Uint64(b[32*k+8*j:])) }
		in := func(j int) int32 { return int32(le.Uint32(b[32*n+16*k+4*j:])) }
		lo, hi := le.Uint32(b[48*n+4*k:]), le.Uint32(b[48*n+4*k+4:])
		out[k] = rectOut{f(0), f(1), f(2), f(3), in(0), in(1), in(2), in(3), string(text[lo:hi])}
	}
	return out
}

func TestMapBuffer(t *testing.T) {
	s := analyzed(t, "conflicts")
	for gi := range s.Run(SlotRun).Report.Graphs {
		g := withRows(t, s, gi)
		meta, buf, err := s.Map(SlotRun, gi, "optype")
		if err != nil {
			t.Fatal(err)
		}
		if meta.N != len(g.Rows) || len(meta.Legend) == 0 || len(meta.Legend) > MapColors {
			t.Fatalf("meta %+v", meta)
		}
		rects := decodeMap(t, meta.N, buf)
		seen := map[int32]bool{}
		conflictSeen := false
		for _, r := range rects {
			row := g.Rows[r.row]
			seen[r.row] = true
			if r.y0 != float64(row.Offset) || r.y1 != float64(row.Offset+row.Size) || r.x0 != float64(row.LifeBegin) || r.x1 <= r.x0 {
				t.Fatalf("rect %+v for row %+v", r, row)
			}
			if r.label != row.Key()+"\n"+row.OpType {
				t.Fatalf("label %q for %s", r.label, row.Key())
			}
			if r.flags&FlagConflict != 0 {
				conflictSeen = true
			} else if conflictSeen {
				t.Fatal("a conflict rect is not drawn last")
			}
			if int(r.color) >= len(meta.Legend) || (meta.Legend[r.color] != row.OpType && meta.Legend[r.color] != "other") {
				t.Fatalf("colour %d for op %s, legend %v", r.color, row.OpType, meta.Legend)
			}
			if r.x1 > float64(meta.MaxStep) || r.y1 > float64(meta.MaxOffset) {
				t.Fatalf("rect %+v beyond extent %d×%d", r, meta.MaxStep, meta.MaxOffset)
			}
		}
		if len(seen) != len(g.Rows) {
			t.Errorf("%d distinct rows drawn of %d", len(seen), len(g.Rows))
		}
		if conflictSeen != (len(g.Conflicts) > 0) {
			t.Errorf("graph %s: conflicts %d, conflict rects %v", g.Graph, len(g.Conflicts), conflictSeen)
		}
		if meta.PeakStep < 0 && g.Tensors > 0 {
			t.Errorf("graph %s: no peak step", g.Graph)
		}
	}
}

func TestMapStreamsAndHostileNames(t *testing.T) {
	s := NewSession()
	line := `[INFO] GE(7,python3):2026-04-18-10:00:00.927.044 [block_mem_assigner.cc:2914]8 SetOffsetSize:[IMAS]Set g1 name[<img src=x onerror=alert(1)>] optype[Op"<b>] output[0] offset to [0] streamid[3] memtype[2] size[512] realsize[100] noalignsize[90] life time begin[1] life time end[4294967295] child[0:1:0:0:1] isref[0] batch[], block_type[]` + "\n"
	if _, err := s.Analyze(context.Background(), SlotRun, []input.Source{input.BytesSource("h.log", []byte(line))}, nil); err != nil {
		t.Fatal(err)
	}
	meta, buf, err := s.Map(SlotRun, 0, "stream")
	if err != nil {
		t.Fatal(err)
	}
	r := decodeMap(t, 1, buf)[0]
	if meta.Legend[0] != "3" || r.stream != 3 || r.flags&FlagForever == 0 || r.x1 != 2 {
		t.Errorf("meta %+v rect %+v", meta, r)
	}
	if r.label != "<img src=x onerror=alert(1)>:output:0\nOp\"<b>" {
		t.Errorf("label %q: names must travel verbatim (the page escapes them)", r.label)
	}
}

func TestTensorDetail(t *testing.T) {
	s := analyzed(t, "conflicts")
	g := s.Run(SlotRun).Report.Graphs
	for gi := range g {
		if len(g[gi].Conflicts) == 0 {
			continue
		}
		c := g[gi].Conflicts[0]
		i := slices.IndexFunc(withRows(t, s, gi).Rows, func(r model.Row) bool { return r.Key() == c.A })
		d, err := s.Tensor(SlotRun, gi, i)
		if err != nil {
			t.Fatal(err)
		}
		if d.Key != c.A || len(d.Conflicts) == 0 || d.SharesAll == 0 {
			t.Errorf("detail of %s: %d conflicts, %d sharing", c.A, len(d.Conflicts), d.SharesAll)
		}
		if !slices.ContainsFunc(d.Shares, func(r TensorRow) bool { return r.Key() == c.B }) && d.SharesAll <= CapShares {
			t.Errorf("%s does not list %s as sharing its addresses", c.A, c.B)
		}
		return
	}
	t.Fatal("no conflict in the sample")
}

func TestOutputsAndReportRoundTrip(t *testing.T) {
	s := analyzed(t, "mixed")
	v, _ := s.View(SlotRun)
	for _, o := range v.Outputs {
		b, mime, err := s.Output(SlotRun, o.Name)
		if err != nil || mime != o.Mime || len(b) == 0 && (o.Name == "report.json" || o.Name == "imas_mem_graph.csv") {
			t.Errorf("%s: %d bytes, %q, %v", o.Name, len(b), mime, err)
		}
	}
	if _, _, err := s.Output(SlotRun, "../etc/passwd"); err == nil {
		t.Error("unknown output name accepted")
	}
	js, _, err := s.Output(SlotRun, "report.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Analyze(context.Background(), SlotBase, []input.Source{input.BytesSource("saved/report.json", js)}, nil); err != nil {
		t.Fatal(err)
	}
	base, run := s.Run(SlotBase), s.Run(SlotRun)
	if !base.Loaded || len(base.Report.Graphs) != len(run.Report.Graphs) || base.Report.Graphs[0].MemorySize != run.Report.Graphs[0].MemorySize {
		t.Error("report.json did not load back")
	}
	if _, err := s.Analyze(context.Background(), SlotBase, []input.Source{input.BytesSource("x.json", []byte(`{"schema":"other"}`))}, nil); err == nil {
		t.Error("foreign JSON accepted as a report")
	}
	if !bytes.Contains(js, []byte(`"schema"`)) {
		t.Error("report.json lacks its schema")
	}
}

func TestAnalyzeCancelled(t *testing.T) {
	s := NewSession()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Analyze(ctx, SlotRun, samples(t, "basic"), nil); err == nil {
		t.Fatal("cancelled analysis returned a report")
	}
	if s.Run(SlotRun) != nil {
		t.Error("cancelled analysis left a run")
	}
}

func TestDiffWithSavedBaseline(t *testing.T) {
	s := analyzed(t, "conflicts")
	if _, err := s.Diff(); err == nil {
		t.Fatal("diff without a baseline")
	}
	js, _, err := s.Output(SlotRun, "report.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Analyze(context.Background(), SlotBase, []input.Source{input.BytesSource("old/report.json", js)}, nil); err != nil {
		t.Fatal(err)
	}
	d, err := s.Diff()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Graphs) != len(s.Run(SlotRun).Report.Graphs) || len(d.OnlyOld)+len(d.OnlyNew) != 0 || d.Old != "old/report.json" {
		t.Fatalf("diff of a run with its own report: %+v", d)
	}
	for _, g := range d.Graphs {
		for _, f := range g.Figures {
			if f.Delta != 0 {
				t.Errorf("%s %s changed by %v against itself", g.New.Graph, f.Name, f.Delta)
			}
		}
	}
}

func TestPoolMap(t *testing.T) {
	s := analyzed(t, "pool")
	pools := s.Run(SlotRun).Report.Pools
	if len(pools) == 0 {
		t.Fatal("no pools in the pool sample")
	}
	for i, p := range pools {
		meta, buf, err := s.PoolMap(SlotRun, i)
		if err != nil {
			t.Fatal(err)
		}
		if meta.N != len(p.Rows) || meta.Subject != "pool" || meta.PeakLive != p.PeakLive || meta.Base <= 0 ||
			meta.Clock != "time" || meta.TimeOrigin <= 0 {
			t.Fatalf("pool %s: meta %+v", p.Allocator, meta)
		}
		leaked := 0
		for _, r := range decodeMap(t, meta.N, buf) {
			row := p.Rows[r.row]
			// x is log time: from the allocation to the free, or to the
			// view's end (one µs past the pool's last event) for a leak.
			x1 := float64(row.FreeTime - meta.TimeOrigin)
			if !row.KernelFree {
				x1 = float64(meta.MaxStep - 1)
			}
			if r.x0 != float64(row.Time-meta.TimeOrigin) || r.x0 < 0 || r.x1 != x1 || r.x1 < r.x0 ||
				r.y1-r.y0 != float64(row.Size) || r.y0 < 0 || r.y1 > float64(meta.MaxOffset) {
				t.Fatalf("rect %+v for %+v (origin %d)", r, row, meta.TimeOrigin)
			}
			if r.label != row.Node+" @"+row.Address+"\n"+row.Kernel {
				t.Fatalf("label %q", r.label)
			}
			if r.flags&FlagForever != 0 {
				leaked++
			}
		}
		if int64(leaked) != p.Leaked {
			t.Errorf("pool %s: %d rects run to the end, %d leaked", p.Allocator, leaked, p.Leaked)
		}
	}
	if _, _, err := s.PoolMap(SlotRun, len(pools)); err == nil {
		t.Error("pool out of range accepted")
	}
}
