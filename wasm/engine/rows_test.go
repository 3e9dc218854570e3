package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"imas/core"
	"imas/core/analyze"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
	"imas/core/rowpack"
	"imas/internal/driver"
	"imas/internal/gen"
)

// inMemory returns a session whose runs hold their rows in memory, as
// the reports of the analysis are without a store: the reference the
// session's answers from encoded rows must equal.
func inMemory(t *testing.T, runs map[string][]input.Source) *Session {
	t.Helper()
	s := NewSession()
	for slot, srcs := range runs {
		rep, origin, err := driver.Load(context.Background(), srcs, driver.Report, core.Options{})
		if err != nil {
			t.Fatal(err)
		}
		run := &Run{Report: rep, Rows: rowpack.New(), Loaded: origin == driver.FromSavedReport}
		for _, src := range srcs {
			run.Inputs = append(run.Inputs, src.Name)
			run.Bytes += src.Size
		}
		s.runs[slot] = run
	}
	return s
}

// answers lists every answer of s that reads rows, as JSON or bytes, by
// what was asked.
func answers(t *testing.T, s *Session) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	add := func(what string, v any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if b, ok := v.([]byte); ok {
			out[what] = b
			return
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		out[what] = b
	}
	v, err := s.View(SlotRun)
	if v != nil {
		v.Seconds = 0
	}
	add("view", v, err)
	for gi, g := range s.Run(SlotRun).Report.Graphs {
		for _, by := range []string{"optype", "stream"} {
			meta, buf, err := s.Map(SlotRun, gi, by)
			add(fmt.Sprint("map ", gi, by), meta, err)
			add(fmt.Sprint("map buffer ", gi, by), buf, nil)
		}
		for _, q := range []TensorQuery{
			{PageSize: 50, Focus: -1},
			{Sort: "node", Desc: true, PageSize: 20, Page: 1, Focus: -1},
			{Sort: "size", Flags: []string{"counted", "reuse"}, PageSize: MaxPageSize, Focus: 3},
			{Name: "_1", Sort: "life_end", PageSize: 10, Focus: -1},
		} {
			q.Slot, q.Graph = SlotRun, gi
			p, err := s.Tensors(q)
			add(fmt.Sprintf("tensors %d %+v", gi, q), p, err)
		}
		rows := s.Run(SlotRun).Report.RowCount(g)
		for _, i := range []int{0, rows / 2, rows - 1} {
			if i < 0 {
				continue
			}
			d, err := s.Tensor(SlotRun, gi, i)
			add(fmt.Sprint("tensor ", gi, i), d, err)
			k, err := s.Find(SlotRun, gi, d.Key)
			add(fmt.Sprint("find ", gi, d.Key), k, err)
		}
		if g.Peak != nil {
			p, err := s.At(SlotRun, gi, g.Peak.Step)
			add(fmt.Sprint("at ", gi), p, err)
		}
	}
	for _, o := range export.Outputs() {
		b, _, err := s.Output(SlotRun, o.Name)
		add("output "+o.Name, b, err)
	}
	if s.Run(SlotBase) != nil {
		d, err := s.Diff()
		add("diff", d, err)
	}
	return out
}

