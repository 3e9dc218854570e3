package analyze

import (
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"

	"imas/core/diag"
	"imas/core/model"
)

// CheckAddresses checks every operator address against its region
// (docs/figures.md#regions: an address of graph_<id> must lie in [base,
// base+size) of the region of its memory class) and reconciles address −
// base with the compile-time offset of the same tensor. It fills the
// report's address checks and returns one diagnostic per finding.
func CheckAddresses(rep *model.Report) []model.Diagnostic {
	return checkAddresses(rep, &indexCount{})
}

// indexCount counts the static graph indexes built and not let go: the
// most at once stays small however many graphs a run loads (tests).
type indexCount struct{ live, most int }

func checkAddresses(rep *model.Report, count *indexCount) []model.Diagnostic {
	MapRegions(rep)
	statics := staticGraphs(rep, count)
	var diags []model.Diagnostic
	var unchecked []model.Diagnostic // after those of every row
	seq := -1                        // the row's place among the rows of every check (staticGraph.last)
	for i := range rep.AddressChecks {
		ac := &rep.AddressChecks[i]
		// A spill store that cannot give the rows back keeps the error,
		// which fails the run (core/spill).
		rows, err := rep.AddrRows(ac)
		if err != nil {
			continue
		}
		ac.Rows = rows
		ac.Checked, ac.Reconciled, ac.Invalid, ac.Mismatches = 0, 0, []model.BadAddress{}, nil
		ac.Unchecked = map[string]int64{}
		for j := range ac.Rows {
			seq++
			r := &ac.Rows[j]
			r.Why = ""
			switch {
			case r.Status == "null" || r.Status == "failed": // set by the builder
				continue
			case r.Region == 0 || r.MemAddr == "":
				r.Status, r.Why = "unchecked", uncheckedWhy(ac, r)
				ac.Unchecked[r.Why]++
				continue
			}
			reg := &rep.Regions[r.Region-1]
			if ac.Graph == "" {
				ac.Graph = reg.Graph
			}
			ac.Checked++
			off := int64(r.Addr) - int64(reg.Addr)
			r.Status = "ok"
			if r.Addr < reg.Addr || off >= reg.Size {
				r.Status = "invalid"
				ac.Invalid = append(ac.Invalid, model.BadAddress{GraphID: ac.GraphID, Name: r.Name, Kind: r.Kind,
					Index: r.Index, MemAddr: r.MemAddr, Line: r.Line})
				diags = append(diags, model.Diagnostic{Path: r.Path, Line: r.Line, Reason: diag.InvalidAddress,
					Detail: fmt.Sprintf("graph_%d %s: %s is outside the %s region [%s, +%d)",
						ac.GraphID, model.TensorKey(r.Name, r.Kind, r.Index), r.MemAddr, reg.Type, reg.Base, reg.Size)})
			}
			if !reconcilable(reg, r) {
				continue
			}
			want, from := int64(0), ""
			if st := statics[r.Region-1]; st != nil {
				if w, ok := st.offsets(rep).offset(r.Name, r.Kind, r.Index, off); ok {
					want, from = w, "static"
					ac.Reconciled++
				}
				st.release(seq)
			}
			if from == "" && r.Offset >= 0 {
				want, from = r.Offset, "printed"
			}
			if from == "" || off == want {
				continue
			}
			ac.Mismatches = append(ac.Mismatches, model.OffsetCheck{Name: r.Name, Kind: r.Kind, Index: r.Index,
				Address: off, Compiled: want, From: from, MemAddr: r.MemAddr, Line: r.Line})
			if r.Status == "ok" {
				r.Status = "mismatch"
				diags = append(diags, model.Diagnostic{Path: r.Path, Line: r.Line, Reason: diag.AddressOffsetMismatch,
					Detail: fmt.Sprintf("graph_%d %s: address − base = %d, compile-time offset (%s) = %d",
						ac.GraphID, model.TensorKey(r.Name, r.Kind, r.Index), off, from, want)})
			}
		}
		for _, why := range uncheckedOrder {
			if n := ac.Unchecked[why]; n > 0 {
				path, line := firstUnchecked(ac, why)
				unchecked = append(unchecked, model.Diagnostic{Path: path, Line: line, Reason: why,
					Detail: fmt.Sprintf("%d %s of graph_%d not checked", n, plural(n, "address", "addresses"), ac.GraphID)})
			}
		}
		// The checked rows go back where they were: to the store when the
		// build moved them there, so that one check's rows are in memory
		// at a time.
		rep.SetAddrRows(ac, ac.Rows)
	}
	return append(diags, unchecked...)
}

