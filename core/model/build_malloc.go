package model

import (
	"fmt"
	"sort"
	"strconv"

	"imas/core/diag"
	"imas/core/gelog"
)

// Device mallocs by category (docs/figures.md#device-malloc, docs/log-formats.md#device-mallocs).
//
// Every GE_PRINT line is kept in Report.Mallocs. A counted malloc adds its
// size to its (pid, device, category) total, except physical pages of the
// expandable allocators: they are recycled (a 48 MiB pool may log 21 pages
// of 8 MiB), so a category holds the peak of its live pages instead. A page
// is live from its GE_PRINT until "aclrtFreePhysical success" names its
// pa_index; the pa_index comes from the "rtMallocPhysical success" line that
// follows the GE_PRINT on the same thread.

type mallocState struct {
	lastAllocator map[thread]allocHint // MemoryAllocator::MallocMemory awaiting its GE_PRINT
	devices       map[int64]map[int64]bool
	policy        map[int64]int64 // pid → Final StaticMemoryPolicy
	total         map[int64]int64 // pid → "Total memory size is"

	pending map[thread]int // page GE_PRINT (index in Report.Mallocs) awaiting rtMallocPhysical
	pages   map[pageKey]livePage
	current map[physKey]int64 // running physical totals, to size pages logged without GE_PRINT
	live    map[catKey]int64
	peak    map[catKey]int64
	ptrs    map[ptrKey]int // page-caching mallocs by pointer, for RtMemAllocator::free
	// the thread's last page-caching malloc printed without its pointer
	// (2023), which DeviceAllocator::Alloc then names
	noPtr map[thread]int
	// size of the thread's last page-caching malloc: the 2023 PrintDetails
	// that follows it names its pool
	lastPage map[thread]int64
	freed    map[catKey]int64

	// (pid, device) pairs seeDevice recorded, one slot per pair modulo
	// its size: pool and address lines name them line after line, those
	// of several processes interleaved when their logs are merged
	seen [64]seenDevice

	// A figures-only build (Builder.figuresOnly) lists no malloc: it sums
	// the counted ones as they come, by (pid, device as logged,
	// category), in order of first appearance, and holds only the mallocs
	// that pending, ptrs or noPtr name (by index, as if listed).
	held       map[int]*Malloc
	next       int
	mallocPIDs map[int64]bool // the processes with a malloc
	sums       map[sumKey]*mallocSum
	sumOrder   []sumKey
}

type sumKey struct {
	pid string
	dev int64
	cat string
}

// mallocSum sums counted mallocs: count, bytes of those that are not
// physical pages (the category totals), size of all (MemoryPicture).
type mallocSum struct{ count, bytes, size int64 }

type allocHint struct{ device, size int64 }

type catKey struct {
	pid, dev int64
	cat      string
}

type pageKey struct {
	pid   int64
	pg    string
	index int64
}

type physKey struct {
	pid, memtype int64
	pg           string
}

type ptrKey struct {
	pid  int64
	addr uint64
}

type livePage struct {
	cat  catKey
	size int64
	pool *poolAcc
}

func (s *mallocState) init() {
	s.lastAllocator = map[thread]allocHint{}
	s.devices = map[int64]map[int64]bool{}
	s.policy = map[int64]int64{}
	s.total = map[int64]int64{}
	s.pending = map[thread]int{}
	s.pages = map[pageKey]livePage{}
	s.current = map[physKey]int64{}
	s.live = map[catKey]int64{}
	s.peak = map[catKey]int64{}
	s.ptrs = map[ptrKey]int{}
	s.noPtr = map[thread]int{}
	s.lastPage = map[thread]int64{}
	s.freed = map[catKey]int64{}
	s.held = map[int]*Malloc{}
	s.mallocPIDs = map[int64]bool{}
	s.sums = map[sumKey]*mallocSum{}
}

// keepMalloc lists m (or, figures-only, sums and holds it) and returns
// its index.
func (b *Builder) keepMalloc(m Malloc) int {
	if !b.figuresOnly() {
		b.R.Mallocs = append(b.R.Mallocs, m)
		return len(b.R.Mallocs) - 1
	}
	s := &b.o().mall
	idx := s.next
	s.next++
	s.mallocPIDs[pidInt(m.PID)] = true
	if m.Counted {
		k := sumKey{m.PID, m.DeviceID, m.Category}
		t := s.sums[k]
		if t == nil {
			t = &mallocSum{}
			s.sums[k] = t
			s.sumOrder = append(s.sumOrder, k)
		}
		t.count++
		t.size += m.Size
		if !m.Physical {
			t.bytes += m.Size
		}
	}
	s.held[idx] = &m
	return idx
}

