package export

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"imas/core/analyze"
	"imas/core/model"
)

// The Perfetto trace (imas_graph_perfetto.json, Chrome JSON) shows:
//
//   - one process per static graph and memory type, in report order, named
//     with its summary figures;
//   - in it, one track per memory block (offset, size), in offset order,
//     and one slice per tensor over its lifetime; the time axis is the
//     topological step, one step = 1 ms. Tensors of a block whose
//     lifetimes overlap (aliases, reuse conflicts) go to extra tracks of
//     that block ("lanes"), since overlapping slices on one track are
//     dropped or moved by Perfetto;
//   - counters of live bytes per step and the theory_min/after_reuse levels;
//   - RT2 pools and device mallocs on log time (perfetto_runtime.go).
//
// docs/perfetto.md describes the layout for users.

// StepMicros is the trace time of one topological step (Chrome JSON
// timestamps are microseconds): 1 step = 1 ms reads well on the ruler.
const StepMicros = 1000

// WritePerfetto writes the report as a Chrome JSON trace for ui.perfetto.dev.
// It streams: memory use is a few index slices per graph, whatever the size
// of the trace.
func WritePerfetto(w io.Writer, rep *model.Report) error {
	return writePerfettoJSON(w, rep, TraceScope{Graphs: AllGraphs})
}

func writePerfettoJSON(w io.Writer, rep *model.Report, sc TraceScope) error {
	t := newTraceWriter(w)
	t.raw(`{"traceEvents":[`)
	origin, note := writePerfettoEvents(t, rep, sc, jsonLimits)
	// traceEvents comes first: older Perfetto releases skip the rest of
	// the file after a top-level key they do not know.
	t.raw("\n],\n\"metadata\":{\"source\":\"imas\",\"graph_time\":\"1 ms = 1 topological step\"")
	if origin != "" {
		t.raw(",\"runtime_time_origin\":")
		t.raw(string(appendString(nil, origin)))
	}
	if note != "" {
		t.raw(",\"left_out\":")
		t.raw(string(appendString(nil, note)))
	}
	t.raw("}}\n")
	return t.flush()
}

// writePerfettoEvents writes the trace's events through t: the graphs sc
// keeps (lim: the automatic scope's limits), then the runtime processes
// with the pool allocations before the scope's cut. It returns the runtime
// time origin and the note saying what was left out ("" if nothing).
func writePerfettoEvents(t *traceWriter, rep *model.Report, sc TraceScope, lim traceLimits) (origin, note string) {
	keep, graphNote := sc.graphs(rep, lim.rows)
	cut, poolNote, err := sc.poolCut(rep.Pools, lim.poolRows)
	t.fail(err)
	note = joinNotes(graphNote, poolNote)
	p := &perfetto{t: t, poolCut: cut}
	// Track ids start above every process id, so no track is taken for
	// the "main thread" of its process and sorted first.
	procs, err := runtimeProcesses(rep)
	t.fail(err)
	p.tid = int64(len(rep.Graphs)) + procs
	if note != "" {
		p.tid++
	}
	for i, g := range rep.Graphs {
		if keep == nil || keep[i] {
			full, err := rep.WithRows(g)
			if err != nil {
				t.fail(err)
				break
			}
			p.graph(full)
		}
	}
	origin, err = p.runtime(rep)
	t.fail(err)
	if note != "" {
		p.process("imas: " + note)
	}
	return origin, note
}

type perfetto struct {
	t        *traceWriter
	pid, tid int64 // last ids handed out
	sortIdx  int64 // thread_sort_index of the last track of the process
	lanes    lanes
	asyncID  int64 // last async slice id
	poolCut  int64 // log time from which pool allocations are left out (0: none)
	// scratch, reused across graphs and pools
	idx    []int32
	deltas []delta
}

// process starts a new process: pids are handed out in display order, so
// the pid is also its process_sort_index.
func (p *perfetto) process(name string) int64 {
	p.pid++
	p.sortIdx = 0
	p.meta(p.pid, 0, "process_name")
	p.t.str("name", name)
	p.t.end()
	p.meta(p.pid, 0, "process_sort_index")
	p.t.num("sort_index", p.pid)
	p.t.end()
	return p.pid
}

