package ui

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vugu/vugu"

	"imas/core/model"
	"imas/wasm/engine"
)

// countingEnv is vugu's event lock, counting the renders asked for.
type countingEnv struct {
	sync.RWMutex
	renders int
}

func (e *countingEnv) UnlockOnly() { e.Unlock() }
func (e *countingEnv) UnlockRender() {
	e.renders++
	e.Unlock()
}

// fakeEngine answers with a run of n graphs; every map and table page names
// the graph and colouring it was asked for.
type fakeEngine struct {
	graphs int
	hash   string
	mu     sync.Mutex
	maps   []string      // colourings asked for, in order
	frames chan struct{} // when set, NextFrame waits for one
}

type fakeFiles int

func (fakeFiles) Len() int { return 1 }

func (f *fakeEngine) FilesOf(vugu.DOMEvent) Files { return fakeFiles(1) }
func (f *fakeEngine) Analyze(ctx context.Context, slot string, _ Files, progress func(engine.Progress)) ([]byte, error) {
	progress(engine.Progress{Read: 1, Total: 2})
	rep := &model.Report{}
	for i := range f.graphs {
		rep.Graphs = append(rep.Graphs, &model.Graph{PID: "1", Graph: string(rune('a' + i))})
	}
	counts := make([]engine.GraphCounts, f.graphs)
	return json.Marshal(engine.View{Slot: slot, Report: rep, Sections: json.RawMessage(`{}`), Counts: counts})
}
func (f *fakeEngine) Query(op string, arg, out any) error {
	switch op {
	case "graph":
		out.(*model.Graph).Graph = "graph"
	case "tensors":
		q := arg.(map[string]any)["query"].(engine.TensorQuery)
		out.(*engine.TensorPage).Rows = 100 + q.Graph
	case "find":
		*out.(*int) = 7
	case "tensor":
		out.(*engine.TensorDetail).Key = "n:output:0"
	}
	return nil
}
func (f *fakeEngine) ShowMap(slot string, graph int, colorBy string) (*engine.MapMeta, error) {
	f.mu.Lock()
	f.maps = append(f.maps, colorBy)
	f.mu.Unlock()
	return &engine.MapMeta{N: 10 + graph}, nil
}
func (f *fakeEngine) ShowPool(string, int) (*engine.MapMeta, error) { return nil, nil }
func (f *fakeEngine) MarkOnMap(int)                                 {}
func (f *fakeEngine) Rendered()                                     {}
func (f *fakeEngine) Reveal(string)                                 {}
func (f *fakeEngine) NextFrame() {
	if f.frames != nil {
		<-f.frames
	}
}
func (f *fakeEngine) Sample() Files                       { return nil }
func (f *fakeEngine) Hash() string                        { return f.hash }
func (f *fakeEngine) SetHash(string)                      {}
func (f *fakeEngine) Download(string, string) error       { return nil }
func (f *fakeEngine) OpenPerfetto(string) (string, error) { return "", nil }

// settle waits until every engine answer is shown.
func settle(t *testing.T, s *State, env *countingEnv) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		env.Lock()
		done := s.Pending == 0
		env.Unlock()
		if done {
			return
		}
	}
	t.Fatal("answers still pending after 5 s")
}

func TestLoadShowsFirstGraphWithResults(t *testing.T) {
	eng := &fakeEngine{graphs: 3}
	env := &countingEnv{}
	s := NewState(eng)
	s.env = env
	env.Lock()
	s.Load(engine.SlotRun, fakeFiles(1))
	env.Unlock()
	settle(t, s, env)
	// One render for the progress, one for the results with graph 0.
	if env.renders != 2 {
		t.Errorf("renders = %d, want 2 (progress, then results with the first graph)", env.renders)
	}
	if s.Run == nil || s.Graph != 0 || s.Info == nil || s.Map == nil || s.Page == nil {
		t.Fatalf("after the load: run %v, graph %d, info %v, map %v, page %v", s.Run != nil, s.Graph, s.Info, s.Map, s.Page)
	}
	if s.Map.N != 10 || s.Page.Rows != 100 || s.Q.Graph != 0 || s.Ends != 1 {
		t.Errorf("map %d tensors, page total %d, query graph %d, ends %d; want graph 0's and 1 end", s.Map.N, s.Page.Rows, s.Q.Graph, s.Ends)
	}

	// Selecting another graph afterwards still asks for and shows it.
	env.Lock()
	s.SelectGraph(2)
	env.Unlock()
	settle(t, s, env)
	if s.Graph != 2 || s.Map.N != 12 || s.Page.Rows != 102 {
		t.Errorf("after selecting graph 2: graph %d, map %d, page %d", s.Graph, s.Map.N, s.Page.Rows)
	}
}

