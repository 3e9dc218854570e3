package model

import (
	"iter"
	"slices"
	"strings"
)

// GraphDone is what a build that analyses graphs as they finish
// (Builder.OnFinished) keeps of a finished graph: what "imas total"
// prints of it and its place in the report's order, in a fixed-size
// record whose texts are numbers in a table of the build. Its rows,
// continuous and atomic lines and GE's other logged fields are let go, so
// that a log of a hundred thousand small graphs costs a small record per
// graph.
type GraphDone struct {
	graph     string // shared with its compilation's instance
	pid       int64
	memType   int64
	truncated int64
	// the figures (model.Figures) but the topo
	memorySize, afterReuse, total, geTotal, theoryMin, noReuse int64
	atomic, zeroCopy, continuous, streams, tensors             int64
	reuseRate, reachTheoryRate                                 float64
	seq                                                        int32
	// topo, and GE's logged mop and smp (the summary line prints them),
	// as numbers in doneGraphs.texts; logged says which of mop and smp
	// GE printed
	topo, mop, smp uint32
	logged         uint8
	hasSummary     bool
}

const (
	loggedMop uint8 = 1 << iota
	loggedSmp
)

// doneBlock is how many GraphDone a block of doneGraphs holds: blocks never
// move, so the list grows without copying what it holds.
const doneBlock = 1024

// doneGraphs holds the finished graphs of a build in finishing order, with
// the figure diagnostics and reuse conflicts of the few that have any.
type doneGraphs struct {
	blocks    [][]GraphDone
	n         int
	diags     map[int][]Diagnostic
	conflicts map[int][]Conflict
	order     []int32 // indexes in report order (Builder.Finish)
	// the topo, mop and smp texts, numbered (they are a few values)
	texts   []string
	textNum map[string]uint32
}

func (d *doneGraphs) at(i int) *GraphDone { return &d.blocks[i/doneBlock][i%doneBlock] }

// num returns the number of text s in d.texts.
func (d *doneGraphs) num(s string) uint32 {
	if n, ok := d.textNum[s]; ok {
		return n
	}
	if d.textNum == nil {
		d.textNum = map[string]uint32{}
	}
	// A copy: s is a substring of its summary line's copy.
	n := uint32(len(d.texts))
	d.texts = append(d.texts, strings.Clone(s))
	d.textNum[d.texts[n]] = n
	return n
}

// add keeps g as done, with its figure diagnostics.
func (d *doneGraphs) add(g *Graph, pid int64, diags []Diagnostic) {
	if d.n%doneBlock == 0 {
		d.blocks = append(d.blocks, make([]GraphDone, doneBlock))
	}
	i := d.n
	d.n++
	f := &g.Figures
	*d.at(i) = GraphDone{graph: g.Graph, pid: pid, memType: g.MemType, truncated: g.Truncated,
		memorySize: f.MemorySize, afterReuse: f.AfterReuse, total: f.Total, geTotal: f.GETotal, theoryMin: f.TheoryMin,
		noReuse: f.NoReuse, atomic: f.Atomic, zeroCopy: f.ZeroCopy, continuous: f.Continuous, streams: f.Streams,
		tensors: f.Tensors, reuseRate: f.ReuseRate, reachTheoryRate: f.ReachTheoryRate,
		seq: int32(g.Seq), topo: d.num(f.Topo), hasSummary: g.HasSummary}
	w := d.at(i)
	if v, ok := g.Logged.Get("mop"); ok {
		w.mop, w.logged = d.num(v), w.logged|loggedMop
	}
	if v, ok := g.Logged.Get("smp"); ok {
		w.smp, w.logged = d.num(v), w.logged|loggedSmp
	}
	if len(diags) > 0 {
		if d.diags == nil {
			d.diags = map[int][]Diagnostic{}
		}
		d.diags[i] = diags
	}
	if len(g.Conflicts) > 0 {
		if d.conflicts == nil {
			d.conflicts = map[int][]Conflict{}
		}
		d.conflicts[i] = g.Conflicts
	}
}

