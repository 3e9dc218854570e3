package gen

import (
	"sort"
	"strconv"
	"strings"
)

const (
	lifeDefault = 4294967294 // kDefaultLifeTime: end never set
	lifeMax     = 4294967295 // kMaxLifeTime: not post-reusable
	memHBM      = 2
	memP2P      = 16
)

func align(x, a int64) int64 {
	if x <= 0 {
		return 0
	}
	return (x + a - 1) / a * a
}

func align512(x int64) int64 { return align(x, 512) }

// Tensor roles in the ground-truth model.
const (
	roleOut      = iota // ordinary output, reusable
	roleWS              // workspace, lives one step
	roleData            // graph input (zero-copy)
	roleGraphOut        // graph output (zero-copy, lives to the end)
	roleInf             // reusable output that is never released (4294967294/5)
	roleNoReuse         // output that may not be reused (reuse flag 0, 9--4294967295)
	roleAlias           // isref[1] in-place alias of another row
	roleConst           // zero_memory_list dummy row (size 0)
)

// Truncation modes of a row (hostile profile).
const (
	cutNone = iota
	cutUsed
	cutRejected
)

// tensor is one [IMAS]Set row of the model.
type tensor struct {
	seq     int
	opID    int
	node    string
	optype  string
	kind    string // output | workspace
	index   int
	mem     int
	stream  int   // effective stream id (last number of streamid[...])
	sdesc   []int // printed stream desc (2025: "a--b" when two values)
	noalign int64
	real    int64
	begins  []int64 // printed life-begin desc values
	ends    []int64 // printed life-end desc values
	reuse   int
	zc      int
	same    int
	isref   int
	role    int
	alias   *tensor // target of an isref[1] row
	aliases []*tensor
	btype   string
	blk     *block
	seg     *segment
	contOff int64
	confl   string // injected conflict kind: touch | overlap | cross
	cut     int
	formula bool
}

func (t *tensor) begin() int64 {
	m := t.begins[0]
	for _, v := range t.begins[1:] {
		m = min(m, v)
	}
	return m
}

func (t *tensor) end() int64 {
	m := t.ends[0]
	for _, v := range t.ends[1:] {
		m = max(m, v)
	}
	return m
}

func (t *tensor) key() string { return t.node + ":" + t.kind + ":" + strconv.Itoa(t.index) }

func (t *tensor) offset() int64 {
	if t.blk == nil {
		return 0
	}
	return t.blk.offset
}

func (t *tensor) size() int64 {
	if t.blk == nil {
		return 0
	}
	return t.blk.size
}

func (t *tensor) cont() int {
	if t.blk != nil && t.blk.cont {
		return 1
	}
	return 0
}

// block is one memory block of GE's block assigner: every tenant prints
// the block's offset and size.
type block struct {
	id      int
	mem     int
	stream  int
	size    int64
	offset  int64
	lastEnd int64
	tenants []*tensor
	cont    bool
	zc      bool
	noReuse bool
}

// segment is one continuous-input block: its members are laid out one
// after another (Continuous input lines give their offsets).
type segment struct {
	members  []*tensor
	blk      *block
	consumer int
	style    int // 2025: 0 graph assigner line, 1 block assigner [ContinuousMem] line
}

// atomic piece kinds.
const (
	atomOutput = iota
	atomOrdinaryWS
	atomFusionWS
)

type atomicPiece struct {
	kind   int
	node   string
	optype string
	index  int
	stream int
	real   int64
	start  int64
	size   int64
}

// graph is the ground-truth model of one compiled graph.
type graph struct {
	name      string // as printed in [IMAS]Set
	base      string // name without _<id>
	inst      string // graph name in truth (with #k for recompilations)
	id        int
	gen       Generation
	ops       int
	tensors   []*tensor
	rows      []*tensor // print order of [IMAS]Set rows
	blocks    []*block
	segs      []*segment
	atomics   []*atomicPiece
	mems      []int
	reuseEnd  map[int]int64
	memoffset map[int]int64
	topo      string
	mop       string
	summary   bool // AfterAssignMemory printed
	loaded    bool
}

type graphParams struct {
	name, base  string
	id          int
	gen         Generation
	ops         int
	streams     int
	p2p         bool
	contSegs    int
	inplace     float64
	atomics     int
	conflicts   int
	formula     []string
	cutRejected int
	cutUsed     int
}