// A colouring chosen while the analysis ran is not lost to the map fetched
// with the results: the first graph is asked for again with it.
func TestLoadRefetchesWhenColouringChanged(t *testing.T) {
	eng := &fakeEngine{graphs: 1}
	env := &countingEnv{}
	s := NewState(eng)
	s.env = env
	env.Lock()
	s.Load(engine.SlotRun, fakeFiles(1))
	s.ColorBy = "stream" // the analysis' goroutine has captured "optype"
	env.Unlock()
	settle(t, s, env)
	eng.mu.Lock()
	defer eng.mu.Unlock()
	if len(eng.maps) != 2 || eng.maps[0] != "optype" || eng.maps[1] != "stream" || s.Map == nil || s.Graph != 0 {
		t.Errorf("maps asked for %v (want [optype stream]); graph %d, map %v", eng.maps, s.Graph, s.Map)
	}
}

func TestHashRoundTrip(t *testing.T) {
	v := map[string]string{"graph": "12/g<img src=x>#2/2", "tab": "peak", "tensor": "a&b=c%:output:0", "sec": "diff"}
	h := hashOf(v)
	if strings.ContainsAny(h, "<># ") {
		t.Errorf("fragment %q holds characters to escape", h)
	}
	got := parseHash("#" + h)
	for k, want := range v {
		if got[k] != want {
			t.Errorf("%s: %q after the round trip, want %q (fragment %q)", k, got[k], want, h)
		}
	}
	if got := parseHash("#graph=%zz&tab=peak"); got["graph"] != "" || got["tab"] != "peak" {
		t.Errorf("a bad escape: %v", got)
	}
}

// A fragment naming a graph of the logs opened selects that graph (not the
// biggest), its tab, and then its tensor.
func TestRestoreFromHash(t *testing.T) {
	eng := &fakeEngine{graphs: 3, hash: "#graph=1/b/0&tab=waste&tensor=n:output:0"}
	env := &countingEnv{}
	s := NewState(eng)
	s.env = env
	env.Lock()
	s.Load(engine.SlotRun, fakeFiles(1))
	env.Unlock()
	settle(t, s, env)
	if s.Graph != 1 || s.GraphTab != "waste" || s.Row != 7 {
		t.Errorf("restored graph %d, tab %q, row %d; want 1, waste, 7", s.Graph, s.GraphTab, s.Row)
	}
	if h := s.Hash(); h != "graph=1/b/0&tab=waste" && !strings.HasPrefix(h, "graph=1/b/0&tab=waste") {
		t.Errorf("hash %q", h)
	}
}

// New results with a long graphs table come over several frames: the
// first FirstRows rows, then twice as many more per frame, pending until
// the table is whole.
func TestLoadStagesLongTables(t *testing.T) {
	eng := &fakeEngine{graphs: 120, frames: make(chan struct{})}
	env := &countingEnv{}
	s := NewState(eng)
	s.env = env
	env.Lock()
	s.Load(engine.SlotRun, fakeFiles(1))
	env.Unlock()
	g := &Graphs{S: s}
	shown := func() (rows, pending int) {
		env.Lock()
		defer env.Unlock()
		if s.Run == nil {
			return -1, s.Pending
		}
		return len(g.rows()), s.Pending
	}
	wait := func(want int) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if rows, _ := shown(); rows == want {
				return
			}
		}
		rows, pending := shown()
		t.Fatalf("%d rows shown (%d pending), want %d", rows, pending, want)
	}
	for _, want := range []int{FirstRows, 3 * FirstRows} {
		wait(want)
		if _, pending := shown(); pending == 0 {
			t.Fatalf("%d rows shown and nothing pending", want)
		}
		eng.frames <- struct{}{}
	}
	settle(t, s, env)
	if rows, _ := shown(); rows != 120 || s.Graph != 0 {
		t.Errorf("at the end %d rows, graph %d selected", rows, s.Graph)
	}
}
