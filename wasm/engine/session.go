// Package engine is the analysing half of the page. It runs core.Analyze on
// the files the page hands over, keeps the reports, and answers the UI's
// queries: a trimmed view of a report, pages of the tensor table, the
// memory-map rectangles, tensor details, output files and the diff.
//
// Everything here is plain Go and tested natively; serve_js.go and
// client_js.go carry the queries over postMessage between the page and a
// Web Worker (or, for comparison, a MessageChannel in the page's thread).
package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"imas/core"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
	"imas/core/rowpack"
	"imas/internal/driver"
)

// Slots name the runs a session holds: the analysed logs, and the baseline
// they are compared with.
const (
	SlotRun  = "run"
	SlotBase = "base"
)

// Run is one analysed (or loaded) set of logs. Its graphs' rows,
// continuous lines, atomic pieces and live curves are in Rows, encoded
// (Report.Spilled is Rows): read them through Report.WithRows.
type Run struct {
	Report  *model.Report
	Rows    *rowpack.Store
	Inputs  []string // names as the user gave them
	Bytes   int64    // input bytes as given (compressed size for archives)
	Seconds float64  // wall time of the analysis
	Loaded  bool     // read from a saved report.json rather than logs
}

// Session holds the runs and the per-graph caches of the tensor table. It is
// safe for concurrent use: queries on one run go on while another is read.
//
// A run's rows stay encoded (Run.Rows); the graphs the page looks at are
// decoded once and kept, the last two of them (the table, the map
// and a tensor's details ask for the same graph in turn, the comparison
// for the other run's).
type Session struct {
	// Parser, when set, parses the chunks of inputs of at least
	// ParallelBytes in the page's parse workers, Parsers of them
	// (parsers_js.go); smaller inputs are parsed where the engine runs.
	Parser  core.ChunkParser
	Parsers int
	// alwaysParser uses Parser for inputs of any size (the warm-up).
	alwaysParser bool

	mu     sync.Mutex
	runs   map[string]*Run
	loaded [2]*loadedGraph              // the last used last
	marks  map[graphRef]map[string]bool // tensor keys in conflicts
}

// loadedGraph is a graph with its rows decoded, and the orders of its
// tensor table by column (cached: a sort of 10^6 rows is dear).
type loadedGraph struct {
	ref    graphRef
	g      *model.Graph
	orders map[string][]int32
}

type graphRef struct {
	slot  string
	graph int
}

// NewSession returns an empty session.
func NewSession() *Session {
	return &Session{runs: map[string]*Run{}, marks: map[graphRef]map[string]bool{}}
}

// ErrNoRun is returned by queries on a slot that holds nothing.
var ErrNoRun = errors.New("nothing analysed yet")

// Run returns the run in slot, or nil.
func (s *Session) Run(slot string) *Run {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runs[slot]
}

// Analyze reads srcs into slot, replacing what was there: logs, or one saved
// report.json, told apart by driver.Load as the CLI and the server do. A run
// without a record is refused with the explanation the CLI prints
// (driver.Unusable), and the slot keeps what it held.
func (s *Session) Analyze(ctx context.Context, slot string, srcs []input.Source, progress func(core.Progress)) (*Run, error) {
	return s.AnalyzeShowing(ctx, slot, srcs, progress, nil)
}