// graph returns the i-th done graph as a Graph without rows.
func (d *doneGraphs) graph(i int) *Graph {
	w := d.at(i)
	g := &Graph{PID: pidString(w.pid), Graph: w.graph, MemType: w.memType, Figures: Figures{
		MemorySize: w.memorySize, AfterReuse: w.afterReuse, Total: w.total, GETotal: w.geTotal, TheoryMin: w.theoryMin,
		NoReuse: w.noReuse, Atomic: w.atomic, ZeroCopy: w.zeroCopy, Continuous: w.continuous, Streams: w.streams,
		Topo: d.texts[w.topo], Tensors: w.tensors, ReuseRate: w.reuseRate, ReachTheoryRate: w.reachTheoryRate},
		Logged: Logged{}, Conflicts: d.conflicts[i], Rows: []Row{}, Reassign: []Reassign{}, AtomicPieces: []AtomicPiece{},
		Truncated: w.truncated, HasSummary: w.hasSummary, Seq: int(w.seq)}
	if g.Conflicts == nil {
		g.Conflicts = []Conflict{}
	}
	if w.logged&loggedMop != 0 {
		g.Logged = append(g.Logged, LoggedField{"mop", d.texts[w.mop]})
	}
	if w.logged&loggedSmp != 0 {
		g.Logged = append(g.Logged, LoggedField{"smp", d.texts[w.smp]})
	}
	return g
}

// smpOf returns the i-th done graph's logged smp, if GE printed one.
func (d *doneGraphs) smpOf(i int) (pid int64, smp string, ok bool) {
	w := d.at(i)
	return w.pid, d.texts[w.smp], w.logged&loggedSmp != 0
}

// sort orders the done graphs as Builder.Finish orders graphs.
func (d *doneGraphs) sort() {
	d.order = make([]int32, d.n)
	for i := range d.order {
		d.order[i] = int32(i)
	}
	slices.SortFunc(d.order, func(a, b int32) int { return d.compare(d.at(int(a)), d.at(int(b))) })
}

func (d *doneGraphs) compare(a, b *GraphDone) int {
	return graphOrder(pidString(a.pid), int(a.seq), a.memType, pidString(b.pid), int(b.seq), b.memType)
}

// graphOrder is the report's order of graphs: by process, then first seen,
// then memory type.
func graphOrder(pa string, sa int, ma int64, pb string, sb int, mb int64) int {
	switch {
	case pa != pb:
		if pidLess(pa, pb) {
			return -1
		}
		return 1
	case sa != sb:
		if sa < sb {
			return -1
		}
		return 1
	case ma != mb:
		if ma < mb {
			return -1
		}
		return 1
	}
	return 0
}

// DoneGraphs is how many graphs the report keeps as GraphDone.
func (r *Report) DoneGraphs() int { return r.done.n }

// WalkGraphs calls fn with every graph of the report in report order:
// a graph of Graphs as open, one a build kept as GraphDone
// (Builder.OnFinished) as done, with open nil. It stops when fn returns
// false.
func (r *Report) WalkGraphs(fn func(open *Graph, done DoneRef) bool) {
	d := &r.done
	i, j := 0, 0
	for i < len(d.order) || j < len(r.Graphs) {
		if j == len(r.Graphs) || i < len(d.order) && graphOrderOf(d.at(int(d.order[i])), r.Graphs[j]) < 0 {
			if !fn(nil, DoneRef{d, int(d.order[i])}) {
				return
			}
			i++
			continue
		}
		if !fn(r.Graphs[j], DoneRef{}) {
			return
		}
		j++
	}
}

func graphOrderOf(a *GraphDone, g *Graph) int {
	return graphOrder(pidString(a.pid), int(a.seq), a.memType, g.PID, g.Seq, g.MemType)
}

// DoneRef is a graph a build kept as GraphDone.
type DoneRef struct {
	d *doneGraphs
	i int
}

// Graph returns the graph as a Graph without rows, made anew at each call.
func (r DoneRef) Graph() *Graph { return r.d.graph(r.i) }

// Diagnostics returns the figure diagnostics found when the graph was
// analysed (OnFinished).
func (r DoneRef) Diagnostics() []Diagnostic { return r.d.diags[r.i] }

// AllGraphs is every graph of the report in report order (WalkGraphs).
// A graph kept as GraphDone is made anew at each call.
func (r *Report) AllGraphs() iter.Seq[*Graph] {
	return func(yield func(*Graph) bool) {
		r.WalkGraphs(func(g *Graph, done DoneRef) bool {
			if g == nil {
				g = done.Graph()
			}
			return yield(g)
		})
	}
}
