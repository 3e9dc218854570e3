package model

import (
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"imas/core/diag"
	"imas/core/gelog"
	"imas/core/internal/prefault"
)

// Builder assembles a Report from records fed in log order (files merged by
// timestamp, lines in file order). It is not safe for concurrent use.
type Builder struct {
	R *Report

	paths  []string // file index → path
	intern map[string]string

	// static graphs
	graphs    map[graphKey]*Graph
	instances map[nameKey]*instance
	lastInst  map[int64]*instance // per pid: the instance most recently touched
	seq       int
	// Set rows come in runs of one graph per process; the runs of
	// processes that log at the same time interleave once their files are
	// merged by time. So each process keeps the graph of its previous row
	// (lastSets), reused while that process's compilations did not change
	// (forgetSet).
	lastSets []setRun
	lastSet  int // the entry of lastSets used last

	// run-log/debug-log duplicate detection; a figures-only build drops
	// the statements older than dupKeep behind the latest (eventCut), once
	// the index has grown to eventPrune entries
	events      map[eventKey]eventSeen
	eventLatest int64
	eventCut    int64
	eventPrune  int

	hints map[HintKey]Hint
	descs lifeDescs
	small rowBlocks // rows of small graphs
	spare spareRows // rows of finished graphs, for the next ones

	// the load- and run-time families (docs/runtime.md) keep their state here
	other *otherState
	// memErrs groups memory-error statements (build_memerr.go).
	memErrs *memErrState

	// SummaryOnly drops what only the detail analyses read: operator
	// address rows (the address checks of "imas report") are parsed and
	// counted but not kept. Set it before the first Add.
	SummaryOnly bool
	// PoolRows, when set (and SummaryOnly is not), takes the pools'
	// allocation rows as they age ("imas report"'s spill store): each
	// pool's figures are counted while its lines stream, as for a summary,
	// and it keeps in memory only its latest rows and the changes to older
	// ones (a free that comes late); Pool.RowReader reads them all back. Set
	// it before the first Add.
	PoolRows PoolRowStore

	// OnFinished, when set, is called with the graphs of a compilation
	// (one per memory type) once nothing later in the log can change their
	// rows: each of them has its summary line and the process has moved on
	// to another compilation (lines such as "after append ws" edit the
	// rows of the compilation most recently touched, after its summary).
	// It computes their figures and conflicts and returns each one's
	// figure diagnostics; the builder then keeps only a GraphDone of each
	// (the report lists them with Report.WalkGraphs), and lets the rest
	// go: rows, continuous and atomic lines, logged fields. A later
	// statement that would still need those rows is reported
	// (diag.FinishedGraphEdited). Set it before the first Add. It also
	// drops what only the detail analyses and report.json read: regions and
	// operator-address checks, and run-log/debug-log copies whose window
	// has passed (IsDuplicateEvent).
	OnFinished func(gs []*Graph) [][]Diagnostic
	// the most graphs created and not handed to OnFinished at any time
	// (tests check it stays small)
	maxOpen int
	// what the graphs handed to OnFinished held, for the sanity counts
	droppedRows, droppedCont, droppedAtomic, doneSummaries int64
	// OnSpill, when set (and OnFinished is not), is called at the same
	// point for "imas report": it analyses the graphs and moves their
	// rows, continuous lines and atomic pieces to a store (a spill store,
	// core/spill); the graphs stay in the report without their rows.
	OnSpill func(gs []*Graph)
	// AddrSpill, when set, takes the operator-address rows of the address
	// checks a few thousand at a time while the model is built
	// (addr_spill.go). Set it before the first Add.
	AddrSpill AddrRowStore
	// AddrRowsHeld, with AddrSpill, is how many address rows the build
	// holds before it moves them (0: addrRowsHeld).
	AddrRowsHeld int
	// KeepRows, with OnSpill, leaves the graphs their rows: OnSpill only
	// analyses them as they are finished (the page, which keeps every
	// graph's rows and shows the finished graphs while it reads).
	KeepRows bool
	// graphs handed to OnSpill (they stay in the graph index)
	spilledGraphs int
}

// figuresOnly: the build keeps what the summary prints (OnFinished).
func (b *Builder) figuresOnly() bool { return b.OnFinished != nil }

// MaxOpenGraphs is the most graphs that were created and not yet finished
// (OnFinished) at any time of the build.
func (b *Builder) MaxOpenGraphs() int { return b.maxOpen }