// malloc returns the malloc of index idx, listed or held.
func (b *Builder) malloc(idx int) *Malloc {
	if !b.figuresOnly() {
		return &b.R.Mallocs[idx]
	}
	return b.o().mall.held[idx]
}

// holdIn names malloc idx in one of the maps of pending, ptrs and noPtr:
// a malloc is named in one of them at most, and a figures-only build holds
// it while it is.
func holdIn[K comparable](s *mallocState, names map[K]int, k K, idx int) {
	if old, ok := names[k]; ok && old != idx {
		delete(s.held, old)
	}
	names[k] = idx
}

// release drops malloc idx from a figures-only build once no map names it.
func (s *mallocState) release(idx int) { delete(s.held, idx) }

// seeDevice records that pid uses device dev.
func (s *mallocState) seeDevice(pid, dev int64) {
	if dev < 0 {
		return
	}
	slot := &s.seen[uint64(pid*31+dev)%uint64(len(s.seen))]
	if slot.ok && slot.pid == pid && slot.dev == dev {
		return
	}
	*slot = seenDevice{ok: true, pid: pid, dev: dev}
	if s.devices[pid] == nil {
		s.devices[pid] = map[int64]bool{}
	}
	s.devices[pid][dev] = true
}

type seenDevice struct {
	ok       bool
	pid, dev int64
}

func (b *Builder) addMalloc(r *gelog.DeviceMalloc) {
	s := &b.o().mall
	th := thread{r.PID, r.TID}
	dev := r.Device
	if h, ok := s.lastAllocator[th]; ok && dev < 0 && h.size == r.Size {
		// Old GE_PRINTs have no device_id; MemoryAllocator printed it just before.
		dev = h.device
	}
	delete(s.lastAllocator, th)
	s.seeDevice(r.PID, dev)
	m := Malloc{PID: pidString(r.PID), DeviceID: dev, Func: b.Intern(r.Func), Caller: b.Intern(r.Caller),
		Purpose: b.Intern(r.Purpose), Category: r.Category, Counted: r.Counted, Physical: r.Physical(),
		Size: r.Size, Time: r.Time, Line: r.Line, File: r.File}
	if r.HasPtr {
		m.Ptr = hexAddr(r.Ptr)
	}
	idx := b.keepMalloc(m)
	held := false // named in pending, ptrs or noPtr
	defer func() {
		if !held {
			s.release(idx)
		}
	}()
	if !r.Counted {
		return
	}
	pool := b.poolOfThread(th)
	if r.Category != gelog.CatMemoryPool {
		pool = nil
	}
	if m.Physical {
		if pool != nil {
			pool.pageUnit = r.Size
		}
		k := catKey{r.PID, dev, r.Category}
		b.physAdd(k, r.Size, pool)
		holdIn(s, s.pending, th, idx)
		held = true
		return
	}
	if r.Category == gelog.CatMemoryPool {
		if r.HasPtr {
			holdIn(s, s.ptrs, ptrKey{r.PID, r.Ptr}, idx)
			b.o().pool.addPage(r.PID, r.Ptr, r.Size)
		} else {
			holdIn(s, s.noPtr, th, idx)
		}
		held = true
		s.lastPage[th] = r.Size
		if pool != nil {
			pool.pageBytes += r.Size
		}
	}
}

// physAdd changes the live physical bytes of a category (and pool) and
// keeps their peaks.
func (b *Builder) physAdd(k catKey, delta int64, pool *poolAcc) {
	s := &b.o().mall
	s.live[k] += delta
	if s.live[k] > s.peak[k] {
		s.peak[k] = s.live[k]
	}
	if pool != nil {
		pool.physLive += delta
		pool.physPeak = max(pool.physPeak, pool.physLive)
	}
}

