package model

import (
	"slices"
	"sort"

	"imas/core/gelog"
)

// Regions and operator addresses (docs/figures.md#regions). Each address line is
// tied to the latest region of its graph and memory class logged before it
// (a reloaded model gets a new region); lines logged before any region of
// their graph take the graph's last region. The validity and offset checks
// run in the analyze package.

type addrState struct {
	cur    map[regionKey]int // latest region (index in Report.Regions)
	checks map[addrKey]*AddressCheck
	order  []*AddressCheck
	// With Builder.AddrSpill: the checks holding rows in memory, and how
	// many rows they hold.
	held     []*AddressCheck
	heldRows int
	// userMem: processes that loaded a model into user memory.
	userMem map[int64]bool
}

type regionKey struct {
	pid, gid int64
	class    string
}

type addrKey struct{ pid, gid int64 }

func (s *addrState) init() {
	s.cur = map[regionKey]int{}
	s.checks = map[addrKey]*AddressCheck{}
	s.userMem = map[int64]bool{}
}

// RegionClass is the address type letter of model_utils' NodeMemInfo
// that lies in a region: F for HBM and the other device types (the
// session-scope bit falls to the default), P for P2P, H for host, S for
// host SVM; W and V regions keep their own letter.
func RegionClass(typ string, memtype int64) string {
	if typ != "F" {
		return typ
	}
	switch memtype & 0xffffffff {
	case 16, 17: // RT_MEMORY_P2P_HBM, RT_MEMORY_P2P_DDR
		return "P"
	case 129: // RT_MEMORY_HOST
		return "H"
	case 144: // RT_MEMORY_HOST_SVM
		return "S"
	}
	return "F"
}

// addressClass is the region class an address type is checked against:
// its own for the feature-map classes, the weight region (W) for
// constants (C), the variable region (V) for variables; "" for L1, which
// is on chip.
func addressClass(typ string) string {
	switch typ {
	case "F", "P", "H", "S", "V":
		return typ
	case "C":
		return "W"
	}
	return ""
}

// anyGraph is the graph id of a process-wide region key: variables belong
// to the session, so a variable address of a graph without its own V
// region is checked against the process's latest one.
const anyGraph = -2

func (b *Builder) addRegion(r *gelog.Region) {
	s := &b.o().addr
	b.o().mall.seeDevice(r.PID, r.Device)
	if b.figuresOnly() {
		return // regions serve the address checks and report.json only
	}
	if r.Release {
		for i := len(b.R.Regions) - 1; i >= 0; i-- {
			g := &b.R.Regions[i]
			if g.PID == pidString(r.PID) && g.Type == "V" && g.Addr == r.Base && !g.Released {
				g.Released = true
				break
			}
		}
		return
	}
	reg := Region{PID: pidString(r.PID), GraphID: r.GraphID, Type: r.Type, Base: hexAddr(r.Base), Size: r.Size,
		Line: r.Line, Statement: r.Statement, File: r.File, Addr: r.Base}
	if r.MemType > 0 {
		reg.MemType = r.MemType
	}
	if in := b.lastInst[r.PID]; in != nil && r.GraphID >= 0 {
		reg.Hint = in.inst
	}
	b.R.Regions = append(b.R.Regions, reg)
	c := regionClassOf(&reg)
	s.cur[regionKey{r.PID, r.GraphID, c}] = len(b.R.Regions) - 1
	if c == "V" {
		s.cur[regionKey{r.PID, anyGraph, c}] = len(b.R.Regions) - 1
	}
}

// regionClassOf is the class of addresses a region holds. The virtual
// address range that ReserveVirtualMemory reserves for an expandable pool
// is a V region too, but holds no variables: it checks no address.
func regionClassOf(g *Region) string {
	if g.Statement == "ReserveVirtualMemory" {
		return "reserved"
	}
	return RegionClass(g.Type, g.MemType)
}

func (b *Builder) addUserMemoryLoad(r *gelog.UserMemoryLoad) {
	b.o().addr.userMem[r.PID] = true
}