// setRun is the graph a process's previous Set row went to.
type setRun struct {
	pid, memtype int64
	name         string
	g            *Graph // nil: forgotten
	// backed: g.Rows[:backed] is memory the kernel has backed
	// (prefault); rows past it are backed a step at a time as they
	// come. cap(g.Rows) when not known.
	backed int
}

// maxSetRuns is the most processes whose last graph is kept; more
// processes logging at once only look their graph up more often.
const maxSetRuns = 64

// setRunOf returns the entry of process pid in lastSets, adding it (or
// taking the place of another process's) when it has none.
func (b *Builder) setRunOf(pid int64) *setRun {
	if i := b.lastSet; i < len(b.lastSets) && b.lastSets[i].pid == pid {
		return &b.lastSets[i]
	}
	for i := range b.lastSets {
		if b.lastSets[i].pid == pid {
			b.lastSet = i
			return &b.lastSets[i]
		}
	}
	i := len(b.lastSets)
	if i < maxSetRuns {
		b.lastSets = append(b.lastSets, setRun{pid: pid})
	} else {
		i = int(uint64(pid) % maxSetRuns)
		b.lastSets[i] = setRun{pid: pid}
	}
	b.lastSet = i
	return &b.lastSets[i]
}

// forgetSet drops the graph kept for process pid's Set rows: its
// compilations changed (an instance was opened, closed or finished).
func (b *Builder) forgetSet(pid int64) {
	for i := range b.lastSets {
		if b.lastSets[i].pid == pid {
			b.lastSets[i].g = nil
		}
	}
}

type graphKey struct {
	pid     int64
	name    string // instance name (with #n)
	memtype int64
}

type nameKey struct {
	pid  int64
	name string
}

// An instance is kept for every compilation of a run (a recompilation is
// numbered after the ones before), so it is small.
type instance struct {
	pid     int64
	inst    string // the name as printed, with "#n" after the first
	summary memtypes
	// graphs: one per memory type, in order of creation; those handed to
	// OnFinished are kept as GraphDone and leave the list
	graphs []*Graph
	n, seq int32
	closed bool // AfterAssignMemory seen
	// finished: handed to OnFinished
	finished bool
}

// name is the graph name as printed, without the "#n" of a recompilation.
func (in *instance) name() string {
	if in.n == 1 {
		return in.inst
	}
	return in.inst[:len(in.inst)-len(strconv.Itoa(int(in.n)))-1]
}

// memtypes is a small set of memory types (those of a compilation that
// printed their summary): nearly always HBM alone, which is shared.
type memtypes []int64

var hbmOnly = memtypes{2}

func (m memtypes) has(mt int64) bool {
	for _, v := range m {
		if v == mt {
			return true
		}
	}
	return false
}

func (m memtypes) add(mt int64) memtypes {
	switch {
	case m.has(mt):
		return m
	case len(m) == 0 && mt == 2:
		return hbmOnly
	}
	return append(m[:len(m):len(m)], mt) // never into the shared set
}

type eventKey struct {
	pid, tid int64
	key      uint64
}

type eventSeen struct {
	time  int64
	file  int32
	event bool
}

// DupEventWindow is how close (µs) two copies of a GEEVENT line must be.
const DupEventWindow = 2000

// NewBuilder returns a builder; paths maps record File indexes to names.
func NewBuilder(paths []string) *Builder {
	return &Builder{
		R:         &Report{Schema: Schema, DiagSummary: map[string]int64{}},
		paths:     paths,
		intern:    map[string]string{},
		graphs:    map[graphKey]*Graph{},
		instances: map[nameKey]*instance{},
		lastInst:  map[int64]*instance{},
		events:    map[eventKey]eventSeen{},
	}
}

// SetPaths updates the file index → path table (files may be added while
// building).
func (b *Builder) SetPaths(paths []string) { b.paths = paths }

// Intern returns a shared copy of s: node and op-type names repeat across
// rows, graphs and files.
func (b *Builder) Intern(s string) string {
	if v, ok := b.intern[s]; ok {
		return v
	}
	b.intern[s] = s
	return s
}

// Path returns the path of a file index.
func (b *Builder) Path(f int32) string {
	if int(f) < len(b.paths) && f >= 0 {
		return b.paths[f]
	}
	return ""
}

// Diag adds a diagnostic.
func (b *Builder) Diag(d Diagnostic) {
	b.R.Diagnostics = append(b.R.Diagnostics, d)
	b.R.DiagSummary[d.Reason]++
}