var opTypes = []string{"Add", "Mul", "Sub", "RealDiv", "Relu", "Gelu", "Softmax", "LayerNorm",
	"MatMul", "BatchMatMul", "Conv2D", "Cast", "TransData", "Transpose", "ReduceSum"}

// noalign draws a realistic shape×dtype byte size.
func drawBytes(r *rng) int64 {
	switch x := r.intn(100); {
	case x < 45:
		return r.between(40, 20000)
	case x < 75:
		return r.between(20000, 640000)
	case x < 95:
		n := int64(1) << r.between(12, 22)
		if r.chance(0.5) {
			return n
		}
		return n - r.between(1, 64)
	default:
		return int64(1) << r.between(21, 23)
	}
}

func outReal(noalign int64) int64 { return align(noalign, 32) + 32 }
func wsReal(noalign int64) int64  { return align(noalign, 32) }

func buildGraph(r *rng, gp graphParams) *graph {
	g := &graph{name: gp.name, base: gp.base, id: gp.id, gen: gp.gen, ops: gp.ops,
		reuseEnd: map[int]int64{}, memoffset: map[int]int64{}}
	N := gp.ops
	if N < 8 {
		N = 8
		g.ops = N
	}
	inf := int64(lifeDefault)
	if gp.gen != Gen2025 {
		inf = lifeMax
	}
	add := func(t *tensor) *tensor {
		t.seq = len(g.tensors)
		t.same = 1
		t.formula = isFormula(t.node)
		if t.sdesc == nil {
			t.sdesc = []int{t.stream}
		}
		g.tensors = append(g.tensors, t)
		return t
	}
	// Graph inputs: zero-copy Data outputs.
	nData := 1 + r.intn(3)
	for k := 0; k < nData; k++ {
		name := "data_x"
		if k > 0 {
			name = "data_" + strconv.Itoa(k)
		}
		na := drawBytes(r)
		b := int64(k)
		add(&tensor{opID: k, node: name, optype: "Data", kind: "output", mem: memHBM, noalign: na, real: outReal(na),
			begins: []int64{b}, ends: []int64{min(b+1+r.between(0, 5), int64(N))}, reuse: 0, zc: 1, role: roleData, btype: "data "})
	}
	// Operators in topological order.
	formulaAt := map[int]string{}
	for k, f := range gp.formula {
		formulaAt[2+(k*(N-4))/max(1, len(gp.formula))+r.intn(2)] = f
	}
	streams := max(1, gp.streams)
	stream := 0
	for i := 1; i <= N; i++ {
		if streams > 1 && r.chance(0.3) {
			stream = r.intn(streams)
		}
		ot := pick(r, opTypes)
		name := strings.ToLower(ot) + "_" + strconv.Itoa(i)
		if f, ok := formulaAt[i]; ok {
			name = f
		}
		sdesc := []int{stream}
		if gp.gen == Gen2025 && streams > 1 && r.chance(0.06) {
			if r.chance(0.5) {
				sdesc = []int{-1, stream}
			} else {
				sdesc = []int{stream + streams, stream}
			}
		}
		if gp.p2p && i < N-2 && r.chance(0.14) {
			na := drawBytes(r)
			e := min(int64(i)+r.between(1, 6), int64(N))
			t := add(&tensor{opID: i, node: "hcomallreduce_" + strconv.Itoa(i), optype: "HcomAllReduce", kind: "output",
				mem: memP2P, stream: stream, sdesc: sdesc, noalign: na, real: outReal(na), begins: []int64{int64(i)}, ends: []int64{e}, reuse: 1, role: roleOut})
			if r.chance(0.1) {
				t.reuse, t.role = 0, roleNoReuse
			}
			continue
		}
		nOut := 1
		if r.chance(0.3) {
			nOut = 2
		}
		for j := 0; j < nOut; j++ {
			na := drawBytes(r)
			begins := []int64{int64(i)}
			if i >= 2 && r.chance(0.1) {
				begins = []int64{int64(i - 1), int64(i)}
			}
			e := min(int64(i)+r.between(1, 6), int64(N))
			ends := []int64{e}
			if gp.gen == Gen2025 && e > int64(i)+1 && r.chance(0.1) {
				ends = []int64{e - 1, e}
			}
			add(&tensor{opID: i, node: name, optype: ot, kind: "output", index: j, mem: memHBM, stream: stream, sdesc: sdesc,
				noalign: na, real: outReal(na), begins: begins, ends: ends, reuse: 1, role: roleOut})
		}
		if i == N || r.chance(0.35) {
			na := r.between(900, 300000)
			add(&tensor{opID: i, node: name, optype: ot, kind: "workspace", mem: memHBM, stream: stream, sdesc: sdesc,
				noalign: na, real: wsReal(na), begins: []int64{int64(i)}, ends: []int64{int64(i)}, reuse: 1, role: roleWS})
		}
	}
	outs := func(filter func(t *tensor) bool) []*tensor {
		var xs []*tensor
		for _, t := range g.tensors {
			if t.role == roleOut && t.kind == "output" && t.mem == memHBM && t.seg == nil && len(t.aliases) == 0 && t.cut == cutNone && !t.formula && filter(t) {
				xs = append(xs, t)
			}
		}
		return xs
	}
	// Graph outputs: zero-copy, live to the end of the graph.
	nGO := 1 + r.intn(3)
	for _, t := range outs(func(t *tensor) bool { return t.opID > N-5 && t.index == 0 && t.opID < N }) {
		if nGO == 0 {
			break
		}
		nGO--
		t.role, t.reuse, t.zc, t.btype, t.ends = roleGraphOut, 0, 1, "data ", []int64{inf}
	}
	// A reusable tensor never released, and one that may not be reused.
	if c := outs(func(t *tensor) bool { return t.opID < N-3 && t.opID > 1 }); len(c) > 0 && r.chance(0.6) {
		t := pick(r, c)
		t.role = roleInf
		if gp.gen == Gen2025 && r.chance(0.5) {
			t.ends = []int64{t.end(), lifeMax}
		} else {
			t.ends = []int64{inf}
		}
	}
	if c := outs(func(t *tensor) bool { return t.opID < N-3 }); len(c) > 0 && r.chance(0.5) {
		t := pick(r, c)
		t.role, t.reuse = roleNoReuse, 0
		if gp.gen == Gen2025 {
			t.ends = []int64{t.end(), lifeMax}
		} else {
			t.ends = []int64{lifeMax}
		}
	}
	// Continuous-input segments.
	for s := 0; s < gp.contSegs; s++ {
		c := int(r.between(int64(N/4+3), int64(N-2)))
		cand := outs(func(t *tensor) bool { return t.opID < c && t.opID >= c-10 })
		if len(cand) < 2 {
			continue
		}
		n := 2 + r.intn(2)
		seg := &segment{consumer: c}
		used := map[int]bool{}
		for _, k := range perm(r, len(cand)) {
			t := cand[k]
			if used[t.opID] || len(seg.members) == n {
				continue
			}
			used[t.opID] = true
			seg.members = append(seg.members, t)
		}
		if len(seg.members) < 2 {
			continue
		}
		for _, t := range seg.members {
			t.seg = seg
			t.stream, t.sdesc = seg.members[0].stream, []int{seg.members[0].stream}
			if e := t.end(); e < int64(c) {
				t.ends[len(t.ends)-1] = int64(c)
			}
		}
		if gp.gen == Gen2025 && r.chance(0.3) {
			seg.style = 1
		}
		g.segs = append(g.segs, seg)
	}
	// In-place aliases (isref[1]).
	for _, t := range outs(func(t *tensor) bool { return t.end() > t.begin() && t.end() < lifeDefault }) {
		if !r.chance(gp.inplace) {
			continue
		}
		na := t.noalign
		if r.chance(0.5) {
			na = r.between(max(1, na/8), na)
		}
		b := t.begin() + 1
		a := add(&tensor{opID: int(b), node: t.node + "_inplace", optype: "Assign", kind: "output", mem: t.mem, stream: t.stream,
			sdesc: t.sdesc, noalign: na, real: outReal(na), begins: []int64{b}, ends: []int64{t.end()}, reuse: 1, isref: 1,
			role: roleAlias, alias: t})
		t.aliases = append(t.aliases, a)
	}
	// Zero-memory-list dummies (Const): size 0, never counted.
	for k := r.intn(3); k > 0; k-- {
		id := int64(1 + r.intn(N))
		add(&tensor{opID: int(id), node: "const_" + strconv.Itoa(len(g.tensors)), optype: "Const", kind: "output", mem: memHBM,
			begins: []int64{id}, ends: []int64{id}, reuse: 0, role: roleConst})
	}
	// Injected reuse conflicts.
	if gp.conflicts > 0 {
		kinds := []string{"touch", "overlap", "overlap"}
		if streams > 1 {
			kinds = append(kinds, "cross")
		}
		var cand []*tensor
		for _, t := range g.tensors {
			if (t.role == roleOut || t.role == roleWS) && t.mem == memHBM && t.seg == nil && len(t.aliases) == 0 && t.begin() >= 3 && !t.formula {
				cand = append(cand, t)
			}
		}
		for n, k := gp.conflicts, 0; n > 0 && k < len(cand); k++ {
			t := cand[r.intn(len(cand))]
			if t.confl != "" {
				continue
			}
			t.confl = pick(r, kinds)
			n--
		}
	}
	// Rows to cut at the 1024-character logger limit (hostile).
	if gp.cutRejected+gp.cutUsed > 0 {
		var cand []*tensor
		for _, t := range g.tensors {
			// Never the last operator: its tensors pin the largest finite
			// lifetime of the graph (the end of 4294967294/5 lifetimes).
			if (t.role == roleOut || t.role == roleWS) && t.mem == memHBM && t.seg == nil && len(t.aliases) == 0 && t.confl == "" && !t.formula && t.opID < N {
				cand = append(cand, t)
			}
		}
		p := perm(r, len(cand))
		k := 0
		for ; k < gp.cutRejected && k < len(p); k++ {
			cand[p[k]].cut = cutRejected
		}
		for j := 0; j < gp.cutUsed && k < len(p); j, k = j+1, k+1 {
			cand[p[k]].cut = cutUsed
		}
	}
	// Atomic pieces (memset-cleaned, appended after the reuse region).
	for k, n := 0, r.intn(gp.atomics+1); k < n; k++ {
		ot := pick(r, []string{"ReduceSum", "MatMul", "BatchMatMul", "Conv2D"})
		ap := &atomicPiece{kind: r.intn(3), node: strings.ToLower(ot) + "_atomic_" + strconv.Itoa(k), optype: ot, real: r.between(600, 90000)}
		g.atomics = append(g.atomics, ap)
	}
	g.allocate(r)
	g.layout(r)
	g.order(r)
	return g
}