func (b *Builder) addPhysical(r *gelog.PhysicalPage) {
	s := &b.o().mall
	th := thread{r.PID, r.TID}
	pk := pageKey{r.PID, r.PageType, r.Index}
	if r.Free {
		if p, ok := s.pages[pk]; ok {
			b.physAdd(p.cat, -p.size, p.pool)
			delete(s.pages, pk)
		}
		return
	}
	ck := physKey{r.PID, r.MemType, r.PageType}
	prev := s.current[ck]
	s.current[ck] = r.Current
	if idx, ok := s.pending[th]; ok {
		m := b.malloc(idx)
		pool := b.poolOfThread(th)
		if m.Category != gelog.CatMemoryPool {
			pool = nil
		}
		s.pages[pk] = livePage{cat: catKey{r.PID, m.DeviceID, m.Category}, size: m.Size, pool: pool}
		delete(s.pending, th)
		s.release(idx)
		return
	}
	if r.Reuse {
		return // an existing page mapped again: no new memory
	}
	// A page without its GE_PRINT: size it from the running total.
	size := r.Current - prev
	if size <= 0 {
		size = pageSize(r.PageType)
	}
	dev := int64(-1)
	if devs := s.devices[r.PID]; len(devs) == 1 {
		for d := range devs {
			dev = d
		}
	}
	s.release(b.keepMalloc(Malloc{PID: pidString(r.PID), DeviceID: dev, Func: "aclrtMallocPhysical",
		Caller: "MallocPhysicalPage", Purpose: "(page without GE_PRINT line)", Category: gelog.CatOther, Counted: true,
		Physical: true, Size: size, Time: r.Time, Line: r.Line, File: r.File}))
	k := catKey{r.PID, dev, gelog.CatOther}
	b.physAdd(k, size, nil)
	s.pages[pk] = livePage{cat: k, size: size}
}

// pageSize is the size of a pg_type ("2M", "1G"); 2 MiB when unknown.
func pageSize(pg string) int64 {
	if n := len(pg); n > 1 {
		if v, err := strconv.ParseInt(pg[:n-1], 10, 64); err == nil {
			switch pg[n-1] {
			case 'K':
				return v << 10
			case 'M':
				return v << 20
			case 'G':
				return v << 30
			}
		}
	}
	return 2 << 20
}

func (b *Builder) addAllocatorCall(r *gelog.AllocatorCall) {
	s := &b.o().mall
	s.seeDevice(r.PID, r.Device)
	switch r.Op {
	case "malloc":
		if r.Class == "MemoryAllocator" {
			s.lastAllocator[thread{r.PID, r.TID}] = allocHint{r.Device, r.Size}
		}
	case "failed":
		b.Diag(Diagnostic{Path: b.Path(r.File), Line: r.Line, Reason: diag.DeviceMallocFailed,
			Detail: fmt.Sprintf("GE could not malloc %d bytes on device %d", r.Size, r.Device)})
	}
}

func (b *Builder) addDeviceFree(r *gelog.DeviceFree) {
	s := &b.o().mall
	k := ptrKey{r.PID, r.Addr}
	if idx, ok := s.ptrs[k]; ok {
		m := b.malloc(idx)
		s.freed[catKey{r.PID, m.DeviceID, m.Category}] += m.Size
		delete(s.ptrs, k)
		s.release(idx)
	}
}

func (b *Builder) addFact(r *gelog.ProcessFact) {
	s := &b.o().mall
	switch r.What {
	case "static-memory-policy":
		s.policy[r.PID] = r.Value
	case "device-total":
		s.total[r.PID] = r.Value
	}
}