// IsDuplicateEvent reports (and remembers) whether m is the run-log or
// debug-log copy of a GEEVENT line already seen: same pid, tid and message
// within DupEventWindow µs, from another file or the other channel.
func (b *Builder) IsDuplicateEvent(m *gelog.Meta) bool {
	if m.EventKey == 0 {
		return false
	}
	if b.figuresOnly() && m.Time != 0 {
		b.eventLatest = max(b.eventLatest, m.Time)
		if b.eventCut != 0 && m.Time < b.eventCut+DupEventWindow {
			b.Diag(Diagnostic{Path: b.Path(m.File), Line: m.Line, Reason: diag.DuplicateUnchecked})
		}
	}
	k := eventKey{m.PID, m.TID, m.EventKey}
	if s, ok := b.events[k]; ok {
		dt := m.Time - s.time
		if dt < 0 {
			dt = -dt
		}
		if dt <= DupEventWindow && (s.file != m.File || s.event != m.Event) {
			b.R.DiagSummary[diag.DuplicateEvent]++
			return true
		}
	}
	b.events[k] = eventSeen{time: m.Time, file: m.File, event: m.Event}
	if b.figuresOnly() && len(b.events) >= b.eventPrune {
		b.pruneEvents()
	}
	return false
}

// dupKeep is how far behind the latest statement (µs of log time) a
// figures-only build keeps statements for the duplicate check: far more
// than DupEventWindow, since files merged by time may still step back a
// little, and little enough that a log of many graphs keeps few.
const dupKeep = 10 * 60 * 1_000_000

// pruneEvents drops the statements more than dupKeep behind the latest:
// a later copy of one can only come that far behind, where
// IsDuplicateEvent reports it (diag.DuplicateUnchecked).
func (b *Builder) pruneEvents() {
	if cut := b.eventLatest - dupKeep; cut > b.eventCut {
		b.eventCut = cut
		for k, s := range b.events {
			if s.time != 0 && s.time < cut {
				delete(b.events, k)
			}
		}
	}
	b.eventPrune = max(2*len(b.events), 1<<12)
}

// Add feeds one record.
func (b *Builder) Add(rec gelog.Record) {
	m := gelog.M(rec)
	if b.IsDuplicateEvent(m) {
		return
	}
	switch r := rec.(type) {
	case *gelog.Reject:
		b.Diag(Diagnostic{Path: b.Path(r.File), Line: r.Line, Reason: r.Reason, Detail: r.Detail, Text: r.Text, Rejected: true})
		if r.AtLimit {
			b.o().cutAtLimit++
		}
		if r.Graph != "" && r.Reason == diag.Truncated {
			if g := b.graphFor(r.PID, r.Graph, r.MemType, r.TID, false); g != nil {
				g.Truncated++
			}
		}
	case *gelog.Ignored:
		b.R.DiagSummary[diag.IgnoredCounter(r.What)]++
	case *gelog.SetRow:
		b.addSet(r)
	case *gelog.ContRow:
		b.addCont(r)
	case *gelog.AtomicPiece:
		b.addAtomic(r)
	case *gelog.AtomicClean:
		g := b.graphForAux(r.PID, r.Graph, r.MemType, r.TID)
		g.AtomicClean = append(g.AtomicClean, AtomicClean{Node: b.Intern(r.Node), OpType: b.Intern(r.OpType), Offsets: r.Offsets, Sizes: r.Sizes, Line: r.Line})
	case *gelog.AfterAssign:
		b.addAfterAssign(r)
	case *gelog.AppendWs:
		b.addAppendWs(r)
	case *gelog.AppendWsSize:
		if in := b.lastInst[r.PID]; in != nil {
			if g := b.graphs[graphKey{in.pid, in.inst, 2}]; g != nil {
				if g.AppendWs == nil {
					g.AppendWs = &AppendWsTotal{}
				}
				g.AppendWs.OriginSize, g.AppendWs.LastSize = r.Origin, r.Last
			}
		}
	default:
		if !b.addOther(rec) {
			b.Diag(Diagnostic{Path: b.Path(m.File), Line: m.Line, Reason: diag.UnhandledRecord, Text: ""})
		}
	}
}

// inst returns the current instance of (pid, name), opening a new
// compilation when the current one is closed and open is requested.
func (b *Builder) inst(pid int64, name string, reopen bool) *instance {
	b.forgetSet(pid)
	k := nameKey{pid, name}
	in := b.instances[k]
	if in == nil {
		b.seq++
		in = &instance{pid: pid, inst: name, n: 1, seq: int32(b.seq)}
		b.instances[k] = in
	} else if reopen && in.closed {
		n := in.n + 1
		b.seq++
		in = &instance{pid: pid, inst: name + "#" + strconv.Itoa(int(n)), n: n, seq: int32(b.seq)}
		b.instances[k] = in
	}
	b.setLast(pid, in)
	return in
}

