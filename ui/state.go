package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/tidwall/gjson"
	"github.com/vugu/vugu"

	"imas/core/analyze"
	"imas/core/model"
	"imas/wasm/engine"
)

// State is what the page shows, shared by all components. Event handlers
// change it while vugu holds the event lock; answers from the engine come
// back on goroutines and go through update, which takes the lock and asks
// for a render. Nothing here ever waits inside an event handler.
type State struct {
	Eng Engine
	env vugu.EventEnv

	Busy string // slot being read; "" when idle
	Prog engine.Progress
	// Early is the graphs of the running analysis finished so far, shown
	// in the graphs table, alone, until its results come (the run's slot
	// only: a baseline is read with the results on screen).
	Early *engine.Early
	Err   string
	Note  string // last finished side action (download, Perfetto)
	Loads int    // analyses that succeeded
	Ends  int    // analyses that ended, however (tests wait on it)
	// Pending counts engine questions whose answers are not shown yet: the
	// page says data-pending, and tests wait for 0 before they click,
	// since answers arriving move the layout.
	Pending int
	cancel  context.CancelFunc
	// rowLimit caps the graphs table's rows while new results are shown
	// over several frames (stageRows); 0: no cap. stageGen tells a new
	// run's stages from an older run's.
	rowLimit, stageGen int

	Run, Base *Loaded
	DiffRes   *analyze.DiffResult // of Base and Run, once both are there

	Graph   int          // selected graph of Run; -1: none
	Info    *model.Graph // its analyses (conflicts, waste, peak), lists cut
	Row     int          // selected row of that graph; -1: none
	Pool    int          // the pool on the map instead of the graph; -1: none
	Detail  *engine.TensorDetail
	At      *model.Peak // tensors live at the step chosen on the timeline; nil: the peak
	Map     *engine.MapMeta
	ColorBy string
	Q       engine.TensorQuery
	Page    *engine.TensorPage

	GraphTab string // conflicts, waste, peak
	Tab      string // runtime, diagnostics, inputs, diff

	graphGen, rowGen int // answers to older selections are dropped

	want    map[string]string // the view the address named at start, until logs come (hash.go)
	hash    string            // the fragment last written
	wantKey string            // a tensor to choose once its graph is shown
}

// Loaded is an analysed run as the page holds it: the decoded View and its
// JSON, which the generic tables read with gjson.
type Loaded struct {
	engine.View
	Raw   string
	pools []PoolInfo
}

// PageSize is the tensor table's page: vugu rebuilds and re-sends the whole
// tree on every render, so the page keeps its DOM to a few thousand nodes.
const PageSize = 50

// NewState returns the state of an empty page.
func NewState(eng Engine) *State {
	s := &State{Eng: eng, Graph: -1, Row: -1, Pool: -1, ColorBy: "optype", GraphTab: "conflicts", Tab: "runtime"}
	if h := eng.Hash(); h != "" && h != "#" {
		s.want = parseHash(h)
	}
	return s
}

// update changes the state from a goroutine and re-renders.
func (s *State) update(fn func()) {
	s.env.Lock()
	defer s.env.UnlockRender()
	fn()
}

// ask runs query on a goroutine (it waits for the engine) and applies the
// change it returns under the lock. Call it with the lock held: from an
// event handler or an update.
func (s *State) ask(query func() (apply func())) {
	s.Pending++
	go func() {
		apply := query()
		s.update(func() {
			s.Pending--
			apply()
		})
	}()
}

// Phase summarises the page for tests and CSS: idle, busy, done or error.
func (s *State) Phase() string {
	switch {
	case s.Busy != "":
		return "busy"
	case s.Err != "":
		return "error"
	case s.Run != nil:
		return "done"
	}
	return "idle"
}