// TestRowsOnlyEncoded: once the logs are read, the session's reports hold
// no rows, continuous lines, atomic pieces or live curves (their run's
// store does), and every answer that reads them — the tensor table, the
// map, tensor details, the peak list at a step, the downloads and the
// comparison — is byte for byte the answer from rows held in memory.
func TestRowsOnlyEncoded(t *testing.T) {
	large, err := gen.Log("large", 4<<20)
	if err != nil {
		t.Fatal(err)
	}
	small, err := gen.Log("large", 2<<20)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		runs map[string][]input.Source
	}{
		{"basic", map[string][]input.Source{SlotRun: samples(t, "basic")}},
		{"conflicts", map[string][]input.Source{SlotRun: samples(t, "conflicts")}},
		{"mixed", map[string][]input.Source{SlotRun: samples(t, "mixed")}},
		{"pool", map[string][]input.Source{SlotRun: samples(t, "pool")}},
		{"generated, compared", map[string][]input.Source{
			SlotRun:  {input.BytesSource("new.log", large)},
			SlotBase: {input.BytesSource("old.log", small)}}},
	}
	// The real logs beside the worktree, when there (required in CI).
	real, _ := input.FromPaths([]string{filepath.Join("..", "..", "..", "shared", "real-logs")})
	if len(real) == 0 && os.Getenv("CI") != "" {
		t.Fatal("no real logs (required in CI)")
	}
	if len(real) > 0 {
		cases = append(cases, struct {
			name string
			runs map[string][]input.Source
		}{"real logs", map[string][]input.Source{SlotRun: real}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSession()
			for slot, srcs := range c.runs {
				if _, err := s.Analyze(context.Background(), slot, srcs, nil); err != nil {
					t.Fatal(err)
				}
			}
			for slot := range c.runs {
				run := s.Run(slot)
				if run.Report.Spilled != run.Rows {
					t.Errorf("%s: the report does not read its rows from the run's store", slot)
				}
				if st := run.Rows.Stats(); st.Graphs != len(run.Report.Graphs) {
					t.Errorf("%s: the store holds %d graphs, the report %d", slot, st.Graphs, len(run.Report.Graphs))
				}
				for _, g := range run.Report.Graphs {
					if len(g.Rows)+len(g.Reassign)+len(g.AtomicPieces) != 0 || g.Live != nil || !run.Rows.Holds(g) {
						t.Errorf("%s: graph %s holds its rows in memory (%d rows; in the store: %v)", slot, g.Graph, len(g.Rows), run.Rows.Holds(g))
					}
				}
			}
			want := answers(t, inMemory(t, c.runs))
			got := answers(t, s)
			if len(got) != len(want) {
				t.Fatalf("%d answers, want %d", len(got), len(want))
			}
			for what, w := range want {
				if !bytes.Equal(got[what], w) {
					t.Errorf("%s differs from the answer from rows in memory:\n got %.300s\nwant %.300s", what, got[what], w)
				}
			}
			if c.runs[SlotBase] != nil && !bytes.Contains(got["diff"], []byte(`"movers"`)) {
				t.Errorf("the comparison has no tensor movers: %.300s", got["diff"])
			}
		})
	}
}

// millionGraph is a graph of n tensors, two a node, named as a deep
// network's are.
func millionGraph(n int) *model.Graph {
	ops := []string{"MatMul", "Add", "Relu", "LayerNorm", "Softmax", "Transpose", "Cast"}
	rows := make([]model.Row, n)
	for i := range rows {
		step := int64(i / 2)
		rows[i] = model.Row{Node: fmt.Sprintf("model/layer_%d/block_%d/%s_%d", i/4000, i/40, ops[i/2%7], i/2),
			OpType: ops[i/2%7], Kind: "output", Index: int64(i % 2), Offset: int64(i%4096) * 1024,
			Stream: int64(i % 3), MemType: 2, Size: 1024 + int64(i%5)*512, RealSize: 1000 + int64(i%5)*512,
			NoAlign: 1000 + int64(i%5)*512, LifeBegin: step, LifeEnd: step + int64(i%50), Reuse: 1, SameStream: 1,
			Counted: true, ChildParts: 5, Line: int64(3 * i)}
	}
	g := &model.Graph{PID: "1", Graph: "million", MemType: 2, Rows: rows}
	g.Live = analyze.Live(g)
	return g
}

// BenchmarkSelectMillion is what choosing a graph of 10^6 tensors costs
// the engine: its map and first tensor page, from rows held encoded (the
// graph decoded first) and from rows in memory.
func BenchmarkSelectMillion(b *testing.B) {
	for _, encoded := range []bool{true, false} {
		b.Run(fmt.Sprint("encoded=", encoded), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				g := millionGraph(1_000_000)
				rep := &model.Report{Graphs: []*model.Graph{g}}
				run := &Run{Report: rep, Rows: rowpack.New()}
				if encoded {
					run.Rows.Put(g)
					run.Rows.Seal()
					rep.Spilled = run.Rows
				}
				s := NewSession()
				s.runs[SlotRun] = run
				// As after an analysis: the rows put are no longer garbage.
				runtime.GC()
				b.StartTimer()
				if _, _, err := s.Map(SlotRun, 0, "optype"); err != nil {
					b.Fatal(err)
				}
				if _, err := s.Tensors(TensorQuery{Slot: SlotRun, PageSize: 50, Focus: -1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