// setLast makes in the process's most recently touched compilation; the
// one it replaces is finished if it can be (OnFinished).
func (b *Builder) setLast(pid int64, in *instance) {
	prev := b.lastInst[pid]
	b.lastInst[pid] = in
	if prev == nil || prev == in || prev.finished || !prev.closed || (b.OnFinished == nil && b.OnSpill == nil) {
		return
	}
	for _, g := range prev.graphs {
		if !prev.summary.has(g.MemType) {
			return
		}
	}
	prev.finished = true
	if b.OnFinished == nil {
		b.spill(prev.graphs)
		return
	}
	diags := b.OnFinished(prev.graphs)
	for i, g := range prev.graphs {
		b.droppedRows += int64(len(g.Rows))
		b.droppedCont += int64(len(g.Reassign))
		b.droppedAtomic += int64(len(g.AtomicPieces))
		if g.HasSummary {
			b.doneSummaries++
		}
		var d []Diagnostic
		if i < len(diags) {
			d = diags[i]
		}
		b.R.done.add(g, prev.pid, d)
		delete(b.graphs, graphKey{prev.pid, prev.inst, g.MemType})
		b.forgetHint(HintKey{prev.pid, prev.name(), g.MemType})
		b.spare.put(g.Rows)
		g.Rows = nil
	}
	prev.graphs = nil
}

// spill hands the graphs of a finished compilation to OnSpill and counts
// what it took from them, for the sanity counts.
func (b *Builder) spill(gs []*Graph) {
	var rows, cont, atomic int64
	for _, g := range gs {
		rows += int64(len(g.Rows))
		cont += int64(len(g.Reassign))
		atomic += int64(len(g.AtomicPieces))
	}
	b.OnSpill(gs)
	b.spilledGraphs += len(gs)
	if b.KeepRows {
		return
	}
	b.droppedRows += rows
	for _, g := range gs {
		g.Rows = []Row{}
		cont -= int64(len(g.Reassign))
		atomic -= int64(len(g.AtomicPieces))
	}
	b.droppedCont += cont
	b.droppedAtomic += atomic
}

// forgetHint drops the size hint of a finished compilation's graph: a
// later compilation of the name is sized by what is counted after (hints
// only size allocations), and a log of many graph names keeps no hint
// of each.
func (b *Builder) forgetHint(k HintKey) { delete(b.hints, k) }

// editsFinished reports a statement that changes a graph of a finished
// compilation (OnFinished): its figures were computed without it.
func (b *Builder) editsFinished(in *instance, file int32, line int64, what string) {
	b.Diag(Diagnostic{Path: b.Path(file), Line: line, Reason: diag.FinishedGraphEdited,
		Detail: what + " of graph " + in.inst + " (pid " + strconv.FormatInt(in.pid, 10) + ") came after the process had moved on to another graph; this summary's figures do not include it"})
}

func (b *Builder) graph(in *instance, memtype int64, file int32, line int64) *Graph {
	k := graphKey{in.pid, in.inst, memtype}
	g := b.graphs[k]
	if g == nil && in.finished && in.summary.has(memtype) {
		// A graph kept as GraphDone: its figures are final, and what
		// this statement would change of it is not kept (statements that
		// change a figure are reported by their callers).
		return &Graph{PID: pidString(in.pid), Graph: in.inst, MemType: memtype, Seq: int(in.seq)}
	}
	if g == nil {
		// in.inst is shared by the instance's graphs already.
		g = &Graph{PID: pidString(in.pid), Graph: in.inst, MemType: memtype,
			Logged: Logged{}, Conflicts: []Conflict{}, Rows: b.rowsFor(in, memtype), Reassign: []Reassign{}, AtomicPieces: []AtomicPiece{},
			File: file, Line: line, Seq: int(in.seq)}
		b.graphs[k] = g
		in.graphs = append(in.graphs, g)
		b.maxOpen = max(b.maxOpen, len(b.graphs)-b.spilledGraphs)
		if in.finished && memtype == 2 {
			// A finished compilation has a graph already.
			// HBM's zero-copy figure counts its siblings' rows.
			b.editsFinished(in, file, line, "an HBM summary")
		}
	}
	return g
}