func (b *Builder) addAddress(r *gelog.OpAddress) {
	s := &b.o().addr
	if b.figuresOnly() {
		return // the address checks are not run
	}
	k := addrKey{r.PID, r.GraphID}
	ac := s.checks[k]
	if ac == nil {
		ac = &AddressCheck{PID: pidString(r.PID), GraphID: r.GraphID, Invalid: []BadAddress{}, Rows: []AddrRow{}}
		s.checks[k] = ac
		s.order = append(s.order, ac)
	}
	if b.SummaryOnly {
		return
	}
	region := 0
	if c := addressClass(r.Type); c != "" {
		if i, ok := s.cur[regionKey{r.PID, r.GraphID, c}]; ok {
			region = i + 1
		} else if i, ok := s.cur[regionKey{r.PID, anyGraph, c}]; ok {
			region = i + 1
		}
	}
	// append's growth, not nextSlot's (16 rows at least): a run of small
	// graphs logs a few addresses per graph and keeps every list to the end.
	n := len(ac.Rows)
	ac.Rows = slices.Grow(ac.Rows, 1)[:n+1]
	w := &ac.Rows[n]
	setAddrRow(w, r, b.Intern(r.Name), b.Intern(r.OpType), b.Path(r.File), region)
	if b.AddrSpill != nil {
		b.holdAddrRow(ac)
	}
}

// setAddrRow stores the address row of r in w, field by field, as setRow
// does for Set rows (no bulk write barrier for a copy while the collector
// marks). Every field is set: w may hold an older row.
func setAddrRow(w *AddrRow, r *gelog.OpAddress, name, opType, path string, region int) {
	w.Statement, w.Type, w.Name, w.OpType = r.Statement, r.Type, name, opType
	w.Kind, w.Variant, w.Index, w.Offset, w.Size, w.OM2 = r.Kind, r.Variant, r.Index, r.Offset, r.Size, r.OM2
	w.Line, w.File, w.Path, w.Region = r.Line, r.File, path, region
	w.DataSize, w.Addr, w.MemAddr, w.Status, w.Why = 0, 0, "", "", ""
	if r.DataSize >= 0 {
		w.DataSize = r.DataSize
	}
	if r.HasAddr {
		w.Addr, w.MemAddr = r.Addr, hexAddr(r.Addr)
	}
	switch {
	case r.Failed:
		w.Status = "failed"
	case r.Null:
		w.Status = "null"
	}
}

func (b *Builder) finishAddresses() {
	s := &b.o().addr
	r := b.R
	// Regions by pid (records of several files interleave by time); rows
	// keep pointing at the same region.
	perm := make([]int, len(r.Regions))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(i, j int) bool { return pidLess(r.Regions[perm[i]].PID, r.Regions[perm[j]].PID) })
	moved := make([]int, len(perm))
	regions := make([]Region, len(perm))
	for to, from := range perm {
		regions[to] = r.Regions[from]
		moved[from] = to
	}
	r.Regions = regions
	last := map[regionKey]int{}
	for i := range r.Regions {
		g := &r.Regions[i]
		c := regionClassOf(g)
		last[regionKey{pidInt(g.PID), g.GraphID, c}] = i
		if c == "V" {
			last[regionKey{pidInt(g.PID), anyGraph, c}] = i
		}
	}
	fix := &regionFix{moved: moved, last: last}
	r.AddressChecks = make([]AddressCheck, 0, len(s.order))
	for _, ac := range s.order {
		ac.UserMemory = s.userMem[pidInt(ac.PID)]
		fix.apply(ac, ac.Rows)
		if len(ac.moved) > 0 {
			// The rows in the store are renumbered as they are read back.
			r.addrStore, r.addrFix = b.AddrSpill, fix
		}
		r.AddressChecks = append(r.AddressChecks, *ac)
	}
	s.held, s.order, s.checks = nil, nil, nil
	sort.SliceStable(r.AddressChecks, func(i, j int) bool {
		return pidLess(r.AddressChecks[i].PID, r.AddressChecks[j].PID)
	})
}