// thread adds a named track to process pid, below its earlier tracks.
func (p *perfetto) thread(pid int64, name string) int64 {
	p.tid++
	p.sortIdx++
	p.meta(pid, p.tid, "thread_name")
	p.t.str("name", name)
	p.t.end()
	p.meta(pid, p.tid, "thread_sort_index")
	p.t.num("sort_index", p.sortIdx)
	p.t.end()
	return p.tid
}

// meta starts an M event of a process (tid 0) or thread track, up to its
// args.
func (p *perfetto) meta(pid, tid int64, what string) {
	t := p.t
	t.begin('M', 0)
	t.num("pid", pid)
	if tid != 0 {
		t.num("tid", tid)
	}
	t.str("name", what)
	t.args()
}

// graph writes one graph: its process, block tracks and counters.
func (p *perfetto) graph(g *model.Graph) {
	pid := p.process(graphTitle(g))
	last := analyze.MaxFinite(g.Rows)
	p.blocks(g, pid, last)
	p.counters(g, pid, last)
}

func graphTitle(g *model.Graph) string {
	return g.Graph + " " + MemTypeName(g.MemType) + " pid " + g.PID +
		": memory_size " + Human(g.MemorySize) + ", reuse " + Rate2(g.ReuseRate) +
		"%, theory_min " + Human(g.TheoryMin)
}

// MemTypeName names the memory types GE assigns static memory in
// (docs/log-formats.md#memtypes); others keep their number.
func MemTypeName(mt int64) string {
	switch mt {
	case 2:
		return "HBM"
	case 3:
		return "RDMA_HBM"
	case 4:
		return "DDR"
	case 16:
		return "P2P_HBM"
	case 17:
		return "P2P_DDR"
	case 129:
		return "HOST"
	case 144:
		return "HOST_SVM"
	case 0x100000002:
		return "SESSION_HBM"
	}
	return "memtype " + strconv.FormatInt(mt, 10)
}

