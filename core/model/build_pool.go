package model

import (
	"sort"

	"imas/core/gelog"
)

// RT2 pools (docs/figures.md#pools). An allocation belongs to the allocator
// named by the [allocator_N] tag of its "Malloc block" line (joined on
// thread and address), else to the allocator of the thread's most recent
// "create caching memory allocator" line. A Free trace frees the live
// allocation at its address in the same process. Allocations are rows with
// Begin/End on the pool's allocation clock; the figures are computed by
// the analyze package.

// UnknownAllocator holds allocations no create line or tag explains.
const UnknownAllocator = "unknown"

type poolKey struct {
	pid   int64
	alloc string
}

// poolAcc is the builder's view of one pool.
type poolAcc struct {
	p       *Pool
	pid     int64
	clock   int64          // allocations so far
	lastRow map[uint64]int // address → last row (its Begin), for "Free block"
	// rows: the pool has allocation rows (not a summary build)
	rows bool

	pageBytes int64 // Σ page-caching mallocs on the pool's thread
	physLive  int64 // live physical pages (expandable allocator)
	physPeak  int64
	pageUnit  int64 // physical page size
}

type poolState struct {
	pools  map[poolKey]*poolAcc
	last   *poolAcc // the pool poolAcc returned last: a log names the same pool line after line
	order  []*poolAcc
	ctx    map[thread]string // thread → allocator of its latest create line
	blocks map[blockKey]blockInfo
	live   map[ptrKey]liveRef
	pages  map[int64][]pageRange // pid → page-caching mallocs sorted by base
	// addrText holds the printed form of each block address: pools hand
	// the same few addresses out again and again.
	addrText map[uint64]string
	// poolFreed holds the allocations a "Free block" line ended while no
	// kernel trace had freed them: a kernel Free that follows at the
	// address is the same free, not an unmatched one.
	poolFreed map[ptrKey]liveRef
}

type blockKey struct {
	pid, tid int64
	addr     uint64
}

type blockInfo struct {
	tag              string
	alloc, size, dev int64
}

// liveRef is a live allocation: its row's Begin (-1 without rows) and
// its sizes.
type liveRef struct {
	acc        *poolAcc
	row        int
	size, real int64
}

type pageRange struct {
	base uint64
	size int64
}

func (s *poolState) init() {
	s.pools = map[poolKey]*poolAcc{}
	s.ctx = map[thread]string{}
	s.blocks = map[blockKey]blockInfo{}
	s.live = map[ptrKey]liveRef{}
	s.poolFreed = map[ptrKey]liveRef{}
	s.pages = map[int64][]pageRange{}
	s.addrText = map[uint64]string{}
}

// addrString is hexAddr(a), formatted once per address.
func (s *poolState) addrString(a uint64) string {
	t, ok := s.addrText[a]
	if !ok {
		t = hexAddr(a)
		s.addrText[a] = t
	}
	return t
}

// poolAcc returns the pool (pid, alloc), creating it.
func (b *Builder) poolAcc(pid int64, alloc string) *poolAcc {
	s := &b.o().pool
	if a := s.last; a != nil && a.pid == pid && a.p.Allocator == alloc {
		return a
	}
	k := poolKey{pid, alloc}
	a := s.pools[k]
	if a == nil {
		a = &poolAcc{p: &Pool{PID: pidString(pid), Allocator: alloc, Device: -1, Rows: []PoolRow{}, TopAddresses: []PoolAddr{}},
			lastRow: map[uint64]int{}, pid: pid}
		switch {
		case b.SummaryOnly:
			// A summary needs the pool's figures, not its allocations:
			// keep the live set and per-address sums instead of rows.
			a.p.Streamed = &PoolStream{addrIndex: map[uint64]int{}}
		case b.PoolRows != nil:
			// The figures are counted as for a summary, so that the rows
			// can move to the store as they age instead of being kept
			// for analyze.PoolFigures.
			a.p.Streamed = &PoolStream{addrIndex: map[uint64]int{}}
			a.p.moved = &poolMoved{store: b.PoolRows}
			a.rows = true
		default:
			a.rows = true
		}
		s.pools[k] = a
		s.order = append(s.order, a)
	}
	s.last = a
	return a
}

// poolOfThread is the pool of the thread's latest create line, or nil.
func (b *Builder) poolOfThread(th thread) *poolAcc {
	if alloc, ok := b.o().pool.ctx[th]; ok {
		return b.poolAcc(th.pid, alloc)
	}
	return nil
}

func (b *Builder) addPoolCreate(r *gelog.PoolCreate) {
	b.o().pool.ctx[thread{r.PID, r.TID}] = r.Allocator
	b.poolAcc(r.PID, r.Allocator)
}

