package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"imas/core/model"
)

// CheckAddresses checks every operator address against its region
// (report-contract §5: an address of graph_<id> must lie in [base,
// base+size) of the region of its memory class) and reconciles address −
// base with the compile-time offset of the same tensor. It fills the
// report's address checks and returns one diagnostic per finding.
func CheckAddresses(rep *model.Report) []model.Diagnostic {
	MapRegions(rep)
	offsets := map[staticKey]*tensorIndex{}
	var diags []model.Diagnostic
	for i := range rep.AddressChecks {
		ac := &rep.AddressChecks[i]
		ac.Checked, ac.Reconciled, ac.Invalid, ac.Mismatches = 0, 0, []model.BadAddress{}, nil
		for j := range ac.Rows {
			r := &ac.Rows[j]
			switch {
			case r.Status == "null" || r.Status == "failed": // set by the builder
				continue
			case r.Region == 0 || r.MemAddr == "":
				r.Status = "unchecked"
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
				diags = append(diags, model.Diagnostic{Path: r.Path, Line: r.Line, Reason: "invalid-address",
					Detail: fmt.Sprintf("graph_%d %s: %s is outside the %s region [%s, +%d)",
						ac.GraphID, model.TensorKey(r.Name, r.Kind, r.Index), r.MemAddr, reg.Type, reg.Base, reg.Size)})
			}
			want, from := int64(0), ""
			if reg.Graph != "" {
				sk := staticKey{reg.PID, reg.Graph, staticMemType(reg)}
				m, ok := offsets[sk]
				if !ok {
					m = staticOffsets(rep, sk)
					offsets[sk] = m
				}
				if w, ok := m.offset(tensorKey{r.Name, r.Kind, r.Index}, off); ok {
					want, from = w, "static"
					ac.Reconciled++
				}
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
				diags = append(diags, model.Diagnostic{Path: r.Path, Line: r.Line, Reason: "address-offset-mismatch",
					Detail: fmt.Sprintf("graph_%d %s: address − base = %d, compile-time offset (%s) = %d",
						ac.GraphID, model.TensorKey(r.Name, r.Kind, r.Index), off, from, want)})
			}
		}
	}
	return diags
}

type staticKey struct {
	pid, graph string
	memtype    int64
}

type tensorKey struct {
	node, kind string
	index      int64
}

// staticMemType is the static graph memory type whose offsets a region
// holds: the region's mem_type when printed, HBM otherwise.
func staticMemType(r *model.Region) int64 {
	if r.MemType > 0 {
		return r.MemType
	}
	return 2
}

// staticOffsets indexes the compile-time offsets of a static graph's
// tensors: the [IMAS]Set row's block offset, or, for members of a continuous
// block, the offset of their (last) continuous line, which is where GE
// really placed them.
func staticOffsets(rep *model.Report, k staticKey) *tensorIndex {
	x := &tensorIndex{}
	for _, g := range rep.Graphs {
		if g.PID != k.pid || g.Graph != k.graph || g.MemType != k.memtype {
			continue
		}
		gi := int32(len(x.graphs))
		x.graphs = append(x.graphs, g)
		// Continuous lines first: they are where GE really placed members
		// of a continuous block; then every [IMAS]Set offset of the tensor.
		for i := len(g.Reassign) - 1; i >= 0; i-- {
			x.refs = append(x.refs, tensorRef{gi, ^int32(i), int32(len(x.refs))})
		}
		for i := range g.Rows {
			x.refs = append(x.refs, tensorRef{gi, int32(i), int32(len(x.refs))})
		}
	}
	slices.SortFunc(x.refs, func(a, b tensorRef) int { return cmp.Or(x.compare(x.key(a), b), cmp.Compare(a.pos, b.pos)) })
	return x
}

// tensorIndex finds a static graph's offsets by tensor. It is a sorted list
// of references to the rows rather than a map: a region's graph can hold
// 10^5 rows and a map of them allocated several times the rows' own size.
type tensorIndex struct {
	graphs []*model.Graph
	refs   []tensorRef // sorted by tensor, in insertion order within one
}

// tensorRef is a row of graphs[g]: Rows[i], or Reassign[^i] when i < 0;
// pos is its place in insertion order.
type tensorRef struct{ g, i, pos int32 }

func (x *tensorIndex) key(r tensorRef) (k tensorKey) {
	g := x.graphs[r.g]
	if r.i < 0 {
		a := &g.Reassign[^r.i]
		return tensorKey{a.Node, a.Kind, a.Index}
	}
	a := &g.Rows[r.i]
	return tensorKey{a.Node, a.Kind, a.Index}
}

func (x *tensorIndex) offsetOf(r tensorRef) int64 {
	if r.i < 0 {
		return x.graphs[r.g].Reassign[^r.i].Offset
	}
	return x.graphs[r.g].Rows[r.i].Offset
}

// compare orders k against the tensor of r.
func (x *tensorIndex) compare(k tensorKey, r tensorRef) int {
	o := x.key(r)
	if c := strings.Compare(k.node, o.node); c != 0 {
		return c
	}
	if c := strings.Compare(k.kind, o.kind); c != 0 {
		return c
	}
	return cmp.Compare(k.index, o.index)
}

// offset returns the compile-time offset of tensor k: the first one
// indexed, or off itself when the tensor was printed at several offsets
// (in-place rows) and off is one of them.
func (x *tensorIndex) offset(k tensorKey, off int64) (int64, bool) {
	lo, found := slices.BinarySearchFunc(x.refs, k, func(r tensorRef, k tensorKey) int { return -x.compare(k, r) })
	if !found {
		return 0, false
	}
	want := x.offsetOf(x.refs[lo])
	for _, r := range x.refs[lo:] {
		if x.compare(k, r) != 0 {
			break
		}
		if x.offsetOf(r) == off {
			return off, true
		}
	}
	return want, true
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
	byPID := map[string][]*model.Graph{}
	for _, g := range rep.Graphs {
		byPID[g.PID] = append(byPID[g.PID], g)
	}
	taken := map[*model.Graph]bool{}
	for i := range rep.Regions {
		r := &rep.Regions[i]
		r.Graph = ""
		if r.GraphID < 0 || r.Type != "F" {
			continue
		}
		mt := staticMemType(r)
		var named, fitting []*model.Graph
		var hinted *model.Graph
		suffix := "_" + strconv.FormatInt(r.GraphID, 10)
		for _, g := range byPID[r.PID] {
			if g.MemType != mt {
				continue
			}
			fit := fits(g, r.Size)
			if strings.HasSuffix(baseName(g.Graph), suffix) {
				named = append(named, g)
			}
			if fit && !taken[g] {
				fitting = append(fitting, g)
			}
			if g.Graph == r.Hint && fit {
				hinted = g
			}
		}
		var pick *model.Graph
		for _, g := range named {
			if fits(g, r.Size) {
				pick = g
			}
		}
		switch {
		case pick != nil:
		case hinted != nil:
			pick = hinted
		case len(fitting) == 1:
			pick = fitting[0]
		case len(named) == 1:
			pick = named[0]
		default:
			continue
		}
		taken[pick] = true
		r.Graph = pick.Graph
	}
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
