package rowpack

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"

	"imas/core"
	"imas/core/input"
	"imas/core/internal/fill"
	"imas/core/model"
	"imas/internal/gen"
)

// moved are the fields Put moves.
func moved(g *model.Graph) model.Graph {
	return model.Graph{Rows: g.Rows, Reassign: g.Reassign, AtomicPieces: g.AtomicPieces, Live: g.Live}
}

// oddRows are rows of every unusual form: lifetimes as text, a stream
// description, empty and shared names, flags other than 0 and 1, an end
// to the end of the graph, extreme numbers, rows out of line order.
func oddRows() []model.Row {
	return []model.Row{
		{Node: "conv1", OpType: "Conv2D", Kind: "output", Size: 1024, RealSize: 1000, NoAlign: 1000, LifeBegin: 3, LifeEnd: 9,
			Reuse: 1, Counted: true, Batch: "0", ChildParts: 1, File: 2, Line: 100},
		{Node: "conv1", OpType: "Conv2D", Kind: "workspace", Index: 1, Offset: 1 << 40, LifeBegin: 4,
			LifeEnd: model.LifeMax, LifeDesc: &[2]string{"4", "∞"}, StreamDesc: "stream 3 (hccl)", Stream: 3, Line: 101},
		{Node: "", OpType: "", Kind: "", LifeDesc: &[2]string{"", ""}, Line: 50, File: 1},
		{Node: "weird", Reuse: -1, Continuous: 2, ZeroCopy: 1, SameStream: -1, IsRef: 3, ChildParts: 5, Child: -7},
		{Node: "conv1", SameStream: 1, IsRef: 1, ZeroCopy: 1, Continuous: 1, Pool: true, BlockType: "pool",
			Offset: math.MinInt64, Size: math.MaxInt64, RealSize: math.MinInt64, NoAlign: math.MaxInt64,
			LifeBegin: math.MaxInt64, LifeEnd: math.MinInt64, Index: math.MinInt64, Line: math.MaxInt64, File: math.MaxInt32},
		{Node: "x", Line: math.MinInt64, File: math.MinInt32, MemType: 2},
	}
}