// finishMalloc resolves unknown devices, totals the categories and lists
// the processes' device facts.
func (b *Builder) finishMalloc() {
	s := &b.o().mall
	r := b.R
	only := func(pid string) int64 {
		n, _ := strconv.ParseInt(pid, 10, 64)
		if devs := s.devices[n]; len(devs) == 1 {
			for d := range devs {
				return d
			}
		}
		return -1
	}
	type key struct {
		pid string
		dev int64
		cat string
	}
	totals := map[key]*MallocTotal{}
	var order []key
	// sum adds counted mallocs of (pid, raw device, category) to their
	// total, the device resolved, with the category's physical peak and
	// freed bytes once.
	sum := func(pidText string, raw int64, cat string, count, bytes int64) {
		k := key{pidText, raw, cat}
		if raw < 0 {
			k.dev = only(pidText)
		}
		t := totals[k]
		if t == nil {
			t = &MallocTotal{PID: k.pid, DeviceID: k.dev, Category: cat}
			totals[k] = t
			order = append(order, k)
		}
		t.Count += count
		t.Bytes += bytes
		pid, _ := strconv.ParseInt(pidText, 10, 64)
		ck := catKey{pid, raw, cat}
		if p, ok := s.peak[ck]; ok {
			t.PhysicalPeak += p
			t.Bytes += p
			delete(s.peak, ck) // once per (pid, device, category)
		}
		if f, ok := s.freed[ck]; ok {
			t.Freed += f
			delete(s.freed, ck)
		}
	}
	for _, k := range s.sumOrder {
		t := s.sums[k]
		sum(k.pid, k.dev, k.cat, t.count, t.bytes)
	}
	for i := range r.Mallocs {
		m := &r.Mallocs[i]
		raw := m.DeviceID
		if m.DeviceID < 0 {
			m.DeviceID = only(m.PID)
		}
		if !m.Counted {
			continue
		}
		bytes := m.Size
		if m.Physical {
			bytes = 0
		}
		sum(m.PID, raw, m.Category, 1, bytes)
	}
	r.DeviceMalloc = make([]MallocTotal, 0, len(order))
	for _, k := range order {
		r.DeviceMalloc = append(r.DeviceMalloc, *totals[k])
	}
	sort.SliceStable(r.DeviceMalloc, func(i, j int) bool {
		a, c := &r.DeviceMalloc[i], &r.DeviceMalloc[j]
		if a.PID != c.PID {
			return pidLess(a.PID, c.PID)
		}
		if a.DeviceID != c.DeviceID {
			return a.DeviceID < c.DeviceID
		}
		if a.Bytes != c.Bytes {
			return a.Bytes > c.Bytes
		}
		return a.Category < c.Category
	})
	if r.Mallocs == nil {
		r.Mallocs = []Malloc{}
	}
	b.finishDevices()
}

// finishDevices lists (pid, device) with the policy and device total.
func (b *Builder) finishDevices() {
	s := &b.o().mall
	r := b.R
	pids := map[int64]bool{}
	for pid := range s.devices {
		pids[pid] = true
	}
	for pid := range s.policy {
		pids[pid] = true
	}
	for pid := range s.total {
		pids[pid] = true
	}
	for _, m := range r.Mallocs {
		n, _ := strconv.ParseInt(m.PID, 10, 64)
		pids[n] = true
	}
	for pid := range s.mallocPIDs {
		pids[pid] = true
	}
	smp := map[string]int64{}
	r.WalkGraphs(func(g *Graph, done DoneRef) bool {
		var pid, v string
		var ok bool
		if g != nil {
			pid = g.PID
			v, ok = g.Logged.Get("smp")
		} else {
			var n int64
			n, v, ok = done.d.smpOf(done.i)
			pid = pidString(n)
		}
		if ok {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				smp[pid] = n
			}
		}
		return true
	})
	r.Devices = []DeviceInfo{}
	for pid := range pids {
		ps := pidString(pid)
		policy, ok := s.policy[pid]
		if !ok {
			policy = -1
			if v, ok := smp[ps]; ok {
				policy = v
			}
		}
		devs := make([]int64, 0, len(s.devices[pid]))
		for d := range s.devices[pid] {
			devs = append(devs, d)
		}
		if len(devs) == 0 {
			devs = append(devs, -1)
		}
		for _, d := range devs {
			r.Devices = append(r.Devices, DeviceInfo{PID: ps, DeviceID: d, StaticMemoryPolicy: policy, DeviceTotal: s.total[pid]})
		}
	}
	sort.Slice(r.Devices, func(i, j int) bool {
		a, c := r.Devices[i], r.Devices[j]
		if a.PID != c.PID {
			return pidLess(a.PID, c.PID)
		}
		return a.DeviceID < c.DeviceID
	})
}

// MallocCategories lists the counted device-malloc categories in the order
// "imas total" prints them.
var MallocCategories = gelog.Categories

// addPageAddress gives the thread's last pointer-less page-caching malloc
// of that size its address, so that RtMemAllocator::free and the pool's
// blocks find it.
func (b *Builder) addPageAddress(r *gelog.PageAddress) {
	s := &b.o().mall
	th := thread{r.PID, r.TID}
	idx, ok := s.noPtr[th]
	if !ok || b.malloc(idx).Size != r.Size {
		return
	}
	delete(s.noPtr, th)
	b.malloc(idx).Ptr = hexAddr(r.Addr)
	holdIn(s, s.ptrs, ptrKey{r.PID, r.Addr}, idx)
	b.o().pool.addPage(r.PID, r.Addr, r.Size)
}