func isFormula(s string) bool {
	return s != "" && strings.ContainsRune("=+-@<", rune(s[0]))
}

func perm(r *rng, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := r.intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// allocate runs a best-fit block assigner over the tensors in lifetime
// order: a block is reused only by a tensor of the same memory type and
// stream whose life begins strictly after every previous tenant's end
// (lifetimes are inclusive), except for the injected conflicts.
func (g *graph) allocate(r *rng) {
	var order []*tensor
	for _, t := range g.tensors {
		if t.zc == 1 || t.role == roleAlias || t.role == roleConst {
			continue
		}
		order = append(order, t)
	}
	sort.SliceStable(order, func(i, j int) bool {
		if bi, bj := order[i].begin(), order[j].begin(); bi != bj {
			return bi < bj
		}
		return order[i].seq < order[j].seq
	})
	newBlock := func(t *tensor) *block {
		b := &block{id: len(g.blocks), mem: t.mem, stream: t.stream}
		g.blocks = append(g.blocks, b)
		return b
	}
	place := func(t *tensor, b *block) {
		b.tenants = append(b.tenants, t)
		t.blk = b
		if !b.cont {
			b.size = max(b.size, align512(t.real))
		}
		b.lastEnd = max(b.lastEnd, t.end())
	}
	usable := func(b *block, t *tensor) bool {
		return b.mem == t.mem && !b.noReuse && !b.zc && b.lastEnd < lifeDefault
	}
	for _, t := range order {
		if t.seg != nil {
			if t.seg.blk != nil {
				continue
			}
			b := newBlock(t)
			b.cont = true
			t.seg.blk = b
			for _, m := range t.seg.members {
				b.size += align512(m.real)
				place(m, b)
			}
			continue
		}
		need := align512(t.real)
		if t.reuse == 0 {
			b := newBlock(t)
			b.noReuse = true
			place(t, b)
			continue
		}
		if t.confl != "" {
			if b := g.conflictBlock(r, t); b != nil {
				if b.cont {
					t.confl = ""
				} else {
					place(t, b)
					continue
				}
			}
			t.confl = ""
		}
		var best *block
		var largest *block
		for _, b := range g.blocks {
			if !usable(b, t) || b.stream != t.stream || b.lastEnd >= t.begin() {
				continue
			}
			if b.size >= need && (best == nil || b.size < best.size) {
				best = b
			}
			if !b.cont && (largest == nil || b.size > largest.size) {
				largest = b
			}
		}
		switch {
		case best != nil:
			place(t, best)
		case largest != nil && r.chance(0.5):
			place(t, largest)
		default:
			place(t, newBlock(t))
		}
	}
	// Aliases share their target's block; blocks record whether all their
	// tenants run on one stream.
	for _, t := range g.tensors {
		if t.role == roleAlias {
			t.blk = t.alias.blk
		}
	}
	for _, b := range g.blocks {
		same := 1
		for _, t := range b.tenants {
			if t.stream != b.stream {
				same = 0
			}
		}
		for _, t := range b.tenants {
			t.same = same
			for _, a := range t.aliases {
				a.same = same
			}
		}
	}
}

// conflictBlock finds a block whose current tenants are still alive when t
// begins (a reuse error): for "touch" the last tenant ends exactly at t's
// begin, for "cross" the block belongs to another stream.
func (g *graph) conflictBlock(r *rng, t *tensor) *block {
	var touch, overlap, cross []*block
	for _, b := range g.blocks {
		if b.mem != t.mem || b.noReuse || b.zc || b.cont || b.lastEnd >= lifeDefault || len(b.tenants) == 0 {
			continue
		}
		if b.lastEnd < t.begin() {
			continue
		}
		first := b.tenants[0].begin()
		if first > t.end() {
			continue
		}
		if b.stream != t.stream {
			cross = append(cross, b)
			continue
		}
		if b.lastEnd == t.begin() {
			touch = append(touch, b)
		}
		overlap = append(overlap, b)
	}
	switch {
	case t.confl == "cross" && len(cross) > 0:
		return pick(r, cross)
	case t.confl == "touch" && len(touch) > 0:
		return pick(r, touch)
	case len(overlap) > 0:
		return pick(r, overlap)
	}
	return nil
}

// layout gives every block its offset: the reuse region of each memory
// type is the blocks in creation order, then (HBM) the atomic pieces, then
// the zero-copy blocks at the top.
func (g *graph) layout(r *rng) {
	memSet := map[int]bool{}
	for _, t := range g.tensors {
		if t.role != roleConst {
			memSet[t.mem] = true
		}
	}
	memSet[memHBM] = true
	for m := range memSet {
		g.mems = append(g.mems, m)
	}
	sort.Ints(g.mems)
	for _, m := range g.mems {
		var off int64
		for _, b := range g.blocks {
			if b.mem == m {
				b.offset = off
				off += b.size
			}
		}
		g.reuseEnd[m] = off
		g.memoffset[m] = off
	}
	cur := g.reuseEnd[memHBM]
	for _, a := range g.atomics {
		a.start = cur
		a.size = align512(a.real)
		cur += a.size
	}
	var zcs []*tensor
	for _, t := range g.tensors {
		if t.zc == 1 {
			zcs = append(zcs, t)
		}
	}
	for _, k := range perm(r, len(zcs)) {
		t := zcs[k]
		b := &block{id: len(g.blocks), mem: t.mem, stream: t.stream, zc: true, offset: cur, size: align512(t.real)}
		b.tenants = []*tensor{t}
		g.blocks = append(g.blocks, b)
		t.blk = b
		cur += b.size
	}
	g.memoffset[memHBM] = cur
	for _, s := range g.segs {
		off := s.blk.offset
		for _, m := range s.members {
			m.contOff = off
			off += align512(m.real)
		}
	}
}

// order fixes the print order of the [IMAS]Set rows: block by block in
// creation order, tenants by lifetime, each isref[1] alias right after its
// target, dummies anywhere before the zero-copy rows.
func (g *graph) order(r *rng) {
	var rows []*tensor
	for _, b := range g.blocks {
		ts := append([]*tensor(nil), b.tenants...)
		sort.SliceStable(ts, func(i, j int) bool { return ts[i].begin() < ts[j].begin() })
		for _, t := range ts {
			rows = append(rows, t)
			rows = append(rows, t.aliases...)
		}
	}
	for _, t := range g.tensors {
		if t.role != roleConst {
			continue
		}
		nz := 0
		for nz < len(rows) && rows[nz].zc == 0 {
			nz++
		}
		// Never between a row and its isref[1] aliases: an alias aliases
		// the nearest previous isref[0] row printed at its offset, and a
		// dummy prints offset 0.
		at := r.intn(nz + 1)
		for at < nz && rows[at].isref == 1 {
			at++
		}
		rows = append(rows[:at], append([]*tensor{t}, rows[at:]...)...)
	}
	g.rows = rows
}
