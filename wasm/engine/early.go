package engine

import (
	"sort"
	"sync"
	"time"

	"imas/core"
	"imas/core/model"
)

// EarlyEvery spaces the messages that carry Early: each one costs the
// engine a copy of the list and the page a decode.
const EarlyEvery = time.Second

// EarlyCap is the most finished graphs an analysis shows while it reads:
// the page re-renders them with every progress message.
const EarlyCap = 25

// Early is what the page shows of an analysis' graphs while later files
// are still being read: how many graphs are finished (nothing later in
// the logs can change them, core.Options.Finished) and, as a View's
// graphs, the largest EarlyCap of them by memory_size, largest first,
// with their figures — those of the final report — and no rows or lists
// (Counts has the length of each one's conflict list).
type Early struct {
	Graphs int `json:"graphs"`
	View
}

// EarlyList collects the graphs of a running analysis as they are
// finished (its Finished is core.Options.Finished, called on the goroutine
// that builds the model) for Snapshot, called from another. It copies a
// few fields of each graph and keeps the largest of them: no rows.
type EarlyList struct {
	mu      sync.Mutex
	build   int
	graphs  int
	largest []earlyGraph // the largest EarlyCap once trimmed
	// floor, once a trim left EarlyCap graphs, is the smallest of them: a
	// graph no larger can never be shown (equals keep their finish order),
	// so it is counted and not copied.
	floor   int64
	full    bool
	version int // changes with every graph told of
}

// earlyGraph is a finished graph's figures and its count of conflicts.
type earlyGraph struct {
	g         *model.Graph
	conflicts int
}

// Finished is told of the finished graphs of build; graphs of an earlier
// build (the core started the build again) are forgotten.
func (e *EarlyList) Finished(build int, gs []*model.Graph) {
	e.mu.Lock()
	if build != e.build {
		e.build, e.graphs, e.largest, e.full = build, 0, nil, false
	}
	for _, g := range gs {
		if e.full && g.MemorySize <= e.floor {
			continue
		}
		e.largest = append(e.largest, earlyGraph{&model.Graph{PID: g.PID, Graph: g.Graph, MemType: g.MemType, Figures: g.Figures}, len(g.Conflicts)})
	}
	e.graphs += len(gs)
	e.version += len(gs)
	if len(e.largest) >= 4*EarlyCap {
		e.trim()
	}
	e.mu.Unlock()
}

// trim keeps the EarlyCap largest, largest first; equals keep the order
// they finished in.
func (e *EarlyList) trim() {
	sort.SliceStable(e.largest, func(i, j int) bool { return e.largest[i].g.MemorySize > e.largest[j].g.MemorySize })
	e.largest = e.largest[:min(len(e.largest), EarlyCap)]
	if len(e.largest) == EarlyCap {
		e.floor, e.full = e.largest[EarlyCap-1].g.MemorySize, true
	}
}

// Snapshot returns the graphs finished so far, if any were told of since
// the version given (0 at first), and the version it shows.
func (e *EarlyList) Snapshot(since int) (*Early, int) {
	if e == nil {
		return nil, since
	}
	e.mu.Lock()
	var out *Early
	if e.version != since {
		e.trim()
		out = &Early{Graphs: e.graphs}
		out.Report = &model.Report{}
		for _, eg := range e.largest {
			out.Report.Graphs = append(out.Report.Graphs, eg.g)
			out.Counts = append(out.Counts, GraphCounts{Conflicts: eg.conflicts})
		}
	}
	v := e.version
	e.mu.Unlock()
	return out, v
}

// RateWindow is how far back the recent read rate looks: long enough to
// smooth the steps of chunked reads, short enough to follow a rate that
// changes (the first seconds read the head of every file; a slow file).
const RateWindow = 5.0 // seconds

// recentRate follows the bytes read over the last RateWindow seconds.
type recentRate struct{ samples []rateSample }

type rateSample struct {
	at   float64 // seconds since the start
	read int64
}

// add records read bytes at t seconds and returns the rate over the
// window in bytes a second: over the whole read until the window has a
// second of samples, 0 before anything is read.
func (r *recentRate) add(t float64, read int64) float64 {
	r.samples = append(r.samples, rateSample{t, read})
	for len(r.samples) > 1 && t-r.samples[1].at >= RateWindow {
		r.samples = r.samples[1:] // keeps the oldest at least RateWindow old
	}
	if old := r.samples[0]; t-old.at >= 1 {
		return float64(read-old.read) / (t - old.at)
	}
	if t <= 0 {
		return 0
	}
	return float64(read) / t
}

// finalCounts puts a run's line and record counts into p, the last
// progress message's: the core counts a chunk's lines once it is parsed,
// and reports after reading each chunk, so the last chunks (with parse
// workers, often all of them) are parsed after its last report.
func finalCounts(p *core.Progress, run *Run) {
	if run == nil || run.Report == nil || run.Loaded {
		return
	}
	in := run.Report.Inputs
	p.Lines, p.Candidates, p.Records = in.Lines, in.Candidates, in.Records
}