// HintKey names the rows of one graph name, all compilations together.
type HintKey struct {
	PID     int64
	Graph   string
	MemType int64
}

// Hint is what the parsers counted for a HintKey before the build.
// AfterAssignMemory summaries are counted per channel (plain, GEEVENT):
// GE prints each summary on both when the run log is on.
type Hint struct {
	Rows      int
	Summaries [2]int
}

// SizeHints tells the builder how many rows each graph will get, so that
// row slices are allocated once at their size instead of growing by
// doubling: for big logs the growth copied every row twice over, on memory
// the process touched for the first time. Hints only size allocations.
func (b *Builder) SizeHints(h map[HintKey]Hint) { b.hints = h }

// rowsFor returns the row slice of a new graph of instance in: its share of
// the rows counted for the name, assuming every compilation of the name has
// as many rows (they usually do; append grows the rest).
func (b *Builder) rowsFor(in *instance, memtype int64) []Row {
	n := b.hintedRows(HintKey{in.pid, in.name(), memtype})
	if n == 0 {
		return []Row{}
	}
	if n <= smallGraphRows {
		return b.small.take(n)
	}
	if rows := b.spare.take(n); rows != nil {
		return rows
	}
	rows := make([]Row, 0, n)
	prefault.Slice(rows)
	return rows
}

// spareRows keeps the row arrays of graphs handed to OnFinished, whose
// rows nothing reads any more, for graphs opened later: a new array is
// zeroed and backed by the kernel page by page, which costs more than
// filling it, and processes compile graphs of like sizes again and again.
// setRow writes every field of a row, so a kept row needs no clearing.
type spareRows struct{ rows [][]Row }

// maxSpareRows is the most arrays kept.
const maxSpareRows = 8

// put keeps rows unless they come from the shared blocks of small graphs
// (their capacity is no larger) or enough are kept.
func (s *spareRows) put(rows []Row) {
	if cap(rows) > smallGraphRows && len(s.rows) < maxSpareRows {
		s.rows = append(s.rows, rows[:0])
	}
}

// take returns the smallest kept array with room for n rows, empty, or nil.
func (s *spareRows) take(n int) []Row {
	best := -1
	for i, r := range s.rows {
		if cap(r) >= n && (best < 0 || cap(r) < cap(s.rows[best])) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	rows := s.rows[best]
	last := len(s.rows) - 1
	s.rows[best], s.rows[last] = s.rows[last], nil
	s.rows = s.rows[:last]
	return rows
}

// smallGraphRows is the most rows a graph gets from the shared blocks.
const smallGraphRows = 128

// rowBlocks hands out the row slices of small graphs from shared blocks:
// a log of thousands of small graphs would otherwise pay an allocation and
// fresh pages for each. A slice's capacity ends where the next graph's
// begins, so a graph that outgrows it is copied, never overwrites.
type rowBlocks struct{ block []Row }

func (r *rowBlocks) take(n int) []Row {
	if cap(r.block)-len(r.block) < n {
		r.block = make([]Row, 0, 8*smallGraphRows)
		prefault.Slice(r.block)
	}
	i := len(r.block)
	r.block = r.block[:i+n]
	return r.block[i : i : i+n]
}

// hintedRows is one compilation's share of the rows counted for k.
func (b *Builder) hintedRows(k HintKey) int {
	h := b.hints[k]
	n := h.Rows
	if c := max(h.Summaries[0], h.Summaries[1]); c > 1 {
		n = (h.Rows + c - 1) / c
	}
	return n
}

// grow makes room for one more element of a full slice by doubling it into
// memory backed in one call (prefault). append grows big slices by 1.25×,
// which would copy a list of hundreds of thousands of rows several times
// over, each time into memory touched for the first time.
func grow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	n := make([]T, 0, max(2*cap(s), 16))
	prefault.Slice(n)
	return append(n, s...)
}

// nextSlot grows s by one element (grow's doubling) and returns it with a
// pointer to the new element, for lists whose rows are stored field by
// field (setRow). The element may hold an older value.
func nextSlot[T any](s []T) ([]T, *T) {
	n := len(s)
	s = grow(s)[:n+1]
	return s, &s[n]
}

// graphFor finds the graph a statement names, opening a new instance when a
// row arrives after the graph's AfterAssignMemory (a recompilation).
func (b *Builder) graphFor(pid int64, name string, memtype int64, _ int64, reopen bool) *Graph {
	in := b.inst(pid, name, reopen)
	return b.graph(in, memtype, -1, 0)
}

