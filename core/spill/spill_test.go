package spill

import (
	"errors"
	"os"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"imas/core/internal/fill"
	"imas/core/model"
)

// spilled are the fields Put moves.
func spilled(g *model.Graph) model.Graph {
	return model.Graph{Rows: g.Rows, Reassign: g.Reassign, AtomicPieces: g.AtomicPieces, Live: g.Live, Peak: g.Peak, Waste: g.Waste}
}

func TestCodecRoundTrip(t *testing.T) {
	var seed int64
	full := &model.Graph{}
	fill.Value(reflect.ValueOf(&full.Rows).Elem(), &seed)
	fill.Value(reflect.ValueOf(&full.Reassign).Elem(), &seed)
	fill.Value(reflect.ValueOf(&full.AtomicPieces).Elem(), &seed)
	fill.Value(reflect.ValueOf(&full.Live).Elem(), &seed)
	fill.Value(reflect.ValueOf(&full.Peak).Elem(), &seed)
	fill.Value(reflect.ValueOf(&full.Waste).Elem(), &seed)
	for _, tc := range []struct {
		name string
		g    *model.Graph
	}{
		{"every field set", full},
		{"nil slices", &model.Graph{}},
		{"empty slices", &model.Graph{Rows: []model.Row{}, Reassign: []model.Reassign{}, AtomicPieces: []model.AtomicPiece{},
			Live: &model.LiveCurve{Steps: []int64{}}, Peak: &model.Peak{Tensors: []model.PeakItem{}},
			Waste: &model.Waste{Parts: []model.WastePart{}, Holes: []model.Hole{}}}},
		{"a row with a nil life_desc", &model.Graph{Rows: []model.Row{{Node: "n", Line: 7}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got model.Graph
			if err := decodeGraph(encodeGraph(nil, tc.g), &got); err != nil {
				t.Fatal(err)
			}
			if want := spilled(tc.g); !reflect.DeepEqual(got, want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

// TestCodecKeepsWasteWithExtra: a waste breakdown with Extra (a saved
// report.json read back) is not moved: Put leaves it in the graph and Load
// gives it back as it is.
func TestCodecKeepsWasteWithExtra(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := &model.Waste{Gap: 5, Extra: map[string]any{"k": "v"}}
	g := &model.Graph{Graph: "g", Rows: []model.Row{{Node: "n"}}, Waste: w, Peak: &model.Peak{Step: 3}}
	if err := s.Put(g); err != nil {
		t.Fatal(err)
	}
	if g.Waste != w || g.Peak != nil {
		t.Errorf("after Put: waste %p (want %p, kept), peak %v (want nil, moved)", g.Waste, w, g.Peak)
	}
	full, err := s.Load(g)
	if err != nil {
		t.Fatal(err)
	}
	if full.Waste != w || full.Peak == nil || full.Peak.Step != 3 {
		t.Errorf("Load: waste %p (want %p), peak %+v (want step 3)", full.Waste, w, full.Peak)
	}
}

func TestDecodeCorrupt(t *testing.T) {
	var seed int64
	g := &model.Graph{}
	fill.Value(reflect.ValueOf(&g.Rows).Elem(), &seed)
	b := encodeGraph(nil, g)
	for _, cut := range []int{0, 1, len(b) / 2, len(b) - 1} {
		var got model.Graph
		if err := decodeGraph(b[:cut], &got); err == nil {
			t.Errorf("a segment cut at %d of %d bytes decoded", cut, len(b))
		}
	}
	var got model.Graph
	if err := decodeGraph(append(b, 0), &got); err == nil {
		t.Error("a segment with a byte too many decoded")
	}
}

// TestPoolRowsCodec: every field of a pool row round-trips, with numbers
// that run backwards from row to row (deltas below zero), never-freed rows
// and the largest values; a cut batch does not decode.
func TestPoolRowsCodec(t *testing.T) {
	var seed int64
	var rows []model.PoolRow
	fill.Value(reflect.ValueOf(&rows).Elem(), &seed)
	rows = append(rows, model.PoolRow{Begin: 3, End: model.LifeMax, Time: 1, Addr: 1<<64 - 1},
		model.PoolRow{Kernel: "k", Begin: 1 << 62, End: -1 << 62, Time: -5, FreeTime: 1 << 62, KernelFree: true, Line: 9})
	b := encodePoolRows(nil, rows)
	got, err := decodePoolRows(b, []model.PoolRow{{Node: "kept"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]model.PoolRow{{Node: "kept"}}, rows...); !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}
	for _, cut := range []int{0, 1, len(b) / 2, len(b) - 1} {
		if _, err := decodePoolRows(b[:cut], nil); err == nil {
			t.Errorf("a batch cut at %d of %d bytes decoded", cut, len(b))
		}
	}
	if _, err := decodePoolRows(append(b, 0), nil); err == nil {
		t.Error("a batch with a byte too many decoded")
	}
}

// TestStorePoolRows: a pool's batches come back in the order put, among
// graphs and another pool's batches, also once written to the file.
func TestStorePoolRows(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, q, none := &model.Pool{PID: "1"}, &model.Pool{PID: "2"}, &model.Pool{PID: "3"}
	var want []model.PoolRow
	for i := range 3000 {
		batch := make([]model.PoolRow, 100)
		for j := range batch {
			batch[j] = model.PoolRow{Kernel: strconv.Itoa(i), Begin: int64(i*100 + j), End: model.LifeMax, Size: int64(j)}
		}
		want = append(want, batch...)
		if err := s.PutPoolRows(p, batch); err != nil {
			t.Fatal(err)
		}
		if err := s.PutPoolRows(q, batch[:1]); err != nil {
			t.Fatal(err)
		}
		if i%100 == 0 {
			if err := s.Put(&model.Graph{Graph: "g", Rows: []model.Row{{Node: "n"}}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var got, buf []model.PoolRow
	for i := range 3000 {
		if buf, err = s.PoolRowBatch(p, i, buf); err != nil {
			t.Fatal(err)
		}
		got = append(got, buf...)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("PoolRowBatch: the rows put do not come back")
	}
	if rows, err := s.PoolRowBatch(q, 2999, nil); err != nil || len(rows) != 1 || rows[0] != want[299900] {
		t.Errorf("the other pool's last batch: %+v, %v", rows, err)
	}
	if _, err := s.PoolRowBatch(none, 0, nil); err == nil {
		t.Error("a batch of a pool never put")
	}
}

func TestStorePutLoad(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := &model.Graph{Graph: "a", Rows: []model.Row{{Node: "x", Size: 512}, {Node: "y", Size: 1024}}, Reassign: []model.Reassign{},
		Live:  &model.LiveCurve{Steps: []int64{0, 3}, Reusable: []int64{512, 0}, Counted: []int64{512, 0}},
		Peak:  &model.Peak{Step: 3, Live: 1536, Tensors: []model.PeakItem{{Key: "x:output:0", Size: 512}}},
		Waste: &model.Waste{Gap: 512, Parts: []model.WastePart{{Cause: "alignment", Bytes: 512}}}}
	b := &model.Graph{Graph: "b", Rows: []model.Row{{Node: "z"}}}
	kept := &model.Graph{Graph: "kept", Rows: []model.Row{{Node: "k"}}}
	want := map[*model.Graph]model.Graph{a: spilled(a), b: spilled(b)}
	for _, g := range []*model.Graph{a, b} {
		if err := s.Put(g); err != nil {
			t.Fatal(err)
		}
		if g.Rows != nil || g.Live != nil || g.Peak != nil || g.Waste != nil {
			t.Errorf("graph %s keeps its rows after Put", g.Graph)
		}
	}
	for g, w := range want {
		full, err := s.Load(g)
		if err != nil {
			t.Fatal(err)
		}
		if full == g || full.Graph != g.Graph || !reflect.DeepEqual(spilled(full), w) {
			t.Errorf("Load(%s) = %+v, want a copy with %+v", g.Graph, full, w)
		}
		if s.Rows(g) != len(w.Rows) {
			t.Errorf("Rows(%s) = %d, want %d", g.Graph, s.Rows(g), len(w.Rows))
		}
	}
	if full, err := s.Load(kept); err != nil || full != kept || s.Rows(kept) != 1 {
		t.Errorf("a graph never put: Load = %p, %v, Rows %d; want itself and 1 row", full, err, s.Rows(kept))
	}
	if s.Graphs() != 2 || s.Bytes() <= 0 {
		t.Errorf("Graphs %d, Bytes %d; want 2 and some", s.Graphs(), s.Bytes())
	}
}

func TestCloseRemovesDir(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g := &model.Graph{Rows: []model.Row{{Node: "x"}}}
	if err := s.Put(g); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after Close, %s: %v; want it removed", s.Dir(), err)
	}
	if _, err := s.Load(g); err == nil {
		t.Error("Load after Close gave no error")
	}
	if err := s.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

func TestWriteErrorSticks(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.f.Close() // the disk gone: writes fail
	g := &model.Graph{Rows: []model.Row{{}}}
	if err := s.Put(g); err != nil {
		t.Fatalf("Put kept in the write buffer: %v", err)
	}
	if _, err := s.Load(g); err == nil {
		t.Fatal("Load that writes the buffer to a closed file gave no error")
	}
	if s.Err() == nil {
		t.Error("Err is nil after a failed write")
	}
	if err := s.Put(&model.Graph{Rows: []model.Row{{}}}); err == nil {
		t.Error("Put after a failed write gave no error")
	}
	if err := s.PutPoolRows(&model.Pool{}, []model.PoolRow{{}}); err == nil {
		t.Error("PutPoolRows after a failed write gave no error")
	}
}

// TestPoolRowsReadErrorSticks: a pool batch that cannot be read back fails
// PoolRowBatch and the store.
func TestPoolRowsReadErrorSticks(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p := &model.Pool{}
	if err := s.PutPoolRows(p, []model.PoolRow{{Kernel: "k"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PoolRowBatch(p, 0, nil); err != nil {
		t.Fatal(err)
	}
	s.f.Close() // written; now the disk is gone
	if _, err := s.PoolRowBatch(p, 0, nil); err == nil {
		t.Error("PoolRowBatch from a closed file gave no error")
	}
	if s.Err() == nil {
		t.Error("Err is nil after a failed read")
	}
}

// countingFile counts the reads and writes that reach the store's file.
type countingFile struct {
	file
	reads, writes, readBytes atomic.Int64
}

func (c *countingFile) ReadAt(b []byte, off int64) (int, error) {
	c.reads.Add(1)
	c.readBytes.Add(int64(len(b)))
	return c.file.ReadAt(b, off)
}

func (c *countingFile) WriteAt(b []byte, off int64) (int, error) {
	c.writes.Add(1)
	return c.file.WriteAt(b, off)
}

func countingStore(t *testing.T) (*Store, *countingFile) {
	t.Helper()
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	c := &countingFile{file: s.f}
	s.f = c
	return s, c
}

// smallGraph is a graph of a few rows, named after i so that each
// segment differs.
func smallGraph(i int) *model.Graph {
	g := &model.Graph{Graph: strconv.Itoa(i)}
	for r := range 3 {
		g.Rows = append(g.Rows, model.Row{Node: "node_" + strconv.Itoa(i) + "_" + strconv.Itoa(r), Size: int64(512 * (i + r)), Line: int64(i)})
	}
	return g
}

func TestLoadSeesSegmentsNotYetWritten(t *testing.T) {
	s, c := countingStore(t)
	var put []*model.Graph
	var want []model.Graph
	for i := range 50 {
		g := smallGraph(i)
		want = append(want, spilled(g))
		if err := s.Put(g); err != nil {
			t.Fatal(err)
		}
		put = append(put, g)
		// Load the graph just put and one put before, between Puts.
		for _, j := range []int{i, i / 2} {
			full, err := s.Load(put[j])
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(spilled(full), want[j]) {
				t.Fatalf("after %d Puts, Load(%d) = %+v, want %+v", i+1, j, spilled(full), want[j])
			}
		}
	}
	if c.writes.Load() == 0 {
		t.Error("no write reached the file")
	}
}

func TestLoadInOrderReadsWindows(t *testing.T) {
	s, c := countingStore(t)
	const graphs = 20000
	var put []*model.Graph
	for i := range graphs {
		g := smallGraph(i)
		if err := s.Put(g); err != nil {
			t.Fatal(err)
		}
		put = append(put, g)
	}
	writes := c.writes.Load()
	if max := s.Bytes()/writeBuffer + 1; writes > max || writes > graphs/100 {
		t.Errorf("%d Puts (%d bytes) took %d writes, want at most %d", graphs, s.Bytes(), writes, max)
	}
	loadAll := func() {
		for i, g := range put {
			full, err := s.Load(g)
			if err != nil {
				t.Error(err)
				return
			}
			if want := smallGraph(i); !reflect.DeepEqual(spilled(full), spilled(want)) {
				t.Errorf("Load(%d) = %+v, want %+v", i, spilled(full), spilled(want))
				return
			}
		}
	}
	// A read must serve many graphs, whatever the window's size: a read
	// per window, and one more where a window was cut short at the end of
	// what was written (the last segments are written by the first Load
	// that needs them).
	loadAll()
	if r, max := c.reads.Load(), s.Bytes()/readWindow+2; r > max || r > graphs/100 {
		t.Errorf("%d graphs (%d bytes) loaded in order took %d reads, want at most %d", graphs, s.Bytes(), r, max)
	}
	// Readers side by side, as the writers of a report: each reads the
	// windows it does not find, and their windows end apart.
	s.windows = [readWindows]window{}
	c.reads.Store(0)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(loadAll)
	}
	wg.Wait()
	if r := c.reads.Load(); r > graphs/100 {
		t.Errorf("%d graphs (%d bytes) loaded by two readers at once took %d reads, want at most %d", graphs, s.Bytes(), r, graphs/100)
	}
}

func TestLoadOutOfOrderReadsSegments(t *testing.T) {
	s, c := countingStore(t)
	const graphs = 5000
	var put []*model.Graph
	for i := range graphs {
		g := smallGraph(i)
		if err := s.Put(g); err != nil {
			t.Fatal(err)
		}
		put = append(put, g)
	}
	// Every 7th graph, from the end: no reader in order.
	for i := graphs - 1; i > 0; i -= 7 {
		full, err := s.Load(put[i])
		if err != nil {
			t.Fatal(err)
		}
		if want := smallGraph(i); !reflect.DeepEqual(spilled(full), spilled(want)) {
			t.Fatalf("Load(%d) = %+v, want %+v", i, spilled(full), spilled(want))
		}
	}
	if r := c.readBytes.Load(); r > s.Bytes()/7+1000 {
		t.Errorf("loading every 7th graph of %d bytes out of order read %d bytes, want about a 7th", s.Bytes(), r)
	}
}

// TestAddrRowsRoundTrip: address rows put in the store come back field by
// field, appended after what the caller holds; a cut segment fails.
func TestAddrRowsRoundTrip(t *testing.T) {
	var seed int64
	var rows []model.AddrRow
	fill.Value(reflect.ValueOf(&rows).Elem(), &seed)
	rows[1].Addr = 1<<63 + 12345 // addresses use the whole 64 bits
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	first, err := s.PutAddrRows(rows[:1])
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.PutAddrRows(rows[1:])
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.LoadAddrRows(first, nil)
	if err == nil {
		got, err = s.LoadAddrRows(second, got)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, rows)
	}
	b := encodeAddrRows(nil, rows)
	for _, cut := range []int{0, 1, len(b) / 2, len(b) - 1} {
		if _, err := decodeAddrRows(b[:cut], nil); err == nil {
			t.Errorf("address rows cut at %d of %d bytes decoded", cut, len(b))
		}
	}
}