// AnalyzeShowing is Analyze that tells early, if not nil, of the graphs
// finished while the logs are read. Either way each compilation is
// analysed as soon as it is finished, as "imas report" analyses it, and
// its rows go to the run's row store; the report is the same.
func (s *Session) AnalyzeShowing(ctx context.Context, slot string, srcs []input.Source, progress func(core.Progress), early *EarlyList) (*Run, error) {
	if slot != SlotRun && slot != SlotBase {
		return nil, fmt.Errorf("unknown slot %q", slot)
	}
	start := time.Now()
	run := &Run{}
	for _, src := range srcs {
		run.Inputs = append(run.Inputs, src.Name)
		run.Bytes += max(src.Size, 0)
	}
	rows := rowpack.New()
	opt := core.Options{Progress: progress, Spill: rows}
	if early != nil {
		opt.Finished = early.Finished
	}
	if s.Parser != nil && s.Parsers > 0 && (run.Bytes >= ParallelBytes || s.alwaysParser) {
		// Two chunks out per worker: one parsed, one waiting in its
		// queue, so that no worker waits for the engine between chunks.
		opt.Parser, opt.Workers = s.Parser, 2*s.Parsers
	}
	rep, origin, err := driver.Load(ctx, srcs, driver.Report, opt)
	if err != nil {
		var unusable *driver.Unusable
		if errors.As(err, &unusable) {
			return nil, errors.New(unusable.Text())
		}
		return nil, err
	}
	// The analysis puts each graph as soon as its compilation is finished;
	// the graphs still open at the end of the input, and those of a saved
	// report, are put here.
	for _, g := range rep.Graphs {
		rows.Put(g)
	}
	rows.Retain(rep.Graphs)
	rows.Seal()
	rep.Spilled = rows
	run.Report, run.Rows, run.Loaded = rep, rows, origin == driver.FromSavedReport
	run.Seconds = time.Since(start).Seconds()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drop(slot)
	s.runs[slot] = run
	return run, nil
}

// ParallelBytes is the least input the parse workers are used for: below
// two chunks, handing chunks over costs more than it saves.
const ParallelBytes = 2 * input.ChunkSize

// drop forgets slot and its caches.
func (s *Session) drop(slot string) {
	delete(s.runs, slot)
	for k, l := range s.loaded {
		if l != nil && l.ref.slot == slot {
			s.loaded[k] = nil
		}
	}
	for k := range s.marks {
		if k.slot == slot {
			delete(s.marks, k)
		}
	}
}

func (s *Session) graph(slot string, i int) (*model.Graph, error) {
	run := s.runs[slot]
	if run == nil {
		return nil, ErrNoRun
	}
	if i < 0 || i >= len(run.Report.Graphs) {
		return nil, fmt.Errorf("no graph %d", i)
	}
	return run.Report.Graphs[i], nil
}

// rows returns graph i of slot with its rows (loaded).
func (s *Session) rows(slot string, i int) (*model.Graph, error) {
	l, err := s.load(slot, i)
	if err != nil {
		return nil, err
	}
	return l.g, nil
}

// load returns graph i of slot with its rows, decoded, or kept from an
// earlier call.
func (s *Session) load(slot string, i int) (*loadedGraph, error) {
	g, err := s.graph(slot, i)
	if err != nil {
		return nil, err
	}
	ref := graphRef{slot, i}
	if l := s.loaded[1]; l != nil && l.ref == ref {
		return l, nil
	}
	if l := s.loaded[0]; l != nil && l.ref == ref {
		s.loaded[0], s.loaded[1] = s.loaded[1], l
		return l, nil
	}
	full, err := s.runs[slot].Report.WithRows(g)
	if err != nil {
		return nil, err
	}
	l := &loadedGraph{ref: ref, g: full, orders: map[string][]int32{}}
	s.loaded[0], s.loaded[1] = s.loaded[1], l
	return l, nil
}

// conflicted returns the tensor keys that take part in a conflict of graph i.
func (s *Session) conflicted(slot string, i int, g *model.Graph) map[string]bool {
	ref := graphRef{slot, i}
	if m, ok := s.marks[ref]; ok {
		return m
	}
	m := map[string]bool{}
	for _, c := range g.Conflicts {
		m[c.A], m[c.B] = true, true
	}
	s.marks[ref] = m
	return m
}

// Output writes the report file name of slot (see export.Outputs).
func (s *Session) Output(slot, name string) (data []byte, mime string, err error) {
	s.mu.Lock()
	run := s.runs[slot]
	s.mu.Unlock()
	if run == nil {
		return nil, "", ErrNoRun
	}
	for _, o := range export.Outputs() {
		if o.Name == name {
			var b bytes.Buffer
			if err := o.Write(&b, run.Report); err != nil {
				return nil, "", err
			}
			return b.Bytes(), o.Mime, nil
		}
	}
	return nil, "", fmt.Errorf("no output %q", name)
}