// graphForAux places continuous/atomic lines. Old GE printed a subgraph name
// in some of them: a name with no graph of its own goes to the process's
// most recent open graph.
func (b *Builder) graphForAux(pid int64, name string, memtype int64, tid int64) *Graph {
	if _, ok := b.instances[nameKey{pid, name}]; !ok {
		if in := b.lastInst[pid]; in != nil && !in.closed {
			return b.graph(in, memtype, -1, 0)
		}
	}
	return b.graphFor(pid, name, memtype, tid, true)
}

// rowBackStep is the fewest rows backed at once past a graph's hint
// (about 1 MB).
const rowBackStep = 4096

func (b *Builder) addSet(r *gelog.SetRow) {
	c := b.setRunOf(r.PID)
	g := c.g
	if g == nil || c.memtype != r.MemType || c.name != r.Graph {
		in := b.inst(r.PID, r.Graph, true)
		g = b.graph(in, r.MemType, r.File, r.Line)
		c.memtype, c.name, c.g = r.MemType, r.Graph, g
		c.backed = cap(g.Rows)
	}
	if n := len(g.Rows); n == cap(g.Rows) {
		// The hints grow as files come (the merge may run while they are
		// read). A hint well ahead of the rows is likely the graph's size,
		// and is taken. One just ahead grows a chunk at a time (files read
		// side by side): a graph grown to each such hint, or by a quarter,
		// is copied about four times its size over (a graph of 10^6 rows
		// is 200 MB). So it doubles, as grow does, but only the rows the
		// hint promises are backed now: the rest is backed as rows reach
		// it, so capacity a graph never fills costs no memory.
		if hint := b.hintedRows(HintKey{r.PID, r.Graph, r.MemType}); hint > n {
			size := hint
			if hint < n+n/4 {
				size = 2 * n
			}
			rows := make([]Row, n, size)
			c.backed = min(max(hint, n+n/4), size)
			prefault.Slice(rows[:c.backed:c.backed])
			copy(rows, g.Rows)
			g.Rows = rows
		}
	} else if n == c.backed {
		c.backed = min(n+max(n/4, rowBackStep), cap(g.Rows))
		prefault.Slice(g.Rows[n:c.backed:c.backed])
	}
	var w *Row
	g.Rows, w = nextSlot(g.Rows)
	setRow(w, r, &b.descs)
}

// setRow stores the model row of r in w, field by field: assigning a Row
// value copies it with a bulk write barrier while the collector marks,
// which is dear in wasm, where the collector marks for much of a run.
// Every field is set: w may hold an older row. Lifetime texts are kept in
// descs.
func setRow(w *Row, r *gelog.SetRow, descs *lifeDescs) {
	// Names were interned by the parsers already; node names are unique
	// per row, so interning them again costs more than it saves.
	w.Node, w.OpType, w.Kind, w.Index = r.Node, r.OpType, r.Kind, r.Index
	w.Offset, w.Stream, w.StreamDesc, w.MemType = r.Offset, r.Stream, r.StreamDesc, r.MemType
	w.Size, w.RealSize, w.NoAlign = r.Size, r.RealSize, r.NoAlign
	w.LifeBegin, w.LifeEnd, w.LifeDesc = r.LifeBegin, r.LifeEnd, nil
	w.Child, w.Reuse, w.Continuous, w.ZeroCopy = r.Child[0], b01(r.Reuse()), b01(r.Continuous()), b01(r.ZeroCopy())
	w.SameStream, w.IsRef = b01(r.ChildParts >= 5 && r.Child[4] != 0), b01(r.IsRef)
	w.Batch, w.BlockType, w.Pool, w.Counted = r.Batch, r.BlockType, r.Pool, false
	w.ChildParts, w.File, w.Line = int8(min(max(r.ChildParts, 0), 5)), r.File, r.Line
	if r.LifeDesc != [2]string{} {
		w.LifeDesc = descs.keep(r.LifeDesc)
	}
	if !r.HasLife {
		// Templates before 2020-06 print no lifetime: the tensor lives for
		// the whole graph as far as imas can tell.
		w.LifeBegin, w.LifeEnd = 0, LifeMax
	}
}

// lifeDescs hands out the rows' lifetime texts from blocks that never
// move, so that a row with them costs no allocation of its own.
type lifeDescs struct{ block [][2]string }

func (d *lifeDescs) keep(v [2]string) *[2]string {
	if len(d.block) == cap(d.block) {
		d.block = make([][2]string, 0, 1024)
	}
	d.block = append(d.block, v)
	return &d.block[len(d.block)-1]
}