// blocks draws every row with a real size on its block's tracks. Rows
// with realsize 0 are GE's dummy placements of constants and variables
// (offset 0, size 0): they hold no memory and are left out.
func (p *perfetto) blocks(g *model.Graph, pid, last int64) {
	rows := g.Rows
	idx := slices.Grow(p.idx[:0], len(rows))
	for i := range rows {
		if rows[i].RealSize > 0 {
			idx = append(idx, int32(i))
		}
	}
	// By block, then lifetime; counted rows before the aliases that start
	// with them, so a block's own tensors keep its first track.
	slices.SortFunc(idx, func(a, b int32) int {
		x, y := &rows[a], &rows[b]
		switch {
		case x.Offset != y.Offset:
			return cmpInt(x.Offset, y.Offset)
		case x.Size != y.Size:
			return cmpInt(x.Size, y.Size)
		case x.LifeBegin != y.LifeBegin:
			return cmpInt(x.LifeBegin, y.LifeBegin)
		case x.Counted != y.Counted:
			if x.Counted {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	peers := conflictPeers(g.Conflicts)
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && rows[idx[hi]].Offset == rows[idx[lo]].Offset && rows[idx[hi]].Size == rows[idx[lo]].Size {
			hi++
		}
		p.block(g, pid, last, idx[lo:hi], peers)
		lo = hi
	}
	p.idx = idx
}

func cmpInt(a, b int64) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// block draws the rows of one block (sorted by lifetime begin), opening a
// track for each lane the packing needs.
func (p *perfetto) block(g *model.Graph, pid, last int64, blk []int32, peers *conflictIndex) {
	r0 := &g.Rows[blk[0]]
	name := strconv.FormatInt(r0.Offset, 10) + " +" + Human(r0.Size)
	var tracks [4]int64
	tids := tracks[:0]
	p.lanes.reset()
	for _, i := range blk {
		r := &g.Rows[i]
		b, e := analyze.Interval(r, last)
		lane := p.lanes.place(b, e)
		if lane == len(tids) {
			n := name
			if lane > 0 {
				n += " overlap " + strconv.Itoa(lane)
			}
			tids = append(tids, p.thread(pid, n))
		}
		p.slice(g, r, pid, tids[lane], b, e, lane > 0, peers)
	}
}

// slice writes one tensor. Counted tensors carry args.tensor; the other
// rows drawn (isref aliases, repeated prints of a tensor) carry args.alias
// instead, so a tensor key names exactly one slice per graph.
func (p *perfetto) slice(g *model.Graph, r *model.Row, pid, tid, b, e int64, overlap bool, peers *conflictIndex) {
	t := p.t
	t.begin('X', b*StepMicros)
	t.num("dur", (e-b+1)*StepMicros)
	t.num("pid", pid)
	t.num("tid", tid)
	t.key("name")
	t.buf = appendTensorKey(t.buf, r)
	kind := "tensor" // the category, and the arg holding the key
	if !r.Counted {
		kind = "alias"
	}
	t.str("cat", kind)
	t.args()
	t.str("graph", g.Graph)
	t.str("pid", g.PID)
	t.num("memtype", g.MemType)
	t.key(kind)
	t.buf = appendTensorKey(t.buf, r)
	t.str("optype", r.OpType)
	t.num("offset", r.Offset)
	t.num("size", r.Size)
	t.num("realsize", r.RealSize)
	t.num("stream", r.Stream)
	if r.StreamDesc != "" && r.StreamDesc != strconv.FormatInt(r.Stream, 10) {
		t.str("stream_desc", r.StreamDesc)
	}
	t.key("life")
	t.buf = append(t.buf, '"')
	t.buf = model.AppendLife(t.buf, r.LifeBegin, r.LifeEnd)
	t.buf = append(t.buf, '"')
	with := peers.of(r)
	t.key("flags")
	t.buf = appendFlags(t.buf, r, overlap, len(with) > 0)
	if r.Child > 0 {
		t.num("child_level", r.Child)
	}
	if len(with) > 0 {
		t.str("conflicts_with", conflictList(with))
	}
	t.num("line", r.Line)
	t.end()
}

// appendTensorKey appends the quoted "<node>:<kind>:<index>" key without
// building the string.
func appendTensorKey(b []byte, r *model.Row) []byte {
	b = append(b, '"')
	b = appendEscaped(b, r.Node)
	b = append(b, ':')
	b = appendEscaped(b, r.Kind)
	b = append(b, ':')
	b = strconv.AppendInt(b, r.Index, 10)
	return append(b, '"')
}

// appendFlags appends the row's flags as one space-separated string: GE's
// child[] flags and isref, and what imas adds (to_end: the lifetime runs
// to the end of the graph; overlap: on an extra lane of its block;
// conflict: in a reuse conflict).
func appendFlags(b []byte, r *model.Row, overlap, conflict bool) []byte {
	b = append(b, '"')
	n := len(b)
	add := func(on bool, f string) {
		if !on {
			return
		}
		if len(b) > n {
			b = append(b, ' ')
		}
		b = append(b, f...)
	}
	add(r.Reuse != 0, "reuse")
	add(r.Continuous != 0, "continuous")
	add(r.ZeroCopy != 0, "zero_copy")
	add(r.SameStream != 0, "same_stream")
	add(r.IsRef != 0, "isref")
	add(!r.Counted && r.IsRef == 0, "repeat")
	add(r.Pool, "buffer_pool")
	add(model.IsInfinite(r.LifeEnd), "to_end")
	add(overlap, "overlap")
	add(conflict, "conflict")
	return append(b, '"')
}

// conflictList names the first few tensors a tensor conflicts with; all
// are in report.json, and a tensor in thousands of conflicts must not
// blow up the trace.
func conflictList(with []string) string {
	const most = 8
	if len(with) <= most {
		return strings.Join(with, " ")
	}
	return strings.Join(with[:most], " ") + " (+" + strconv.Itoa(len(with)-most) + " more)"
}

// conflictPeers maps each tensor key in a conflict to the keys it
// conflicts with.
func conflictPeers(cs []model.Conflict) *conflictIndex {
	if len(cs) == 0 {
		return nil
	}
	x := &conflictIndex{peers: make(map[string][]string, 2*len(cs)), nodes: map[string]bool{}}
	for _, c := range cs {
		x.peers[c.A] = append(x.peers[c.A], c.B)
		x.peers[c.B] = append(x.peers[c.B], c.A)
	}
	for k := range x.peers {
		// "<node>:<kind>:<index>": kinds and indexes have no ':'.
		if i := strings.LastIndexByte(k, ':'); i > 0 {
			if j := strings.LastIndexByte(k[:i], ':'); j >= 0 {
				x.nodes[k[:j]] = true
			}
		}
	}
	return x
}

// conflictIndex finds the conflicts of a row; most rows have none, and
// are told so by their node name without building their key.
type conflictIndex struct {
	peers map[string][]string // tensor key → keys it conflicts with
	nodes map[string]bool     // nodes of those keys
}

func (x *conflictIndex) of(r *model.Row) []string {
	if x == nil || !x.nodes[r.Node] {
		return nil
	}
	return x.peers[r.Key()]
}

// counters writes the graph's memory curves: live bytes at each step
// (align512 of the real size, like theory_min) of its counted tensors with
// reuse flag 1 ("live reusable": its peak + no_reuse + atomic is
// theory_min) and of all its counted tensors ("live counted"), and the
// theory_min and after_reuse levels.
func (p *perfetto) counters(g *model.Graph, pid, last int64) {
	t := p.t
	endTS := (last + 1) * StepMicros
	for _, ts := range [2]int64{0, endTS} {
		t.begin('C', ts)
		t.num("pid", pid)
		t.str("name", "level")
		t.args()
		t.num("theory_min", g.TheoryMin)
		t.num("after_reuse", g.AfterReuse)
		t.end()
	}
	// Live bytes, as report.json has them (a report of the summary
	// analyses has no curve: it is computed here then).
	live := g.Live
	if live == nil {
		live = analyze.Live(g)
	}
	if live == nil {
		return
	}
	for i, step := range live.Steps {
		t.begin('C', step*StepMicros)
		t.num("pid", pid)
		t.str("name", "live")
		t.args()
		t.num("reusable", live.Reusable[i])
		t.num("counted", live.Counted[i])
		t.end()
	}
}

// lanes packs inclusive intervals, fed by ascending begin, onto the fewest
// lanes with no overlap on a lane. Each goes to the lowest free lane, so a
// block's ordinary reuse chain stays on lane 0. O(log lanes) per interval,
// so even a block of a million overlapping tensors is cheap.
type lanes struct {
	busy minHeap[laneEnd] // occupied lanes by end
	free minHeap[int]     // free lane numbers
	n    int
}

type laneEnd struct {
	end  int64
	lane int
}

func (l *lanes) reset() {
	l.busy.s, l.free.s, l.n = l.busy.s[:0], l.free.s[:0], 0
	l.busy.less = func(a, b laneEnd) bool { return a.end < b.end }
	l.free.less = func(a, b int) bool { return a < b }
}

func (l *lanes) place(begin, end int64) int {
	for len(l.busy.s) > 0 && l.busy.s[0].end < begin {
		l.free.push(l.busy.pop().lane)
	}
	lane := l.n
	if len(l.free.s) > 0 {
		lane = l.free.pop()
	} else {
		l.n++
	}
	l.busy.push(laneEnd{end, lane})
	return lane
}

// minHeap is a binary heap; unlike container/heap it boxes nothing.
type minHeap[T any] struct {
	s    []T
	less func(a, b T) bool
}

func (h *minHeap[T]) push(x T) {
	h.s = append(h.s, x)
	for i := len(h.s) - 1; i > 0; {
		up := (i - 1) / 2
		if !h.less(h.s[i], h.s[up]) {
			break
		}
		h.s[i], h.s[up] = h.s[up], h.s[i]
		i = up
	}
}

func (h *minHeap[T]) pop() T {
	x := h.s[0]
	n := len(h.s) - 1
	h.s[0] = h.s[n]
	h.s = h.s[:n]
	for i := 0; ; {
		m := i
		if l := 2*i + 1; l < n && h.less(h.s[l], h.s[m]) {
			m = l
		}
		if r := 2*i + 2; r < n && h.less(h.s[r], h.s[m]) {
			m = r
		}
		if m == i {
			return x
		}
		h.s[i], h.s[m] = h.s[m], h.s[i]
		i = m
	}
}