// Load reads files into slot in the engine.
func (s *State) Load(slot string, f Files) {
	if f == nil || f.Len() == 0 || s.Busy != "" {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.Busy, s.cancel, s.Err, s.Note, s.Prog, s.Early = slot, cancel, "", "", engine.Progress{}, nil
	by, q0 := s.ColorBy, graphQuery(s.Q, 0)
	s.ask(func() func() {
		raw, err := s.Eng.Analyze(ctx, slot, f, s.progress(slot))
		// Whether the user cancelled, read before this function's end
		// cancels the context in any case.
		cancelled := err != nil && ctx.Err() != nil
		cancel()
		var l *Loaded
		if err == nil {
			l, err = decodeView(raw)
		}
		// The biggest graph is shown with the results: asked for here, it
		// comes with them in one render instead of a second full render
		// (vugu rebuilds the whole tree) a moment later.
		var first *graphData
		big := -1
		if err == nil && slot == engine.SlotRun && len(l.Report.Graphs) > 0 {
			big = l.Biggest()
			q0.Graph = big
			d := s.fetchGraph(big, by, q0)
			first = &d
		}
		return func() {
			s.Busy, s.cancel, s.Ends, s.Early = "", nil, s.Ends+1, nil
			switch {
			case cancelled:
				s.Err = "Cancelled; the previous results are kept."
			case err != nil:
				s.Err = err.Error()
				if s.Run != nil {
					s.Err += "\nThe previous results are kept."
				}
			case slot == engine.SlotBase:
				s.Base, s.Loads, s.Tab = l, s.Loads+1, "diff"
				s.loadDiff()
			default:
				s.Run, s.Loads = l, s.Loads+1
				s.Graph, s.Pool = -1, -1
				switch {
				case s.restore(): // the address named a graph of these logs
				case first != nil && s.ColorBy == by && sameQuery(graphQuery(s.Q, big), q0):
					s.showGraph(s.selectGraph(big), *first)
				case len(l.Report.Graphs) > 0: // the map's colours or the filters changed meanwhile
					s.SelectGraph(l.Biggest())
				case len(l.Pools()) > 0: // pool logs without static graphs
					s.Tab = "pools"
					s.ShowPool(0)
				}
				s.stageRows()
				s.loadDiff()
			}
			if err == nil { // the results are whole; the watchdogs' work is said
				s.Note = stallNote(s.Prog)
			}
		}
	})
}

// FirstRows is how many rows of the graphs table the first frame of new
// results holds; each later frame adds twice as many, until the table is
// whole. The whole table (up to graphPage rows, tens of elements each), the
// overview and the biggest graph's map and tensors in one frame stalled
// the page for a second on a slow machine.
const FirstRows = 25

// stageRows shows new results over several frames when the graphs table
// is longer than FirstRows. Each stage is counted as pending, so that the
// tests see the whole table. Call it with the lock held.
func (s *State) stageRows() {
	s.stageGen++
	s.rowLimit = 0
	n := min(len(s.Run.Report.Graphs), graphPage)
	if n <= FirstRows {
		return
	}
	gen := s.stageGen
	s.rowLimit = FirstRows
	var next func()
	next = func() {
		s.ask(func() func() {
			s.Eng.NextFrame()
			return func() {
				if gen != s.stageGen {
					return
				}
				if s.rowLimit += 2 * FirstRows; s.rowLimit >= n {
					s.rowLimit = 0
					return
				}
				next()
			}
		})
	}
	next()
}

// progress is the progress callback of an analysis into slot. A baseline
// is read with the results on screen, so its progress re-renders them:
// twice a second at most, and the last message always.
func (s *State) progress(slot string) func(engine.Progress) {
	var last time.Time
	return func(p engine.Progress) {
		if slot == engine.SlotBase && time.Since(last) < 500*time.Millisecond && p.Read < p.Total {
			return
		}
		last = time.Now()
		s.update(func() {
			s.Prog = p
			if p.Early != nil && slot == engine.SlotRun {
				s.Early = p.Early
			}
		})
	}
}

// Biggest is the graph with the largest memory_size (the first of equals).
func (l *Loaded) Biggest() int {
	best := 0
	for i, g := range l.Report.Graphs {
		if g.MemorySize > l.Report.Graphs[best].MemorySize {
			best = i
		}
	}
	return best
}

// PoolInfo is a pool as the pools tab lists it.
type PoolInfo struct {
	I                                         int
	PID, Allocator                            string
	Allocs, Frees, PeakLive, Leaked, Physical int64
}

// Pools lists the run's RT2 pools.
func (l *Loaded) Pools() []PoolInfo { return l.pools }

// poolsOf reads the pools from the view's sections.
func poolsOf(raw string) []PoolInfo {
	var out []PoolInfo
	gjson.Get(raw, "sections.pools").ForEach(func(_, p gjson.Result) bool {
		if !p.Get("_more").Exists() {
			out = append(out, PoolInfo{I: len(out), PID: p.Get("pid").String(), Allocator: p.Get("allocator").String(),
				Allocs: p.Get("allocs").Int(), Frees: p.Get("frees").Int(), PeakLive: p.Get("peak_live").Int(),
				Leaked: p.Get("leaked").Int(), Physical: p.Get("physical").Int()})
		}
		return true
	})
	return out
}

func decodeView(raw []byte) (*Loaded, error) {
	l := &Loaded{Raw: string(raw)}
	if err := json.Unmarshal(raw, &l.View); err != nil {
		return nil, err
	}
	l.pools = poolsOf(l.Raw)
	return l, nil
}

// loadDiff compares the run with the baseline, when both are there.
func (s *State) loadDiff() {
	s.DiffRes = nil
	if s.Run == nil || s.Base == nil {
		return
	}
	s.ask(func() func() {
		var d analyze.DiffResult
		err := s.Eng.Query("diff", nil, &d)
		return func() {
			if s.Err = errText(err); err == nil {
				s.DiffRes = &d
				s.Eng.Reveal("#diff")
			}
		}
	})
}

// Cancel stops the running analysis.
func (s *State) Cancel() {
	if s.cancel != nil {
		s.cancel()
	}
}

// SelectGraph shows graph i in the map and the tensor table.
func (s *State) SelectGraph(i int) {
	if s.Run == nil || i < 0 || i >= len(s.Run.Report.Graphs) {
		return
	}
	by, q := s.ColorBy, graphQuery(s.Q, i)
	gen := s.selectGraph(i)
	s.ask(func() func() {
		d := s.fetchGraph(i, by, q)
		return func() { s.showGraph(gen, d) }
	})
}

// graphData is what the page shows of a selected graph.
type graphData struct {
	info *model.Graph
	meta *engine.MapMeta
	page *engine.TensorPage
	err  string
}

// sameQuery tells whether two table queries ask the same (compared as the
// engine receives them: TensorQuery has a slice, so == does not apply).
func sameQuery(a, b engine.TensorQuery) bool {
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return erra == nil && errb == nil && bytes.Equal(ja, jb)
}

// graphQuery is the table's query moved to graph i: the filters and the
// sort stay as they were, the page goes back to the first.
func graphQuery(q engine.TensorQuery, i int) engine.TensorQuery {
	q.Slot, q.Graph, q.PageSize, q.Page, q.Focus = engine.SlotRun, i, PageSize, 0, -1
	return q
}

// selectGraph makes graph i the selection, with nothing of it shown yet,
// and returns the selection's generation. Call it with the lock held.
func (s *State) selectGraph(i int) (gen int) {
	s.Graph, s.Row, s.Info, s.Detail, s.Map, s.Page, s.Pool, s.At = i, -1, nil, nil, nil, nil, -1, nil
	s.Q = graphQuery(s.Q, i)
	s.graphGen++
	return s.graphGen
}

// fetchGraph asks for graph i's figures, its map coloured by by, and the
// table page q, all three at once: the engine answers each in a few ms, but
// each answer waits for the page's thread, busy rendering.
func (s *State) fetchGraph(i int, by string, q engine.TensorQuery) graphData {
	var info model.Graph
	var d graphData
	var ierr, err, qerr error
	var wg sync.WaitGroup
	wg.Go(func() { ierr = s.Eng.Query("graph", map[string]any{"slot": engine.SlotRun, "graph": i}, &info) })
	wg.Go(func() { d.meta, err = s.Eng.ShowMap(engine.SlotRun, i, by) })
	wg.Go(func() { d.page, qerr = s.tensors(q) })
	wg.Wait()
	d.err = errText(ierr, err, qerr)
	if ierr == nil {
		d.info = &info
	}
	return d
}

// showGraph shows d unless the selection changed since gen.
func (s *State) showGraph(gen int, d graphData) {
	if gen != s.graphGen {
		return
	}
	s.Map, s.Page, s.Err = d.meta, d.page, d.err
	if d.info != nil {
		s.Info = d.info
	}
	if k := s.wantKey; k != "" && d.err == "" {
		s.wantKey = ""
		s.SelectKey(k)
	}
}

// ShowPool puts pool i (of Run's sections.pools) on the map.
func (s *State) ShowPool(i int) {
	s.Pool, s.Map = i, nil
	s.graphGen++
	gen := s.graphGen
	s.ask(func() func() {
		meta, err := s.Eng.ShowPool(engine.SlotRun, i)
		return func() {
			if gen == s.graphGen {
				s.Map, s.Err = meta, errText(err)
			}
		}
	})
}

// SetColor recolours a graph's map by op type or stream.
func (s *State) SetColor(by string) {
	if s.Graph < 0 || s.Pool >= 0 || by == s.ColorBy {
		return
	}
	s.ColorBy = by
	gen, g, row := s.graphGen, s.Graph, s.Row
	s.ask(func() func() {
		meta, err := s.Eng.ShowMap(engine.SlotRun, g, by)
		s.Eng.MarkOnMap(row)
		return func() {
			if gen == s.graphGen {
				s.Map, s.Err = meta, errText(err)
			}
		}
	})
}

func (s *State) tensors(q engine.TensorQuery) (*engine.TensorPage, error) {
	var p engine.TensorPage
	if err := s.Eng.Query("tensors", map[string]any{"query": q}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Requery fetches the table page for the current query (after a filter,
// sort or page change).
func (s *State) Requery() {
	if s.Graph < 0 {
		return
	}
	gen, q := s.graphGen, s.Q
	s.ask(func() func() {
		page, err := s.tensors(q)
		return func() {
			if gen != s.graphGen {
				return
			}
			if err != nil {
				s.Err = err.Error()
				return
			}
			s.Err, s.Page = "", page
			s.Q.Page = page.Page
		}
	})
}

// SortBy sorts the table by col; a second click reverses.
func (s *State) SortBy(col string) {
	if s.Q.Sort == col {
		s.Q.Desc = !s.Q.Desc
	} else {
		s.Q.Sort, s.Q.Desc = col, col == "size" || col == "realsize"
	}
	s.Q.Page = 0
	s.Requery()
}

// GoPage shows page p of the table.
func (s *State) GoPage(p int) {
	s.Q.Page, s.Q.Focus = p, -1
	s.Requery()
}

// SelectRow selects row i of the current graph everywhere: table page,
// map outline, detail card.
func (s *State) SelectRow(i int) {
	if s.Graph < 0 {
		return
	}
	s.Row = i
	s.rowGen++
	gen, g, q := s.rowGen, s.Graph, s.Q
	q.Focus = i
	s.ask(func() func() {
		s.Eng.MarkOnMap(i)
		var d engine.TensorDetail
		err := s.Eng.Query("tensor", map[string]any{"slot": engine.SlotRun, "graph": g, "row": i}, &d)
		page, qerr := s.tensors(q)
		return func() {
			if gen != s.rowGen || g != s.Graph {
				return
			}
			s.Err = errText(err, qerr)
			if err == nil {
				s.Detail = &d
				s.Eng.Reveal("#detail")
			}
			if qerr == nil {
				s.Page, s.Q.Page = page, page.Page
			}
		}
	})
}

// SelectKey selects the row of tensor key (from the conflict or peak lists).
func (s *State) SelectKey(key string) {
	g := s.Graph
	s.ask(func() func() {
		var i int
		err := s.Eng.Query("find", map[string]any{"slot": engine.SlotRun, "graph": g, "key": key}, &i)
		return func() {
			if err != nil {
				s.Err = err.Error()
			} else if g == s.Graph {
				s.SelectRow(i)
			}
		}
	})
}

// Picked is called by the page's map script when a rectangle is clicked.
// On a pool's map the hover card says it all.
func (s *State) Picked(row int) {
	s.update(func() {
		if s.Pool < 0 {
			s.SelectRow(row)
		}
	})
}

// Sample analyses the small generated log built into the page.
func (s *State) Sample() {
	f := s.Eng.Sample()
	if f == nil {
		s.Err = "This page was built without the sample log."
		return
	}
	s.Load(engine.SlotRun, f)
}

// Escape is the Esc key: it cancels a running analysis.
func (s *State) Escape() { s.update(s.Cancel) }

// Stepped is called by the page's script when a step of the timeline is
// chosen: the Peak tab lists the tensors live there.
func (s *State) Stepped(step int64) { s.update(func() { s.AtStep(step) }) }

// AtStep lists the tensors of the selected graph live at step.
func (s *State) AtStep(step int64) {
	if s.Graph < 0 || s.Pool >= 0 {
		return
	}
	gen, g := s.graphGen, s.Graph
	s.ask(func() func() {
		var p model.Peak
		err := s.Eng.Query("at", map[string]any{"slot": engine.SlotRun, "graph": g, "step": step}, &p)
		return func() {
			if gen != s.graphGen {
				return
			}
			if s.Err = errText(err); err == nil {
				s.At, s.GraphTab = &p, "peak"
				s.Eng.Reveal("#peak-title")
			}
		}
	})
}

// Dropped is called by the page's script with files dropped on a zone.
func (s *State) Dropped(slot string, f Files) { s.update(func() { s.Load(slot, f) }) }

// Download saves a report file of slot.
func (s *State) Download(slot, name string) {
	s.ask(func() func() {
		err := s.Eng.Download(slot, name)
		return func() {
			s.Err, s.Note = errText(err), ""
			if err == nil {
				s.Note = "Saved " + name
			}
		}
	})
}

// Perfetto opens the trace of the run in the Perfetto UI.
func (s *State) Perfetto() {
	s.Note = "Preparing the Perfetto trace…"
	start := time.Now()
	s.ask(func() func() {
		status, err := s.Eng.OpenPerfetto(engine.SlotRun)
		return func() {
			s.Err, s.Note = errText(err), ""
			if err == nil {
				s.Note = perfettoNote(status, time.Since(start))
			}
		}
	})
}

func perfettoNote(status string, took time.Duration) string {
	switch status {
	case "opened":
		return "Opened in a Perfetto tab."
	case "downloaded:file":
		return "Pages opened from file:// cannot hand a trace to ui.perfetto.dev, so the trace was downloaded: open it there with “Open trace file”."
	case "downloaded:blocked":
		if took > 4*time.Second {
			return "The trace took " + took.Round(time.Second).String() + " to build and the browser blocked the late tab; it was downloaded. Click again to open it (it is ready now)."
		}
		return "The browser blocked the Perfetto tab (allow pop-ups for this page); the trace was downloaded."
	case "downloaded:timeout":
		return "The Perfetto UI did not answer within 8 s (offline? a self-hosted one can be set under Settings, at the bottom); the trace was downloaded: open it there with “Open trace file”."
	case "downloaded:offline":
		return "The browser is offline, so the trace was downloaded: open it in a Perfetto UI with “Open trace file” (a self-hosted one can be set under Settings, at the bottom)."
	}
	return "Perfetto: " + status
}

func errText(errs ...error) string {
	for _, e := range errs {
		if e != nil {
			return e.Error()
		}
	}
	return ""
}