// uncheckedOrder lists the reasons an address is not checked, for the
// diagnostics.
var uncheckedOrder = []string{diag.UncheckedUserMemory, diag.UncheckedNoRegion, diag.UncheckedOnChip, diag.UncheckedNoAddress}

// uncheckedWhy says why an address has no region to be checked against.
func uncheckedWhy(ac *model.AddressCheck, r *model.AddrRow) string {
	switch {
	case r.MemAddr == "":
		return diag.UncheckedNoAddress
	case r.Type == "L1":
		return diag.UncheckedOnChip
	case ac.UserMemory && r.Type != "C" && r.Type != "V":
		// The feature map is the user's; weights and variables are GE's.
		return diag.UncheckedUserMemory
	}
	return diag.UncheckedNoRegion
}

func firstUnchecked(ac *model.AddressCheck, why string) (string, int64) {
	for i := range ac.Rows {
		if ac.Rows[i].Why == why {
			return ac.Rows[i].Path, ac.Rows[i].Line
		}
	}
	return "", 0
}

// reconcilable: address − base is compared with a compile-time offset only
// for operator addresses in feature-map regions; weights, variables and
// the load-time copies have no planned offset in the logs.
func reconcilable(reg *model.Region, r *model.AddrRow) bool {
	if reg.Type == "W" || reg.Type == "V" {
		return false
	}
	switch r.Statement {
	case "InitConstant", "Init FileConstant", "CopyPlainData", "CopyTransData":
		return false
	}
	return true
}

type staticKey struct {
	pid, graph string
	memtype    int64
}

// staticMemType is the static graph memory type whose offsets a region
// holds: the region's mem_type when printed, HBM otherwise.
func staticMemType(r *model.Region) int64 {
	if r.MemType > 0 {
		return r.MemType
	}
	return 2
}

// staticGraph is the static graph of one or more regions, with the
// tensors their addresses ask about.
//
// Only those tensors need indexing, and they are a fraction of the graph's
// rows (the addresses printed per loaded graph are capped): they go into a
// filter first, and the index leaves out the rows the filter rules out,
// which are most.
type staticGraph struct {
	graphs []*model.Graph // the report's graphs of key, in report order
	want   tensorFilter
	x      *tensorIndex
	// last is the place of the last address row that looks the graph up,
	// among the rows of every check in order: its index is let go after
	// that row (release), so that the indexes of a run of many loaded
	// graphs do not all live until the end, nor those a check's rows name.
	last  int
	count *indexCount
}

// release lets the index go if the row at place seq is the last to look
// it up.
func (st *staticGraph) release(seq int) {
	if st.last <= seq && st.x != nil {
		st.x = nil
		st.count.live--
	}
}

// offsets returns the graph's index, built on first use: right before its
// lookups, while the rows it read are still in the cache.
func (st *staticGraph) offsets(rep *model.Report) *tensorIndex {
	if st.x == nil {
		st.x = staticOffsets(rep, st.graphs, &st.want)
		st.count.live++
		st.count.most = max(st.count.most, st.count.live)
	}
	return st.x
}

// staticGraphs returns the static graph of each region mapped to one
// (Region.Graph), shared by the regions of one graph, with the tensors
// that CheckAddresses will look up in it.
func staticGraphs(rep *model.Report, count *indexCount) []*staticGraph {
	graphs := map[staticKey]*staticGraph{}
	// The graphs of each key, found once: a run of 10^5 small graphs has
	// about as many static graphs to look up.
	byKey := map[staticKey][]*model.Graph{}
	for _, g := range rep.Graphs {
		k := staticKey{g.PID, g.Graph, g.MemType}
		byKey[k] = append(byKey[k], g)
	}
	byRegion := make([]*staticGraph, len(rep.Regions)) // one map lookup per region, not per address
	seq := -1                                          // as CheckAddresses counts the rows
	for i := range rep.AddressChecks {
		rows, err := rep.AddrRows(&rep.AddressChecks[i])
		if err != nil {
			continue // the store keeps the error (CheckAddresses)
		}
		for j := range rows {
			seq++
			r := &rows[j]
			// The addresses CheckAddresses looks up.
			if r.Status == "null" || r.Status == "failed" || r.Region == 0 || r.MemAddr == "" {
				continue
			}
			reg := &rep.Regions[r.Region-1]
			if reg.Graph == "" || !reconcilable(reg, r) {
				continue
			}
			st := byRegion[r.Region-1]
			if st == nil {
				k := staticKey{reg.PID, reg.Graph, staticMemType(reg)}
				if st = graphs[k]; st == nil {
					st = &staticGraph{graphs: byKey[k], count: count}
					rows := 0
					for _, g := range st.graphs {
						rows += rep.RowCount(g)
					}
					st.want = newTensorFilter(rows)
					graphs[k] = st
				}
				byRegion[r.Region-1] = st
			}
			st.want.add(r.Name, r.Kind, r.Index)
			st.last = seq
		}
	}
	return byRegion
}