func (b *Builder) addPoolBlock(r *gelog.PoolBlock) {
	s := &b.o().pool
	b.o().mall.seeDevice(r.PID, r.Device)
	if !r.Free {
		s.blocks[blockKey{r.PID, r.TID, r.Addr}] = blockInfo{tag: r.Allocator, alloc: r.AllocSize, size: r.Size, dev: r.Device}
		return
	}
	// A pool-level free: mark the latest allocation at that address. Only
	// known pools: an L1 (rts) pool's free has no allocation rows.
	var acc *poolAcc
	if a := s.last; r.Allocator != "" && a != nil && a.pid == r.PID && a.p.Allocator == r.Allocator {
		acc = a
	} else if r.Allocator != "" {
		acc = s.pools[poolKey{r.PID, r.Allocator}]
	} else {
		acc = b.poolOfThread(thread{r.PID, r.TID})
	}
	if acc == nil {
		return
	}
	// The pool taking a block back frees it even when no kernel trace
	// did: a model output handed to the caller is freed when its tensor
	// is, and only the pool logs that.
	k := ptrKey{r.PID, r.Addr}
	ref, live := s.live[k]
	live = live && ref.acc == acc
	if !acc.rows {
		if live {
			acc.p.Streamed.free(ref)
			delete(s.live, k)
			s.poolFreed[k] = ref
		}
		return
	}
	// The allocation live at the address is the pool's last one there.
	if i, ok := acc.lastRow[r.Addr]; ok {
		pt := poolPatch{begin: int64(i), set: patchPoolFree}
		if live && ref.row == i {
			pt.set |= patchEnd
			pt.end, pt.freeTime = acc.clock, r.Time
			if st := acc.p.Streamed; st != nil {
				st.free(ref)
			}
			delete(s.live, k)
			s.poolFreed[k] = ref
		}
		acc.p.change(pt)
	}
}

// free counts the free of a live allocation.
func (st *PoolStream) free(ref liveRef) {
	st.Live -= ref.size
	st.LiveRequested -= ref.real
	st.KernelFrees++
}

func (b *Builder) addPoolAlloc(r *gelog.PoolAlloc) {
	s := &b.o().pool
	th := thread{r.PID, r.TID}
	bk := blockKey{r.PID, r.TID, r.Addr}
	bi, hasBlock := s.blocks[bk]
	delete(s.blocks, bk)
	delete(s.poolFreed, ptrKey{r.PID, r.Addr})
	alloc := bi.tag
	if alloc == "" {
		alloc = s.ctx[th]
	}
	if alloc == "" {
		alloc = UnknownAllocator
	}
	acc := b.poolAcc(r.PID, alloc)
	size, real := r.Size, r.TensorSize
	switch {
	case r.Requested():
		// Batch kernels print the requested size: the block is the span the
		// pool handed out, or the pool's 64 KiB rounding when not logged.
		real = r.Size
		if hasBlock && bi.alloc > 0 {
			size = bi.alloc
		} else {
			size = alignPoolBlock(r.Size)
		}
	case real < 0 && hasBlock:
		real = bi.size
	case real < 0:
		real = size
	}
	if hasBlock && bi.dev >= 0 {
		acc.p.Device = bi.dev
	}
	st := acc.p.Streamed
	if st != nil {
		streamPoolAlloc(acc, st, r, size, real)
	}
	ref := liveRef{acc: acc, row: -1, size: size, real: real}
	if acc.rows {
		// Kernel names are unique per allocation; nodes and block addresses
		// repeat. Rows that move to a store keep their node as parsed: the
		// intern table would hold every node name of the run.
		node := r.Node
		if acc.p.moved == nil {
			node = b.Intern(node)
		}
		row := PoolRow{Kernel: r.Kernel, Node: node, Stream: r.Stream, Address: s.addrString(r.Addr),
			Size: size, RealSize: real, Begin: acc.clock, End: LifeMax, Cached: s.pageOf(r.PID, r.Addr),
			Time: r.Time, Line: r.Line, Addr: r.Addr}
		if st != nil {
			row.Theory = st.Live // what analyze.PoolFigures sets from the rows
		}
		ref.row = int(acc.clock)
		acc.lastRow[r.Addr] = ref.row
		acc.p.Rows = append(acc.p.Rows, row)
		acc.p.moveOldRows()
	}
	acc.clock++
	s.live[ptrKey{r.PID, r.Addr}] = ref
}

// streamPoolAlloc counts one allocation of a streamed pool the way
// analyze.PoolFigures counts a row: live bytes just after it (frees between
// two allocations come before the second), and its address's sums.
func streamPoolAlloc(acc *poolAcc, st *PoolStream, r *gelog.PoolAlloc, size, real int64) {
	p := acc.p
	p.Allocs++
	p.Total += size
	p.Requested += real
	st.Live += size
	st.LiveRequested += real
	p.PeakLive = max(p.PeakLive, st.Live)
	p.PeakRequested = max(p.PeakRequested, st.LiveRequested)
	i, ok := st.addrIndex[r.Addr]
	if !ok {
		i = len(st.Addresses)
		st.addrIndex[r.Addr] = i
		// Printed only if it makes the top addresses (analyze.PoolFigures):
		// a busy pool hands out many more addresses than are printed.
		st.Addresses = append(st.Addresses, PoolAddr{Addr: r.Addr})
	}
	a := &st.Addresses[i]
	a.Allocs++
	a.Bytes += size
	a.MaxSize = max(a.MaxSize, size)
}