func TestCodecRoundTrip(t *testing.T) {
	var seed int64
	full := &model.Graph{}
	fill.Value(reflect.ValueOf(&full.Rows).Elem(), &seed)
	fill.Value(reflect.ValueOf(&full.Reassign).Elem(), &seed)
	fill.Value(reflect.ValueOf(&full.AtomicPieces).Elem(), &seed)
	fill.Value(reflect.ValueOf(&full.Live).Elem(), &seed)
	for _, tc := range []struct {
		name string
		g    *model.Graph
	}{
		{"every field set", full},
		{"odd rows", &model.Graph{Rows: oddRows(), Live: &model.LiveCurve{Steps: []int64{0, math.MaxInt64, -5},
			Reusable: []int64{math.MinInt64, 0, 1}}}},
		{"nil slices", &model.Graph{}},
		{"empty slices", &model.Graph{Rows: []model.Row{}, Reassign: []model.Reassign{}, AtomicPieces: []model.AtomicPiece{},
			Live: &model.LiveCurve{Steps: []int64{}}}},
		{"a row with a nil life_desc", &model.Graph{Rows: []model.Row{{Node: "n", Line: 7}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := moved(tc.g)
			s := New()
			g := *tc.g
			if err := s.Put(&g); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(moved(&g), model.Graph{}) {
				t.Error("the graph keeps what Put moved")
			}
			got, err := s.Load(&g)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(moved(got), want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", moved(got), want)
			}
		})
	}
}

func TestDecodeCorrupt(t *testing.T) {
	var seed int64
	g := &model.Graph{}
	fill.Value(reflect.ValueOf(&g.Rows).Elem(), &seed)
	g.Rows = append(g.Rows, oddRows()...)
	n := newNames()
	e := encoder{names: &n}
	e.graph(g)
	b := e.b
	for _, cut := range []int{0, 1, len(b) / 2, len(b) - 1} {
		var got model.Graph
		if err := decodeGraph(b[:cut], &n.table, &got); err == nil {
			t.Errorf("a segment cut at %d of %d bytes decoded", cut, len(b))
		}
	}
	var got model.Graph
	if err := decodeGraph(append(b[:len(b):len(b)], 0), &n.table, &got); err == nil {
		t.Error("a segment with a byte too many decoded")
	}
	if err := decodeGraph(b, &table{refs: n.refs[:2], chunks: n.chunks}, &got); err == nil {
		t.Error("a segment naming names the table does not hold decoded")
	}
}

func TestNamesKeptOnce(t *testing.T) {
	s := New()
	for i := range 3 {
		g := &model.Graph{Rows: []model.Row{{Node: "shared", OpType: "Add"}, {Node: fmt.Sprint("own", i), OpType: "Add"}}}
		s.Put(g)
	}
	if st := s.Stats(); st.Names != 5 || st.Graphs != 3 || st.Rows != 6 {
		t.Errorf("stats %+v, want 5 names (shared, Add, own0..2), 3 graphs, 6 rows", st)
	}
	kept := &model.Graph{Rows: []model.Row{{Node: "kept"}}}
	s.Put(kept)
	s.Retain([]*model.Graph{kept})
	if st := s.Stats(); st.Graphs != 1 || st.Rows != 1 || !s.Holds(kept) {
		t.Errorf("after Retain: stats %+v, want the one graph kept", st)
	}
	// Enough names to grow the index several times.
	n := newNames()
	ids := map[string]uint32{}
	for i := range 5000 {
		k := fmt.Sprint("node/", i)
		ids[k] = n.id(k)
	}
	for k, id := range ids {
		if got := n.id(k); got != id || n.str(id) != k {
			t.Fatalf("%q: number %d then %d (%q)", k, id, got, n.str(id))
		}
	}
}

// TestStoreKeepsReport analyses a generated log with and without a store:
// every graph read back from the store equals the graph analysed in
// memory, graphs not put are loaded as they are, and a tensor costs at most
// 64 bytes of the store.
func TestStoreKeepsReport(t *testing.T) {
	log, err := gen.Log("large", 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	src := []input.Source{input.BytesSource("large.log", log)}
	want, err := core.Analyze(context.Background(), src, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	rep, err := core.Analyze(context.Background(), src, core.Options{Spill: s})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Graphs) != len(want.Graphs) || len(rep.Graphs) == 0 {
		t.Fatalf("%d graphs with a store, %d without", len(rep.Graphs), len(want.Graphs))
	}
	// The graphs still open at the end of the input are not put by the
	// analysis: put them here, as the page's engine does.
	for _, g := range rep.Graphs {
		s.Put(g)
	}
	var wg sync.WaitGroup
	for i, g := range rep.Graphs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if len(g.Rows) != 0 || g.Live != nil || len(g.Reassign) != 0 || len(g.AtomicPieces) != 0 {
				t.Errorf("graph %s holds rows after Put", g.Graph)
			}
			full, err := rep.WithRows(g)
			if err != nil {
				t.Error(err)
				return
			}
			if !reflect.DeepEqual(full, want.Graphs[i]) {
				t.Errorf("graph %s read back differs from the one analysed in memory", g.Graph)
			}
			if rows, reassign, pieces := s.Lengths(g); rows != len(full.Rows) || reassign != len(full.Reassign) || pieces != len(full.AtomicPieces) {
				t.Errorf("graph %s: lengths %d %d %d, want %d %d %d", g.Graph, rows, reassign, pieces,
					len(full.Rows), len(full.Reassign), len(full.AtomicPieces))
			}
		}()
	}
	wg.Wait()
	loose := &model.Graph{Graph: "loose", Rows: []model.Row{{Node: "n"}}}
	if got, err := s.Load(loose); err != nil || got != loose || s.Rows(loose) != 1 || s.Holds(loose) {
		t.Errorf("a graph never put: %v %v rows %d", got, err, s.Rows(loose))
	}
	st := s.Stats()
	perTensor := float64(st.Bytes()) / float64(st.Rows)
	t.Logf("%d graphs, %d rows, %d names: %d segment + %d name bytes, %.1f bytes a tensor",
		st.Graphs, st.Rows, st.Names, st.SegmentBytes, st.NameBytes, perTensor)
	if st.Rows == 0 || perTensor > 64 {
		t.Errorf("%.1f bytes a tensor, want at most 64", perTensor)
	}
}
