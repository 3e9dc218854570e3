package model

import (
	"sort"
	"strconv"
	"sync/atomic"

	"imas/core/gelog"
)

// otherState holds the builder state of the load- and run-time record
// families (variables, device mallocs, regions, addresses, pools, devmm).
// Pairing rules that need the log order (thread contexts, address joins,
// live physical pages) run here; figures are left to the analyze package.
type otherState struct {
	vars    map[varKey]*VarSession
	varList []*VarSession

	mall mallocState
	addr addrState
	pool poolState

	devmm map[devmmKey]int // index in Report.Devmm

	// per-family record counts and channel facts for Sanity
	families   map[string]*int64
	infoLines  int64 // GE statements without the [EVENT] channel flag
	eventLines int64
	runFiles   map[int32]bool
	cutAtLimit int64 // truncated lines that reach GE's logger limit
	// CPU-side mallocs ("MallocMemory, func=new/malloc") by log module:
	// they are INFO lines but not GE device memory statements.
	cpuMallocs map[string]int64
	// zero-copy offsets waiting for their graph's summary, by pid
	zeroCopy map[int64]Logged

	// the families addOther counted lately and their counts: a log's
	// lines come in runs of one family, or a few in turn (a pool's
	// Malloc block, allocation, free and Free block)
	recentFamilies [4]familyCount
	recentNext     int
}

type familyCount struct {
	family string
	n      *int64
}

// thread is a (pid, tid) pair: GE pairs related lines by thread.
type thread struct{ pid, tid int64 }

func (b *Builder) o() *otherState {
	if b.other == nil {
		b.other = &otherState{
			vars:     map[varKey]*VarSession{},
			devmm:    map[devmmKey]int{},
			families: map[string]*int64{},
			runFiles: map[int32]bool{},

			cpuMallocs: map[string]int64{},
			zeroCopy:   map[int64]Logged{},
		}
		b.other.mall.init()
		b.other.addr.init()
		b.other.pool.init()
	}
	return b.other
}

// addOther handles records that are not static-graph statements. It
// returns false for record types it does not know.
func (b *Builder) addOther(rec gelog.Record) bool {
	o := b.o()
	m := gelog.M(rec)
	family := ""
	switch r := rec.(type) {
	case *gelog.VarAssign:
		family = "variables"
		b.addVar(r)
	case *gelog.DeviceMalloc:
		family = "device-malloc"
		b.addMalloc(r)
		if r.Category == gelog.CatHost {
			o.cpuMallocs[r.Source]++
		}
	case *gelog.AllocatorCall:
		family = "memory-allocator"
		b.addAllocatorCall(r)
	case *gelog.PhysicalPage:
		family = "physical-pages"
		b.addPhysical(r)
	case *gelog.PageAddress:
		family = "page-address"
		b.addPageAddress(r)
	case *gelog.DeviceFree:
		family = "device-free"
		b.addDeviceFree(r)
	case *gelog.ProcessFact:
		family = r.What
		b.addFact(r)
	case *gelog.Region:
		family = "regions"
		b.addRegion(r)
	case *gelog.OpAddress:
		family = "addresses"
		b.addAddress(r)
	case *gelog.PoolCreate:
		family = "pool-allocators"
		b.addPoolCreate(r)
	case *gelog.PoolAlloc:
		family = "kernel-trace-alloc"
		b.addPoolAlloc(r)
	case *gelog.PoolFree:
		family = "kernel-trace-free"
		b.addPoolFree(r)
	case *gelog.PoolBlock:
		family = "pool-blocks"
		b.addPoolBlock(r)
	case *gelog.PoolDetails:
		family = "pool-details"
		b.addPoolDetails(r)
	case *gelog.ZeroCopySize:
		family = "zero-copy"
		b.addZeroCopy(r)
	case *gelog.DevmmStat:
		family = "devmm"
		b.addDevmm(r)
		o.runFiles[m.File] = true
	case *gelog.MemError:
		family = "memory-errors"
		b.addMemError(r)
	case *gelog.MemRequest:
		family = "memory-requests"
		b.addMemRequest(r)
	case *gelog.UserMemoryLoad:
		family = "user-memory-load"
		b.addUserMemoryLoad(r)
	default:
		return false
	}
	*o.familyCounter(family)++
	if family != "devmm" && family != "memory-errors" && family != "memory-requests" {
		if m.Event {
			o.eventLines++
		} else {
			o.infoLines++
		}
	}
	return true
}

// familyCounter is the count of family's records.
func (o *otherState) familyCounter(family string) *int64 {
	for i := range o.recentFamilies {
		if e := &o.recentFamilies[i]; e.n != nil && e.family == family {
			return e.n
		}
	}
	n := o.families[family]
	if n == nil {
		n = new(int64)
		o.families[family] = n
	}
	o.recentFamilies[o.recentNext] = familyCount{family, n}
	o.recentNext = (o.recentNext + 1) % len(o.recentFamilies)
	return n
}

// finishOther completes the load- and run-time parts of the report. The
// report's lists are never nil, so report.json always has arrays.
func (b *Builder) finishOther() {
	o := b.o()
	r := b.R
	r.Variables = append([]*VarSession{}, o.varList...)
	b.finishMalloc()
	b.finishAddresses()
	b.finishPools()
	if r.Devmm == nil {
		r.Devmm = []Devmm{}
	}
	sort.SliceStable(r.Devmm, func(i, j int) bool { return pidLess(r.Devmm[i].PID, r.Devmm[j].PID) })
	b.finishSanity()
	b.finishMemErrors()
}

func pidString(pid int64) string {
	slot := &pidTexts[uint64(pid)%uint64(len(pidTexts))]
	if t := slot.Load(); t != nil && t.pid == pid {
		return t.text
	}
	t := &pidText{pid, strconv.FormatInt(pid, 10)}
	slot.Store(t)
	return t.text
}

// pidTexts holds the text of recent pids, one slot per pid modulo its
// size: a run has few processes, and every graph, pool, malloc and address
// check names its pid. Builders may run at once (imas serve): slots are
// atomic.
var pidTexts [64]atomic.Pointer[pidText]

type pidText struct {
	pid  int64
	text string
}

func pidInt(pid string) int64 {
	n, _ := strconv.ParseInt(pid, 10, 64)
	return n
}

// hexAddr formats an address as report.json's lower-case 0x string.
func hexAddr(a uint64) string { return "0x" + strconv.FormatUint(a, 16) }

// HexAddr is an address as the model prints it ("0x" and lower-case hex).
func HexAddr(a uint64) string { return hexAddr(a) }