// alignPoolBlock is the RT2 pool's block rounding: 64 KiB pages.
func alignPoolBlock(n int64) int64 {
	const page = 64 << 10
	if n < page {
		return page
	}
	return (n + page - 1) / page * page
}

func (b *Builder) addPoolFree(r *gelog.PoolFree) {
	s := &b.o().pool
	k := ptrKey{r.PID, r.Addr}
	if ref, ok := s.live[k]; ok {
		if st := ref.acc.p.Streamed; st != nil {
			st.free(ref)
		}
		if ref.row >= 0 {
			ref.acc.p.change(poolPatch{begin: int64(ref.row), set: patchEnd | patchKernelFree, end: ref.acc.clock, freeTime: r.Time})
		}
		delete(s.live, k)
		return
	}
	if ref, ok := s.poolFreed[k]; ok {
		if ref.row >= 0 {
			ref.acc.p.change(poolPatch{begin: int64(ref.row), set: patchKernelFree})
		}
		delete(s.poolFreed, k)
		return
	}
	acc := b.poolOfThread(thread{r.PID, r.TID})
	if acc == nil {
		acc = b.poolAcc(r.PID, UnknownAllocator)
	}
	acc.p.UnmatchedFrees++
}

func (b *Builder) addPoolDetails(r *gelog.PoolDetails) {
	var acc *poolAcc
	if r.Allocator != "" {
		acc = b.poolAcc(r.PID, r.Allocator)
	} else if acc = b.poolOfThread(thread{r.PID, r.TID}); acc == nil {
		return // no pool to attach it to
	}
	// The 2023 short form follows each page-caching malloc of its pool:
	// those pages are the pool's unit.
	th := thread{r.PID, r.TID}
	if size, ok := b.o().mall.lastPage[th]; ok && r.NewVASize < 0 {
		if acc.pageUnit == 0 || size < acc.pageUnit {
			acc.pageUnit = size
		}
		delete(b.o().mall.lastPage, th)
	}
	if d := acc.p.Details; d != nil && d.TotalSize > r.TotalSize {
		return // keep the largest footprint
	}
	acc.p.Details = &PoolDetails{AllocCount: r.AllocCount, FreeCount: r.FreeCount, TotalSize: r.TotalSize,
		NewVASize: r.NewVASize, RealTheoryMin: r.RealTheoryMin, TheoryMin: r.TheoryMin, Rate: r.Rate}
}

// addPage remembers a page-caching malloc for the blocks' cached_size.
func (s *poolState) addPage(pid int64, base uint64, size int64) {
	rs := s.pages[pid]
	i := sort.Search(len(rs), func(i int) bool { return rs[i].base >= base })
	rs = append(rs, pageRange{})
	copy(rs[i+1:], rs[i:])
	rs[i] = pageRange{base, size}
	s.pages[pid] = rs
}

// pageOf returns the size of the page-caching malloc holding addr, or 0.
func (s *poolState) pageOf(pid int64, addr uint64) int64 {
	rs := s.pages[pid]
	i := sort.Search(len(rs), func(i int) bool { return rs[i].base > addr }) - 1
	if i >= 0 && addr-rs[i].base < uint64(rs[i].size) {
		return rs[i].size
	}
	return 0
}

// finishPools lists the pools (by pid, then creation order) and sets what
// each held from the device.
func (b *Builder) finishPools() {
	s := &b.o().pool
	r := b.R
	r.Pools = make([]*Pool, 0, len(s.order))
	for _, a := range s.order {
		p := a.p
		p.finishMoved()
		switch {
		case p.Details != nil && p.Details.TotalSize > 0:
			p.Physical, p.PhysicalFrom = p.Details.TotalSize, "print-details"
		case a.physPeak > 0:
			p.Physical, p.PhysicalFrom = a.physPeak+a.pageBytes, "physical-pages"
		case a.pageBytes > 0:
			p.Physical, p.PhysicalFrom = a.pageBytes, "page-caching"
		}
		switch {
		case a.pageUnit > 0:
			p.Unit = a.pageUnit
		case p.Physical > 0:
			p.Unit = 2 << 20 // the L1 pool's huge-page chunk
		}
		r.Pools = append(r.Pools, p)
	}
	sort.SliceStable(r.Pools, func(i, j int) bool { return pidLess(r.Pools[i].PID, r.Pools[j].PID) })
}