func b01(v bool) int8 {
	if v {
		return 1
	}
	return 0
}

func (b *Builder) addCont(r *gelog.ContRow) {
	g := b.graphForAux(r.PID, r.Graph, r.MemType, r.TID)
	g.Reassign = append(g.Reassign, Reassign{
		Node: b.Intern(r.Node), OpType: b.Intern(r.OpType), Dir: r.Dir, Kind: r.Kind, Index: r.Index,
		Offset: r.Offset, Stream: r.Stream, MemType: r.MemType, Size: r.Size, RealSize: r.RealSize,
		NoPadding: r.NoPadding, Variant: r.Variant, Line: r.Line,
	})
}

func (b *Builder) addAtomic(r *gelog.AtomicPiece) {
	g := b.graphForAux(r.PID, r.Graph, r.MemType, r.TID)
	g.AtomicPieces = append(g.AtomicPieces, AtomicPiece{
		Node: b.Intern(r.Node), OpType: b.Intern(r.OpType), What: r.What, Kind: r.Kind, Index: r.Index,
		Offset: r.Offset, Stream: r.Stream, Size: r.Size, RealSize: r.RealSize, Line: r.Line,
	})
}

func (b *Builder) addAfterAssign(r *gelog.AfterAssign) {
	k := nameKey{r.PID, r.Graph}
	in := b.instances[k]
	if in == nil || (in.closed && in.summary.has(r.MemType)) {
		// A summary with no rows of its own (run log only), or a second
		// compilation that printed no rows.
		in = b.inst(r.PID, r.Graph, true)
		if in.summary.has(r.MemType) {
			in.closed = true
			in = b.inst(r.PID, r.Graph, true)
		}
	}
	in.closed = true
	in.summary = in.summary.add(r.MemType)
	b.setLast(r.PID, in)
	b.forgetSet(r.PID)
	g := b.graph(in, r.MemType, r.File, r.Line)
	g.HasSummary = true
	g.SummaryPath, g.SummaryLine = b.Path(r.File), r.Line
	build := buildLogged(g.Logged)
	g.Logged = make(Logged, 0, 1+len(r.Logged)+len(build)) // sized once: a graph is a summary line
	defer func() {
		g.Logged = append(g.Logged, build...)
		if r.MemType == 2 {
			b.takeZeroCopy(r.PID, g)
		}
	}()
	if r.HasOffset {
		g.Logged = append(g.Logged, LoggedField{"memory_size", strconv.FormatInt(r.MemOffset, 10)})
	}
	for _, f := range r.Logged {
		g.Logged = append(g.Logged, LoggedField{f[0], f[1]})
	}
	if r.Failure {
		b.Diag(Diagnostic{Path: b.Path(r.File), Line: r.Line, Reason: diag.MemoryExceeded,
			Detail: "GE's failure path: graph " + g.Graph + " needs more memory than the device has"})
	}
}

func (b *Builder) addAppendWs(r *gelog.AppendWs) {
	in := b.lastInst[r.PID]
	if in == nil {
		b.Diag(Diagnostic{Path: b.Path(r.File), Line: r.Line, Reason: diag.OrphanRecord, Detail: "after append ws line with no graph before it"})
		return
	}
	kind := ""
	switch r.What {
	case "ws":
		kind = "workspace"
	case "output offset":
		kind = "output"
	}
	if in.finished && kind != "" {
		b.editsFinished(in, r.File, r.Line, "an after append ws line")
	}
	for _, mt := range in.summary {
		g := b.graphs[graphKey{in.pid, in.inst, mt}]
		if g == nil {
			continue
		}
		if g.AppendWs == nil {
			g.AppendWs = &AppendWsTotal{}
		}
		g.AppendWs.Refreshed++
		if kind == "" {
			continue
		}
		for i := range g.Rows {
			row := &g.Rows[i]
			if row.Node != r.Node || row.Kind != kind || row.Index < 0 || int(row.Index) >= len(r.From) || int(row.Index) >= len(r.To) {
				continue
			}
			if row.Offset == r.From[row.Index] {
				row.Offset = r.To[row.Index]
			}
		}
	}
}

// Finish returns the report with graphs in first-seen order and counted
// tensors marked. Figures are left to the analyze package, but for the
// graphs kept as GraphDone (OnFinished).
func (b *Builder) Finish() *Report {
	b.spare = spareRows{}
	gs := make([]*Graph, 0, len(b.graphs))
	for _, g := range b.graphs {
		gs = append(gs, g)
	}
	markAllCounted(gs)
	// graphs in first-seen order per process
	sort.Slice(gs, func(i, j int) bool {
		a, c := gs[i], gs[j]
		return graphOrder(a.PID, a.Seq, a.MemType, c.PID, c.Seq, c.MemType) < 0
	})
	b.R.Graphs = gs
	b.R.done.sort()
	b.finishOther()
	return b.R
}

func pidLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// markAllCounted runs markCounted on every graph, on all cores: it is a set
// insertion per row, hundreds of thousands of rows in a large run, and the
// graphs are independent.
func markAllCounted(gs []*Graph) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(gs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var seen tensorSet // one table for many graphs: big tables are costly to set up
			for i := int(next.Add(1) - 1); i < len(gs); i = int(next.Add(1) - 1) {
				markCounted(gs[i], &seen)
			}
		}()
	}
	wg.Wait()
}

// markCounted marks the row that counts each (node, kind, index) tensor:
// the first isref[0] row with realsize > 0 (docs/figures.md#counted).
func markCounted(g *Graph, seen *tensorSet) {
	seen.reset(len(g.Rows))
	for i := range g.Rows {
		r := &g.Rows[i]
		r.Counted = r.IsRef == 0 && r.RealSize > 0 && seen.firstOf(g.Rows, i)
	}
}

// CountMarker marks the counted rows of graphs one at a time
// (markCounted), reusing one table.
type CountMarker struct{ seen tensorSet }

// Mark marks g's counted rows, as Finish does.
func (m *CountMarker) Mark(g *Graph) { markCounted(g, &m.seen) }

// Keys of Logged that come from lines other than the graph's summary
// (zero-copy figures, gelog.ZeroCopySize): a summary keeps them.
var buildKeys = map[string]bool{
	LoggedZeroCopyExclude: true, LoggedZeroCopyInclude: true, LoggedZeroCopyBuild: true,
}

// Logged keys of the zero-copy lines (GE's own wording).
const (
	LoggedZeroCopyExclude = "mem_offset_exclude_zero_copy"
	LoggedZeroCopyInclude = "mem_offset_include_zero_copy"
	LoggedZeroCopyBuild   = "zero_copy_mem_size"
)

func buildLogged(l Logged) Logged {
	var out Logged
	for _, f := range l {
		if buildKeys[f.Key] {
			out = append(out, f)
		}
	}
	return out
}

// setLogged sets key in l, replacing an earlier value.
func setLogged(l Logged, key, value string) Logged {
	for i := range l {
		if l[i].Key == key {
			l[i].Value = value
			return l
		}
	}
	return append(l, LoggedField{key, value})
}

// addZeroCopy keeps GE's zero-copy figures on the HBM graph they belong
// to; the lines name no graph. The offsets before and after the zero-copy
// blocks are printed while the graph is assigned, before its summary
// (and the first before its first row): they wait for the next summary of
// the process. BuildModelDef comes after the summary: it is the graph most
// recently touched.
func (b *Builder) addZeroCopy(r *gelog.ZeroCopySize) {
	o := b.o()
	if r.What != gelog.ZeroCopyBuild {
		p := o.zeroCopy[r.PID]
		p = setLogged(p, zeroCopyKey[r.What], strconv.FormatInt(r.Value, 10))
		o.zeroCopy[r.PID] = p
		return
	}
	in := b.lastInst[r.PID]
	if in == nil {
		b.Diag(Diagnostic{Path: b.Path(r.File), Line: r.Line, Reason: diag.OrphanRecord, Detail: "zero-copy size with no graph before it"})
		return
	}
	if in.finished {
		b.editsFinished(in, r.File, r.Line, "a zero-copy size")
	}
	g := b.graph(in, 2, r.File, r.Line)
	b.takeZeroCopy(r.PID, g)
	g.Logged = setLogged(g.Logged, LoggedZeroCopyBuild, strconv.FormatInt(r.Value, 10))
}

var zeroCopyKey = map[string]string{gelog.ZeroCopyExclude: LoggedZeroCopyExclude, gelog.ZeroCopyInclude: LoggedZeroCopyInclude,
	gelog.ZeroCopyBuild: LoggedZeroCopyBuild}

// takeZeroCopy moves the process's waiting zero-copy offsets to g.
func (b *Builder) takeZeroCopy(pid int64, g *Graph) {
	o := b.o()
	for _, f := range o.zeroCopy[pid] {
		g.Logged = setLogged(g.Logged, f.Key, f.Value)
	}
	delete(o.zeroCopy, pid)
}