// staticOffsets indexes the compile-time offsets of a static graph's
// tensors that want may hold: the [IMAS]Set row's block offset, or, for
// members of a continuous block, the offset of their (last) continuous
// line, which is where GE really placed them.
func staticOffsets(rep *model.Report, of []*model.Graph, want *tensorFilter) *tensorIndex {
	var graphs []*model.Graph
	for _, g := range of {
		// A spill store that cannot give the rows back keeps the error,
		// which fails the run (core/spill).
		full, err := rep.WithRows(g)
		if err != nil {
			continue
		}
		if full != g {
			// Loaded for this index only: keep the rows it may hold, not
			// the graph (the indexes of a run live together).
			full = wantedRows(full, want)
		}
		graphs = append(graphs, full)
	}
	return newTensorIndex(graphs, want, hashTensor)
}

// wantedRows returns a graph with only the rows and continuous lines of g
// that want may hold, in g's order, and only what the index reads of them
// (the tensor and its offset), in strings of their own: a loaded graph's
// names share one string of its whole segment.
func wantedRows(g *model.Graph, want *tensorFilter) *model.Graph {
	k := &model.Graph{}
	for i := range g.Reassign {
		if a := &g.Reassign[i]; want.has(a.Node, a.Kind, a.Index) {
			k.Reassign = append(k.Reassign, model.Reassign{Node: strings.Clone(a.Node), Kind: strings.Clone(a.Kind), Index: a.Index, Offset: a.Offset})
		}
	}
	for i := range g.Rows {
		if a := &g.Rows[i]; want.has(a.Node, a.Kind, a.Index) {
			k.Rows = append(k.Rows, model.Row{Node: strings.Clone(a.Node), Kind: strings.Clone(a.Kind), Index: a.Index, Offset: a.Offset})
		}
	}
	return k
}

// tensorFilter is a set of tensors that may answer false positives, never
// false negatives (a Bloom filter with one hash function over 64 to 4096
// bits: newTensorFilter sizes it by the rows of the graph it filters, so
// that a run of many small graphs does not hold 512 bytes per graph; the
// zero value takes 4096 at its first add). Its hash is of cheap features
// only — the lengths of node and kind, the node's last three bytes (GE
// numbers its nodes: "relu_360"), the index — so that ruling a row out
// costs a few loads, not hashing its name.
type tensorFilter struct{ words []uint64 }

const maxFilterBits = 4096

// newTensorFilter returns a filter for a graph of rows rows: some eight
// bits a row.
func newTensorFilter(rows int) tensorFilter {
	bits := 64
	for bits < 8*rows && bits < maxFilterBits {
		bits <<= 1
	}
	return tensorFilter{make([]uint64, bits/64)}
}

func filterHash(node, kind string, index int64) uint64 {
	h := uint64(len(node))<<24 ^ uint64(len(kind))<<32 ^ uint64(index)<<40
	for i := max(len(node)-3, 0); i < len(node); i++ {
		h = h<<8 ^ uint64(node[i])
	}
	return mix64(h)
}

func (f *tensorFilter) add(node, kind string, index int64) {
	if f.words == nil {
		f.words = make([]uint64, maxFilterBits/64)
	}
	b := filterHash(node, kind, index) & uint64(len(f.words)*64-1)
	f.words[b>>6] |= 1 << (b & 63)
}

func (f *tensorFilter) has(node, kind string, index int64) bool {
	if f.words == nil {
		return false
	}
	b := filterHash(node, kind, index) & uint64(len(f.words)*64-1)
	return f.words[b>>6]&(1<<(b&63)) != 0
}

