package gen

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"imas/core/diag"
)

// Generate writes the plogs of profile p under dir (created if needed) and
// returns the truth. It does not write truth.json; call WriteJSON.
func Generate(p Profile, dir string) (*Truth, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return run(p, newDirOutput(dir))
}

// GenerateStream writes every line of profile p to w as one stream (no
// rotation, no separate run log; the profile's processes one after the
// other), holding no more than one graph in memory. name is the file name
// reported in the truth's files[].
func GenerateStream(p Profile, w io.Writer, name string) (*Truth, error) {
	if name == "" {
		name = "stream.log"
	}
	return run(p, newStreamOutput(w, name))
}

// Log returns about size bytes of the named profile (seed 0) as one stream
// in memory, named name.log: the large inputs of the benchmarks and probes.
func Log(name string, size int64) ([]byte, error) {
	p, err := ProfileByName(name, 0, size)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := GenerateStream(p, &buf, name+".log"); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type generator struct {
	p     Profile
	out   *output
	truth *Truth
	root  *rng
}

func run(p Profile, out *output) (*Truth, error) {
	g := &generator{p: p, out: out, root: newRNG(uint64(p.Seed)),
		truth: &Truth{Profile: p.Name, Seed: p.Seed, Generations: map[int]Generation{}}}
	procs := append([]ProcessSpec(nil), p.Processes...)
	sort.SliceStable(procs, func(i, j int) bool { return procs[i].PID < procs[j].PID })
	for i, spec := range procs {
		if spec.PID <= 0 {
			return nil, fmt.Errorf("process %d: pid must be > 0", i)
		}
		switch spec.Generation {
		case Gen2020, Gen2021, Gen2025:
		default:
			return nil, fmt.Errorf("pid %d: unknown generation %q", spec.PID, spec.Generation)
		}
		if _, dup := g.truth.Generations[spec.PID]; dup {
			return nil, fmt.Errorf("pid %d twice", spec.PID)
		}
		g.truth.Generations[spec.PID] = spec.Generation
		pr := newProc(g, spec, i, len(procs))
		pr.run()
		if out.err != nil {
			break
		}
	}
	files, imas, err := out.finish()
	if err != nil {
		return nil, err
	}
	g.truth.Files, g.truth.IMASLines = files, imas
	g.truth.normalize()
	return g.truth, nil
}

// proc writes the log of one process.
type proc struct {
	g       *generator
	spec    ProcessSpec
	gen     Generation
	r       *rng
	pid     int
	pname   string
	tid     int // GE worker thread
	clock   int64
	ts      tsfmt
	dbg     *sink
	runl    *sink
	buf     []byte
	idx     int // process index
	share   int64
	graphs  map[string]int // completed compilations per printed graph name
	names   []string       // printed names in compile order
	nextGID int
	bases   map[uint64]bool
	bad     int // bad addresses still to inject
	nbin    int // binary lines still to write
	nlong   int // long lines still to write
	mtid    int // pool threads
}

var genStart = map[Generation]int64{
	Gen2020: time.Date(2020, 6, 23, 10, 0, 0, 0, time.UTC).Unix(),
	Gen2021: time.Date(2022, 10, 12, 10, 0, 0, 0, time.UTC).Unix(),
	Gen2025: time.Date(2026, 2, 20, 10, 0, 0, 0, time.UTC).Unix(),
}

var genPName = map[Generation]string{Gen2020: "atc.bin", Gen2021: "python", Gen2025: "python3"}

func newProc(g *generator, spec ProcessSpec, idx, n int) *proc {
	p := &proc{g: g, spec: spec, gen: spec.Generation, pid: spec.PID, idx: idx,
		graphs: map[string]int{}, bases: map[uint64]bool{}}
	p.r = g.root.fork(uint64(spec.PID))
	p.pname = spec.PName
	if p.pname == "" {
		p.pname = genPName[p.gen]
	}
	start := spec.StartUnix
	if start == 0 {
		start = genStart[p.gen] + int64(idx)*3600
	}
	p.clock = start*1e6 + p.r.between(0, 999999)
	p.tid = p.pid + 1 + p.r.intn(60)
	p.mtid = p.tid + 1
	if g.p.TargetBytes > 0 {
		p.share = g.p.TargetBytes / int64(n)
	}
	out := g.out
	sub := ""
	if spec.RunLogFile && out.shared == nil {
		sub = "debug/plog"
		p.runl = out.newSink("run/plog", p.pid, g.p.RotateBytes, false)
	}
	p.dbg = out.newSink(sub, p.pid, g.p.RotateBytes, spec.Hostile.CRLF)
	p.dbg.noFinal = spec.Hostile.NoFinalNewline
	if p.runl == nil {
		p.runl = p.dbg
	}
	p.bad = spec.BadAddrs
	p.nbin = spec.Hostile.Binary
	p.nlong = spec.Hostile.LongLines
	return p
}

func (p *proc) tick() int64 {
	p.clock += p.r.between(15, 380)
	return p.clock
}

// header starts a line: "[LEVEL] MODULE(pid,pname):timestamp ".
func (p *proc) header(b []byte, level, module string, ts int64) []byte {
	b = append(b, '[')
	b = append(b, level...)
	b = append(b, "] "...)
	b = append(b, module...)
	b = append(b, '(')
	b = strconv.AppendInt(b, int64(p.pid), 10)
	b = append(b, ',')
	b = append(b, p.pname...)
	b = append(b, "):"...)
	b = p.ts.append(b, ts)
	return append(b, ' ')
}

// body builds "[file:line]<kv><tid> <fn>:<msg>" (no tid for 2020 GE).
func (p *proc) body(file string, lno int, kv string, tid int, fn, msg string) string {
	var sb strings.Builder
	sb.Grow(len(file) + len(fn) + len(msg) + 32)
	sb.WriteByte('[')
	sb.WriteString(file)
	sb.WriteByte(':')
	sb.WriteString(strconv.Itoa(lno))
	sb.WriteByte(']')
	sb.WriteString(kv)
	if tid >= 0 {
		sb.WriteString(strconv.Itoa(tid))
		sb.WriteByte(' ')
	}
	sb.WriteString(fn)
	sb.WriteByte(':')
	sb.WriteString(msg)
	return sb.String()
}

func (p *proc) getid() int {
	if p.gen == Gen2020 {
		return -1
	}
	return p.tid
}

// emit writes one full line to a sink.
func (p *proc) emit(s *sink, ts int64, level, module, body string) (string, int64) {
	b := p.header(p.buf[:0], level, module, ts)
	b = append(b, body...)
	p.buf = b
	return s.write(ts, b)
}

// ge writes a GE INFO (or other level) line to the debug plog, followed
// by noise.
func (p *proc) ge(level, file string, lno int, fn, msg string) (string, int64) {
	f, l := p.emit(p.dbg, p.tick(), level, "GE", p.body(file, lno, "", p.getid(), fn, msg))
	p.noise()
	return f, l
}

// geTid writes a GE INFO line from another thread, with an optional
// allocator tag ("[allocator_N] ") between the tid and the function.
func (p *proc) geTid(tid int, tag, file string, lno int, fn, msg string) (string, int64) {
	f, l := p.emit(p.dbg, p.tick(), "INFO", "GE", p.body(file, lno, "", tid, tag+fn, msg))
	p.noise()
	return f, l
}

// event writes a GEEVENT statement the way the generation routes it: the
// run-log copy ([INFO] + [EVENT] tag from 2024 metadef; [EVENT] level
// before) and, when EventDup, the debug-plog copy within 2 ms.
func (p *proc) event(file string, lno int, fn, msg string) (string, int64) {
	ts := p.tick()
	var f string
	var l int64
	switch p.gen {
	case Gen2025:
		f, l = p.emit(p.runl, ts, "INFO", "GE", p.body(file, lno, "[EVENT]", p.tid, fn, msg))
	default:
		f, l = p.emit(p.runl, ts, "EVENT", "GE", p.body(file, lno, "", p.getid(), fn, msg))
	}
	if p.spec.EventDup && p.gen != Gen2020 {
		d := p.r.between(60, 900)
		if p.r.chance(0.2) {
			d = p.r.between(1000, 1900)
		}
		ts2 := ts + d
		df, dl := p.emit(p.dbg, ts2, "INFO", "GE", p.body(file, lno, "", p.tid, fn, msg))
		if p.clock < ts2 {
			p.clock = ts2
		}
		if p.spec.hostile() {
			p.inject(df, dl, InjEventDup, "", fmt.Sprintf("duplicate of %s:%d (%d us later)", f, l, d))
		}
	}
	p.noise()
	return f, l
}

func (p *proc) inject(file string, line int64, kind, diag, detail string) {
	p.g.truth.Injections = append(p.g.truth.Injections, Injection{File: file, Line: line, Kind: kind, Diagnostic: diag, Detail: detail})
}

// hostile writes the pending junk lines now and then.
func (p *proc) hostileNow(force bool) {
	for force && p.nbin+p.nlong > 0 {
		p.hostileNow(false)
		p.noise()
	}
	if p.nbin > 0 && (force || p.r.chance(0.3)) {
		p.nbin--
		n := 20 + p.r.intn(180)
		b := make([]byte, 0, n)
		for len(b) < n {
			c := byte(p.r.intn(256))
			if c == '\n' || c == '\r' {
				continue
			}
			b = append(b, c)
		}
		b = scrubMarkers(b)
		f, l := p.dbg.write(p.tick(), b)
		p.inject(f, l, InjBinary, "", fmt.Sprintf("%d random bytes", len(b)))
	}
	if p.nlong > 0 && (force || p.r.chance(0.3)) {
		p.nlong--
		var sb strings.Builder
		sb.WriteString("Dump tensor data of node transdata_9 output 0, values:")
		for sb.Len() < 300<<10 {
			fmt.Fprintf(&sb, " %d.%03d", p.r.intn(100), p.r.intn(1000))
		}
		f, l := p.emit(p.dbg, p.tick(), "DEBUG", "GE", p.body("data_dumper.cc", 812, "", p.getid(), "DumpOutput", sb.String()))
		p.inject(f, l, InjLongLine, diag.LineTooLong, "no marker; longer than 64 KiB (imas core: cut at 64 KiB, diagnostic line-too-long)")
	}
}

func (p *proc) run() {
	spec := p.spec
	p.noiseN(20 + p.r.intn(40))
	if p.gen != Gen2020 {
		p.ge("INFO", "ge_api.cc", 259, "Session", "Session construct finished, session id is 0")
	}
	p.hostileNow(false)
	if spec.Variables > 0 {
		p.variables()
	}
	large := p.g.p.TargetBytes > 0
	var steps *poolRun // allocators fed a burst after every graph
	if spec.PoolBurst > 0 && spec.Pools > 0 {
		steps = p.poolsBegin()
		steps.maxLive = burstLive
	}
	var last int64 // bytes of the last graph (large: stop before overshooting)
	for gi := 0; gi < spec.Graphs || (large && p.g.out.bytesWritten()+last < p.budget(0.97)); gi++ {
		before := p.g.out.bytesWritten()
		p.graph(gi)
		if steps != nil {
			for _, ps := range steps.sims {
				ps.events += spec.PoolBurst
			}
			p.poolEvents(steps, false)
		}
		p.hostileNow(false)
		last = p.g.out.bytesWritten() - before
	}
	if spec.Mallocs {
		p.mallocs()
	}
	switch {
	case steps != nil:
		p.poolEvents(steps, true)
		p.poolsEnd(steps)
	case spec.Pools > 0 || spec.PhysPages > 0:
		p.pools()
	}
	if spec.MemErrors > 0 {
		p.memErrors(spec.MemErrors)
	}
	p.hostileNow(true)
	p.noiseN(10 + p.r.intn(20))
	if spec.Devmm != DevmmNone {
		p.devmm()
	}
	if large {
		for p.g.out.bytesWritten() < p.budget(1) {
			p.emitNoise()
		}
	}
	p.dbg.close()
	if p.runl != p.dbg {
		p.runl.close()
	}
	if spec.Hostile.CRLF && p.dbg.cur != nil && p.g.out.shared == nil {
		p.inject(p.dbg.cur.name, 0, InjCRLF, "", "every line ends in \\r\\n")
	}
	if spec.Hostile.NoFinalNewline && p.dbg.cur != nil && p.g.out.shared == nil {
		p.inject(p.dbg.cur.name, p.dbg.cur.lines, InjNoFinalNL, "", "last line without newline")
	}
}

// budget is the byte count the output should reach by the end of this
// process (large profile: the target is split evenly over processes).
func (p *proc) budget(frac float64) int64 {
	return int64(float64(p.share*int64(p.idx+1)) * frac)
}

// graphName picks the printed name of graph number gi and its graph id.
func (p *proc) graphName(gi int, long bool) (name, base string, id int) {
	id = p.nextGID
	p.nextGID++
	switch p.gen {
	case Gen2025:
		base = []string{"kernel_graph" + strconv.Itoa(gi), "online_graph", "allreduce_graph"}[p.idx%3]
		if p.idx%3 == 0 {
			id = gi + 1
		}
		if long {
			base = longGraphName(base, 300)
		}
		return base + "_" + strconv.Itoa(id), base, id
	default:
		t := time.Unix(p.clock/1e6, 0).UTC()
		base = fmt.Sprintf("ge_default_%s%02d", t.Format("20060102"), gi)
		if long {
			// 2020 lines are shorter (no optype, memtype): a longer name
			// keeps the cut inside the mandatory fields.
			n := 300
			if p.gen == Gen2020 {
				n = 380
			}
			base = longGraphName(base, n)
		}
		return base, base, id
	}
}

func longGraphName(base string, n int) string {
	var sb strings.Builder
	sb.WriteString(base)
	segs := []string{"_partitioned_call", "_while_body", "_cond_branch", "_fused_subgraph", "_dynamic_shape_partition"}
	for i := 0; sb.Len() < n; i++ {
		sb.WriteString(segs[i%len(segs)])
	}
	return sb.String()[:n]
}

func (p *proc) graph(gi int) {
	spec := p.spec
	h := spec.Hostile
	n := spec.Graphs
	longIdx, missIdx, recIdx := -1, -1, -1
	if h.CutRejected+h.CutUsed > 0 {
		longIdx = n - 1
		if h.Recompile && n >= 2 {
			longIdx = n - 2
		}
	}
	if h.Recompile && n >= 2 {
		recIdx = n - 1
	}
	if h.MissingSummary && n >= 3 {
		missIdx = 1
	}
	gr := p.r.fork(uint64(gi) + 1000)
	ops := spec.Ops
	if ops <= 0 {
		ops = 30
	}
	ops = int(float64(ops) * (0.7 + 0.6*gr.float()))
	gp := graphParams{gen: p.gen, ops: ops, streams: spec.Streams, p2p: p.gen != Gen2020 && gr.chance(spec.P2P),
		inplace: spec.Inplace, atomics: spec.Atomic, conflicts: spec.Conflicts}
	gp.contSegs = int(spec.Continuous)
	if gr.chance(spec.Continuous - float64(gp.contSegs)) {
		gp.contSegs++
	}
	if gi == 0 {
		gp.formula = h.FormulaNames
	}
	if gi == longIdx {
		gp.cutRejected, gp.cutUsed = h.CutRejected, h.CutUsed
		gp.p2p = false
	}
	if gi == recIdx {
		gp.name, gp.base = p.names[0], p.names[0]
		gp.id = -1
		gp.p2p = false
	} else {
		gp.name, gp.base, gp.id = p.graphName(gi, gi == longIdx)
	}
	g := buildGraph(gr, gp)
	g.topo = pick(gr, []string{"BFS", "DFS", "RDFS", "StableRDFS"})
	g.mop = pick(gr, []string{"", "", "MemoryPriority"})
	g.summary = gi != missIdx
	g.loaded = spec.Load && g.summary && gi != recIdx && p.gen != Gen2020
	if k := p.graphs[g.name]; k > 0 {
		g.inst = g.name + "#" + strconv.Itoa(k+1)
	} else {
		g.inst = g.name
	}
	p.names = append(p.names, g.name)
	if g.summary {
		p.graphs[g.name]++
	}
	p.prepareCuts(g)
	p.compile(g)
	if p.gen == Gen2020 {
		p.buildModelDef(g)
	}
	for _, m := range g.mems {
		if rows := g.memRows(m, false); len(rows) == 0 && m != memHBM {
			continue
		}
		p.g.truth.Graphs = append(p.g.truth.Graphs, g.truth(p.pid, m))
	}
	if g.loaded {
		p.load(g)
	}
}

// compile writes the build-time statements of one graph.
func (p *proc) compile(g *graph) {
	if p.gen != Gen2020 {
		p.emit(p.dbg, p.tick(), "INFO", "GE", p.body("ge_api.cc", 523, "[status:INIT]", p.tid, "AddGraph",
			fmt.Sprintf("Start to add graph in Session. graph_id: %d, graph_name: %s, session_id: 0.", max(g.id, 0), g.base)))
		p.noise()
	}
	if p.gen == Gen2025 {
		p.emit(p.runl, p.tick(), "INFO", "GE", p.body("block_mem_assigner.cc", 2608, "[EVENT]", p.tid, "AssignMemoryWithReuse",
			"Reuse memory open, memory_priority_mode is false."))
	}
	zc := g.loggedFigs(memHBM).zeroCopy
	if p.gen == Gen2020 {
		// GE's offset before the zero-copy blocks are laid out.
		p.ge("INFO", "block_mem_assigner.cc", 1476, "ResizeMemoryBlocks", fmt.Sprintf("mem_offset_ exclude zero_copy_memory is %d.", g.memoffset[memHBM]-zc))
	}
	for _, t := range g.rows {
		msg := setMsg(p.gen, g, t)
		file, lno := "block_mem_assigner.cc", 2914
		if p.gen != Gen2025 {
			lno = 2156
		}
		b := p.body(file, lno, "", p.getid(), "SetOffsetSize", msg)
		cut := len(b) > 1024
		if cut {
			b = b[:1024]
		}
		f, l := p.emit(p.dbg, p.tick(), "INFO", "GE", b)
		switch {
		case t.cut == cutRejected:
			p.inject(f, l, InjTruncRejected, diag.Truncated, fmt.Sprintf("graph %s memtype %d row %s cut before isref[..]", g.inst, t.mem, t.key()))
		case t.cut == cutUsed:
			p.inject(f, l, InjTruncUsed, "", fmt.Sprintf("graph %s row %s cut after isref[..]; counted", g.inst, t.key()))
		}
		if t.formula {
			p.inject(f, l, InjFormulaName, "", t.key())
		}
		p.noise()
	}
	if p.gen == Gen2020 {
		p.ge("INFO", "graph_mem_assigner.cc", 252, "AssignZeroCopyMemory", fmt.Sprintf("mem_offset_ include zero_copy_memory is %d.", g.memoffset[memHBM]))
	}
	for _, s := range g.segs {
		for _, m := range s.members {
			file, lno, fn, msg := contMsg(p.gen, g, s, m)
			p.ge("INFO", file, lno, fn, msg)
		}
	}
	for _, a := range g.atomics {
		file, lno, fn, msg := atomicMsg(p.gen, g, a)
		p.ge("INFO", file, lno, fn, msg)
	}
	if len(g.atomics) > 0 {
		file, lno, fn, msg := memsetMsg(p.gen, g)
		p.ge("INFO", file, lno, fn, msg)
	}
	if p.gen == Gen2025 {
		other := g.reuseEnd[memHBM] + int64(p.r.intn(40))*512
		p.ge("INFO", "hybrid_mem_assigner.cc", 138, "Assign", fmt.Sprintf("binary-block memory assigner memory size:%d", g.reuseEnd[memHBM]))
		p.ge("INFO", "hybrid_mem_assigner.cc", 138, "Assign", fmt.Sprintf("max-block memory assigner memory size:%d", other))
		for _, m := range g.mems {
			p.ge("INFO", "block_mem_assigner.cc", 2847, "ResizeMemoryBlocks", fmt.Sprintf("Reuse result:%s memory type:%d mem_offset exclude zero_copy_memory:%d.", g.base, m, g.reuseEnd[m]))
			p.ge("INFO", "block_mem_assigner.cc", 2847, "ResizeMemoryBlocks", fmt.Sprintf("Reuse result:%s memory type:%d mem_offset exclude zero_copy_memory:%d.", g.base, m, g.reuseEnd[m]+int64(p.r.intn(8))*512))
		}
	}
	if !g.summary {
		return
	}
	for _, m := range g.mems {
		if m != memHBM && g.memoffset[m] == 0 {
			continue
		}
		lf := g.loggedFigs(m)
		file, lno, fn, msg := afterMsg(p.gen, g, m, lf)
		f, l := p.event(file, lno, fn, msg)
		if p.gen == Gen2025 {
			// GE's figures cover every row; a parser only sees the visible ones.
			tf := calcFigs(g.memRows(m, true), g.atomicSum(m))
			if tf.theoryMin != lf.theoryMin || tf.geTotal != lf.geTotal || tf.noReuse != lf.noReuse || tf.streams != lf.streams {
				p.inject(f, l, diag.LoggedMismatch, diag.LoggedMismatch, g.inst)
			}
		}
	}
}

// prepareCuts gives every row marked for truncation a node name whose
// length makes GE's 1024-character logger cut land where wanted: before
// isref[..] (after memtype[..]) for rejected rows, after it for used ones.
func (p *proc) prepareCuts(g *graph) {
	for _, t := range g.rows {
		if t.cut == cutNone {
			continue
		}
		orig := t.node
		t.node = ""
		lno := 2914
		if p.gen != Gen2025 {
			lno = 2156
		}
		b := p.body("block_mem_assigner.cc", lno, "", p.getid(), "SetOffsetSize", setMsg(p.gen, g, t))
		nameAt := strings.Index(b, " name[") + len(" name[")
		isrefEnd := strings.LastIndex(b, " isref[")
		isrefEnd += strings.IndexByte(b[isrefEnd:], ']') + 1
		var lo, hi int // first removed character (empty-name coordinates)
		if t.cut == cutRejected {
			lo = strings.Index(b[nameAt:], " size[") + nameAt + len(" size[")
			hi = isrefEnd - 1
		} else {
			lo, hi = isrefEnd, len(b)-1
		}
		lo = max(lo, 1024-512)
		hi = min(hi, 1024-24)
		if lo > hi || nameAt >= lo {
			t.cut = cutNone
			t.node = orig
			continue
		}
		c := lo + p.r.intn(hi-lo+1)
		t.node = longNodeName(1024-c, t.opID)
	}
}

func longNodeName(n, id int) string {
	suffix := "_" + strconv.Itoa(id)
	segs := []string{"bert/encoder/layer_11/attention/self/", "query/MatMul_grad/", "gradients/", "Adam_update/", "StatefulPartitionedCall/"}
	var sb strings.Builder
	for i := 0; sb.Len() < n; i++ {
		sb.WriteString(segs[i%len(segs)])
	}
	s := sb.String()[:n-len(suffix)]
	return s + suffix
}

// baseSlots is the number of distinct 16 MiB slots newBase draws from.
const baseSlots = (0x1ff0 * 0x200000) >> 24

// newBase draws a 2 MiB-aligned device address in a 16 MiB slot no other
// base of the process uses. Once half the drawn range is taken a redraw
// rarely succeeds, so the draw moves up to the next free slot instead,
// past the range if need be: a process may load any number of graphs.
func (p *proc) newBase() uint64 {
	for {
		b := uint64(0x12c000000000) + uint64(p.r.intn(0x1ff0))*0x200000
		if len(p.bases) >= baseSlots/2 {
			for p.bases[b>>24] {
				b += 1 << 24
			}
		}
		if !p.bases[b>>24] {
			p.bases[b>>24] = true
			return b
		}
	}
}

// load writes the load-time lines of a compiled graph: the feature-map
// malloc, the region and the operator addresses.
func (p *proc) load(g *graph) {
	size := g.memoffset[memHBM]
	base := p.newBase()
	tr := p.g.truth
	gid := g.id
	if p.gen == Gen2025 {
		if p.r.chance(0.5) {
			p.ge("INFO", "graph_mem_allocator.cc", 77, "MallocMemory", fmt.Sprintf("MemoryAllocator::MallocMemory device_id = 0, size= %d.", size))
		}
		p.ge("INFO", "graph_mem_allocator.cc", 78, "MallocMemory", fmt.Sprintf("MallocMemory, func=aclrtMalloc, size=%d, purpose=feature map,used for op input and output, ptr=0x%x, device_id=0, module_id=45", size, base))
	} else {
		p.ge("INFO", "graph_mem_allocator.cc", 70, "MallocMemory", fmt.Sprintf("MemoryAllocator::MallocMemory device_id = 0, size= %d", size))
		p.ge("INFO", "graph_mem_allocator.cc", 75, "MallocMemory", fmt.Sprintf("MallocMemory, func=rtMalloc, size=%d, purpose=feature map,used for op input and output.", size))
	}
	tr.Malloc = append(tr.Malloc, MallocTruth{PID: p.pid, Category: "StaticGraph", Bytes: size})
	if ps := g.memoffset[memP2P]; ps > 0 {
		if p.gen == Gen2025 {
			p.ge("INFO", "model_utils.cc", 1470, "MallocExMem", fmt.Sprintf("MallocMemory, func=aclrtMalloc, size=%d, purpose=RT_MEMORY_P2P_HBM, ptr=0x%x, device_id=0, module_id=45", ps, p.newBase()))
		} else {
			p.ge("INFO", "davinci_model.cc", 3290, "MallocExMem", fmt.Sprintf("MallocMemory, func=rtMalloc, size=%d, purpose=p2p memory, used for some op related to hcom or session scope memory", ps))
		}
		tr.Malloc = append(tr.Malloc, MallocTruth{PID: p.pid, Category: "StaticGraph", Bytes: ps})
	}
	if p.gen == Gen2025 {
		p.event("davinci_model.cc", 656, "InitFeatureMapAndP2PMem", fmt.Sprintf("[IMAS]InitFeatureMapAndP2PMem graph_%d MallocMemory type[F] memaddr[0x%x] mem_size[%d]Bytes", gid, base, size))
	} else {
		p.event("davinci_model.cc", 472, "InitFeatureMapAndP2PMem", fmt.Sprintf("[IMAS]InitFeatureMapAndP2PMem graph_%d MallocMemory type[F] memaddr[0x%x] mem_size[%d]", gid, base, size))
	}
	tr.Regions = append(tr.Regions, RegionTruth{PID: p.pid, GraphID: gid, Type: "F", Base: fmt.Sprintf("0x%x", base), Size: size})
	var cand []*tensor
	for _, t := range g.rows {
		if t.mem == memHBM && t.real > 0 && t.cut != cutRejected && t.blk != nil {
			cand = append(cand, t)
		}
	}
	at := AddrTruth{PID: p.pid, GraphID: gid}
	limit := min(p.spec.Addresses, len(cand))
	subset := perm(p.r, len(cand))[:limit]
	var badAt map[int]bool
	if p.bad > 0 && limit > 0 {
		badAt = map[int]bool{}
		for k := min(p.bad, 1+p.r.intn(2), limit); k > 0; k-- {
			badAt[p.r.intn(limit)] = true
		}
	}
	for k, ti := range subset {
		t := cand[ti]
		off := t.offset()
		if t.seg != nil {
			off = t.contOff
		}
		addr := base + uint64(off)
		if badAt[k] && p.bad > 0 {
			p.bad--
			switch p.r.intn(3) {
			case 0:
				addr = base + uint64(size) // exactly one past the end
			case 1:
				addr = base + uint64(size) + uint64(1+p.r.intn(64))*512
			default:
				addr = base - uint64(1+p.r.intn(64))*512
			}
			at.Invalid = append(at.Invalid, BadAddress{GraphID: gid, Name: t.node, Kind: t.kind, Index: t.index, MemAddr: fmt.Sprintf("0x%x", addr)})
		}
		file, lno, fn, msg := addrMsg(p.gen, gid, t, off, addr)
		p.ge("INFO", file, lno, fn, msg)
		at.Checked++
	}
	tr.Addresses = append(tr.Addresses, at)
}

// scrubMarkers breaks any accidental statement marker in junk bytes.
func scrubMarkers(b []byte) []byte {
	s := string(b)
	for _, m := range markers {
		for strings.Contains(s, m) {
			s = strings.Replace(s, m, strings.ToLower(m[:1])+"#"+m[1:], 1)
		}
	}
	return []byte(s)
}

// buildModelDef writes the 2020 model build line with GE's zero-copy size
// (the graph's zero-copy blocks, laid out last in the HBM area).
func (p *proc) buildModelDef(g *graph) {
	p.ge("INFO", "model_builder.cc", 412, "BuildModelDef", fmt.Sprintf("For model, max_mem_offset_: %d, zero_copy_mem_size_: %d",
		g.memoffset[memHBM], g.loggedFigs(memHBM).zeroCopy))
}