// tensorIndex finds a static graph's offsets by tensor (node, kind, index):
// an open-addressing hash table (linear probing) of references to the rows,
// rather than a Go map of tensor keys, which allocated several times the
// rows' own size for a graph of 10^5 rows and hashes and compares strings
// on every probe (slow in WebAssembly). Each slot holds a position in refs,
// whose 64-bit hash is kept beside it: a probe compares the tensors
// themselves only when the whole hash is equal, and a collision costs time,
// never a wrong answer.
type tensorIndex struct {
	graphs []*model.Graph
	refs   []tensorRef // in insertion order
	hashes []uint64    // hash of refs[i]
	slots  []int32     // 1 + position in refs; 0 = empty
	hash   func(node, kind string, index int64) uint64
}

// tensorRef is a row of graphs[g]: Rows[i], or Reassign[^i] when i < 0.
type tensorRef struct{ g, i int32 }

// newTensorIndex indexes the rows of graphs whose tensor want may hold
// (all of them when want is nil), hashing tensors with hash (hashTensor;
// tests pass weak ones to force collisions). Per graph, its continuous
// lines come first, last printed first: they are where GE really placed
// members of a continuous block; then every [IMAS]Set row in print order.
func newTensorIndex(graphs []*model.Graph, want *tensorFilter, hash func(node, kind string, index int64) uint64) *tensorIndex {
	x := &tensorIndex{graphs: graphs, hash: hash}
	for gi, g := range graphs {
		for i := len(g.Reassign) - 1; i >= 0; i-- {
			if a := &g.Reassign[i]; want == nil || want.has(a.Node, a.Kind, a.Index) {
				x.refs = append(x.refs, tensorRef{int32(gi), ^int32(i)})
			}
		}
		for i := range g.Rows {
			if a := &g.Rows[i]; want == nil || want.has(a.Node, a.Kind, a.Index) {
				x.refs = append(x.refs, tensorRef{int32(gi), int32(i)})
			}
		}
	}
	size := 1
	for size < 2*len(x.refs) {
		size <<= 1
	}
	x.slots = make([]int32, size)
	x.hashes = make([]uint64, len(x.refs))
	mask := uint64(size - 1)
	for p, r := range x.refs {
		h := hash(x.tensor(r))
		x.hashes[p] = h
		// Rows are never removed, so the rows of one tensor lie on its
		// probe sequence in insertion order.
		j := h & mask
		for x.slots[j] != 0 {
			j = (j + 1) & mask
		}
		x.slots[j] = int32(p + 1)
	}
	return x
}

// hashTensor hashes a tensor for tensorIndex: a seeded string hash of the
// node, the kind's length and first byte (kinds are a few words, "output",
// "workspace", "input", told apart by those; equal hashes are checked
// anyway), and the index, mixed by the murmur3 finalizer. Hashing the kind
// as a string too took a third of the index's time.
func hashTensor(node, kind string, index int64) uint64 {
	h := maphash.String(tensorSeed, node) ^ uint64(len(kind))<<56
	if kind != "" {
		h ^= uint64(kind[0]) << 48
	}
	return mix64(h ^ uint64(index))
}

// tensorSeed is random per process; the index's results do not depend on
// the hash, only its internal order does.
var tensorSeed = maphash.MakeSeed()

// mix64 is the murmur3 64-bit finalizer: a bijection that spreads every
// input bit over the output.
func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

func (x *tensorIndex) tensor(r tensorRef) (node, kind string, index int64) {
	g := x.graphs[r.g]
	if r.i < 0 {
		a := &g.Reassign[^r.i]
		return a.Node, a.Kind, a.Index
	}
	a := &g.Rows[r.i]
	return a.Node, a.Kind, a.Index
}

func (x *tensorIndex) offsetOf(r tensorRef) int64 {
	if r.i < 0 {
		return x.graphs[r.g].Reassign[^r.i].Offset
	}
	return x.graphs[r.g].Rows[r.i].Offset
}

// offset returns the compile-time offset of tensor (node, kind, index): the
// first one indexed, or off itself when the tensor was printed at several
// offsets (in-place rows) and off is one of them.
func (x *tensorIndex) offset(node, kind string, index, off int64) (int64, bool) {
	h := x.hash(node, kind, index)
	mask := uint64(len(x.slots) - 1)
	want, found := int64(0), false
	for j := h & mask; x.slots[j] != 0; j = (j + 1) & mask {
		p := x.slots[j] - 1
		if x.hashes[p] != h {
			continue
		}
		r := x.refs[p]
		if n, k, ix := x.tensor(r); ix != index || n != node || k != kind {
			continue // another tensor with the same hash
		}
		o := x.offsetOf(r)
		if !found {
			want, found = o, true
		}
		if o == off {
			return off, true
		}
	}
	return want, found
}

// MapRegions ties each graph region to the static graph whose offsets it
// holds (Region.Graph). GE names graphs differently by generation, so the
// rules are, for the process's graphs of the region's memory type:
//  1. a graph named "<name>_<graph id>" (GE 2025+ GraphNameId) whose size
//     fits the region;
//  2. the graph compiled most recently before the region was logged (GE
//     compiles then loads each graph) if its size fits;
//  3. the only graph whose size fits;
//  4. the only graph named "<name>_<graph id>", whatever its size.
//
// A size fits when the region is the graph's memory_size, that minus its
// zero-copy part (GE's zero-copy reuse mode), or its size after appended
// workspace. Regions matching none of the rules stay unmapped, and their
// addresses are checked against the region only.
func MapRegions(rep *model.Report) {
	// The graphs of each process and memory type, indexed by the region
	// sizes they fit, the graph id their name ends with and their name:
	// a run of 10^5 small graphs logs as many regions.
	type class struct {
		pid string
		mt  int64
	}
	type index struct {
		byID   map[string][]int // "<name>_<id>" graphs by id, in report order
		byName map[string]int
		// per fitting size, the graphs not yet taken by a region: how
		// many, and the xor of their positions + 1 (the position of the
		// only one when there is one)
		free    map[int64]int
		freeXor map[int64]int
	}
	classes := map[class]*index{}
	for i, g := range rep.Graphs {
		k := class{g.PID, g.MemType}
		x := classes[k]
		if x == nil {
			x = &index{byID: map[string][]int{}, byName: map[string]int{}, free: map[int64]int{}, freeXor: map[int64]int{}}
			classes[k] = x
		}
		base := baseName(g.Graph)
		if u := strings.LastIndexByte(base, '_'); u >= 0 {
			x.byID[base[u+1:]] = append(x.byID[base[u+1:]], i)
		}
		x.byName[g.Graph] = i
		for _, size := range fitSizes(g) {
			x.free[size]++
			x.freeXor[size] ^= i + 1
		}
	}
	taken := make([]bool, len(rep.Graphs))
	for i := range rep.Regions {
		r := &rep.Regions[i]
		r.Graph = ""
		if r.GraphID < 0 || r.Type != "F" {
			continue
		}
		x := classes[class{r.PID, staticMemType(r)}]
		if x == nil {
			continue
		}
		// The id has no '_', so "ends with _<id>" is "its last '_' is
		// followed by <id>".
		named := x.byID[strconv.FormatInt(r.GraphID, 10)]
		pick := -1
		for _, g := range named {
			if fits(rep.Graphs[g], r.Size) {
				pick = g
			}
		}
		if g, ok := x.byName[r.Hint]; pick < 0 && ok && fits(rep.Graphs[g], r.Size) {
			pick = g
		}
		if pick < 0 && x.free[r.Size] == 1 {
			pick = x.freeXor[r.Size] - 1
		}
		if pick < 0 && len(named) == 1 {
			pick = named[0]
		}
		if pick < 0 {
			continue
		}
		if g := rep.Graphs[pick]; !taken[pick] {
			taken[pick] = true
			for _, size := range fitSizes(g) {
				x.free[size]--
				x.freeXor[size] ^= pick + 1
			}
		}
		r.Graph = rep.Graphs[pick].Graph
	}
}

// fitSizes lists the region sizes g fits (fits), each once.
func fitSizes(g *model.Graph) []int64 {
	sizes := make([]int64, 0, 3)
	add := func(s int64) {
		for _, o := range sizes {
			if o == s {
				return
			}
		}
		sizes = append(sizes, s)
	}
	add(g.MemorySize)
	add(g.MemorySize - g.ZeroCopy)
	if g.AppendWs != nil {
		add(g.AppendWs.LastSize)
	}
	return sizes
}

func fits(g *model.Graph, size int64) bool {
	if size == g.MemorySize || size == g.MemorySize-g.ZeroCopy {
		return true
	}
	return g.AppendWs != nil && g.AppendWs.LastSize == size
}

// baseName drops the "#n" recompilation suffix of a graph instance.
func baseName(g string) string {
	if i := strings.LastIndexByte(g, '#'); i > 0 {
		return g[:i]
	}
	return g
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
