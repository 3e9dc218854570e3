package gen

import (
	"fmt"
	"sort"
	"strconv"
)

// variables writes the AssignVarMem rows of each session and the malloc of
// the variable area (docs/figures.md#variables: count, Σ size, max(offset+size)).
func (p *proc) variables() {
	spec := p.spec
	sessions := max(1, spec.Sessions)
	tr := p.g.truth
	formula := spec.Hostile.FormulaNames
	k := 0
	for s := 0; s < sessions; s++ {
		n := spec.Variables / sessions
		if s < spec.Variables%sessions {
			n++
		}
		if n == 0 {
			continue
		}
		vt := VarTruth{PID: p.pid, Session: s}
		var off int64
		for i := 0; i < n; i++ {
			var bytes int64
			switch p.r.intn(3) {
			case 0:
				bytes = p.r.between(4, 4000)
			case 1:
				bytes = p.r.between(4000, 1<<20)
			default:
				bytes = p.r.between(1<<20, 4<<20)
			}
			real := align512(bytes)
			size := real + 1024
			name := fmt.Sprintf("var_%d/weight", k)
			if s == 0 && i == 1 && len(formula) > 0 {
				name = formula[len(formula)-1]
			}
			k++
			var msg string
			if p.gen == Gen2025 {
				msg = fmt.Sprintf("[IMAS]AssignVarMem Set session_%d name[%s] output[0] offset to [%d] size[%d] realsize[%d].", s, name, off, size, real)
			} else {
				msg = fmt.Sprintf("[IMAS]AssignVarMem Set session_%d name[%s] output[0]offset to [%d] size[%d] realsize[%d].", s, name, off, size, real)
			}
			p.ge("INFO", "graph_var_manager.cc", 765, "AssignVarMem", msg)
			vt.Count++
			vt.SizeSum += size
			off += size
			vt.AreaEnd = max(vt.AreaEnd, off)
		}
		tr.Variables = append(tr.Variables, vt)
		if p.gen == Gen2025 {
			p.ge("INFO", "graph_var_manager.cc", 1463, "MallocMemory", fmt.Sprintf("MallocMemory, func=aclrtMalloc, size=%d, purpose=Auto malloc var and constant op memory, ptr=0x%x, device_id=0, module_id=45", vt.AreaEnd, p.newBase()))
		} else {
			p.ge("INFO", "graph_var_manager.cc", 620, "MallocMemory", fmt.Sprintf("MallocMemory, func=rtMalloc, size=%d, purpose=variables and constant op memory in training network.", vt.AreaEnd))
		}
		tr.Malloc = append(tr.Malloc, MallocTruth{PID: p.pid, Category: "Variable", Bytes: vt.AreaEnd})
	}
}

type mallocKind struct {
	file     string
	line     int
	fn       string
	funcName string
	purpose  string
	category string // "" = not a device malloc
	size     func(r *rng) int64
}

func sz(lo, hi int64) func(r *rng) int64 {
	return func(r *rng) int64 { return r.between(lo, hi) }
}

func fixed(n int64) func(r *rng) int64 { return func(*rng) int64 { return n } }

// mallocs2025 are the GE_PRINT_DYNAMIC_MEMORY purposes of docs/runtime.md
// (current spelling), device mallocs and the lines that are not.
var mallocs2025 = []mallocKind{
	{"davinci_model.cc", 8135, "MallocMemory", "aclrtMalloc", "weights memory in inference network", "Weights", sz(1<<20, 200<<20)},
	{"davinci_model.cc", 8141, "MallocMemory", "aclrtMalloc", "fileconstant memory in inference network", "Weights", sz(1<<20, 50<<20)},
	{"single_op_model.cc", 42, "MallocWeight", "aclrtMalloc", "malloc weights memory on model execute.", "Weights", sz(4096, 1<<20)},
	{"davinci_model.cc", 99, "Malloc", "aclrtMalloc", "davinci_model_load", "davinci_model_load", fixed(2 << 20)},
	{"sink_only_allocator.cc", 15, "Malloc", "aclrtMalloc", "davinci_model_load", "davinci_model_load", fixed(2 << 20)},
	{"session_scope_mem_allocator.cc", 45, "Malloc", "aclrtMalloc", "Memory for session scope", "StaticGraph", sz(1<<20, 16<<20)},
	{"model_executor.cc", 491, "MallocFixedFeatureMemory", "aclrtMalloc", "RT_MEMORY_HBM fixed feature base", "StaticGraph", sz(8<<20, 64<<20)},
	{"caching_allocator.cc", 303, "MallocMemory", "aclrtMalloc", "Memory for caching", "MemoryPool", sz(2<<20, 32<<20)},
	{"rdma_pool_allocator.cc", 95, "InitMemory", "aclrtMalloc", "Memory for rdma pool", "Variable", sz(1<<20, 16<<20)},
	{"cpu_queue_schedule.cc", 61, "AllocArgs", "aclrtMalloc", "args data.", "Other", sz(2048, 65536)},
	{"data_dumper.cc", 955, "LoadDumpInfo", "aclrtMalloc", "load dump information.", "Other", sz(2048, 1<<20)},
	{"data_dumper.cc", 1017, "UnloadDumpInfo", "aclrtMalloc", "unload dump information.", "Other", sz(2048, 65536)},
	{"rts_caching_mem_allocator.h", 34, "Malloc", "rtMalloc", "rt2 memory pool", "", sz(1<<20, 64<<20)},
	{"single_op.cc", 29, "MallocMemory", "AllocatorMalloc", "malloc feature map memory on model execute.", "", sz(4096, 1<<20)},
	{"tbe_task_builder.cc", 565, "InitTilingInfo", "AllocatorMalloc", "malloc tiling data memory for soft sync op.", "", sz(2048, 65536)},
	{"kernel_task_info.cc", 2159, "InitTVMTask", "new", "cce task physical memory.", "", sz(2048, 65536)},
	{"file_saver.cc", 255, "SaveToFile", "malloc", "File buffer.", "", sz(1<<20, 64<<20)},
}

// mallocsOld are the ≤2023 spellings (rtMalloc, trailing periods, no ptr).
var mallocsOld = []mallocKind{
	{"davinci_model.cc", 3960, "MallocMemory", "rtMalloc", "weights memory in inference network.", "Weights", sz(1<<20, 200<<20)},
	{"session_scope_mem_allocator.cc", 45, "Malloc", "rtMalloc", "Memory for session scope.", "StaticGraph", sz(1<<20, 16<<20)},
	{"caching_allocator.cc", 303, "MallocMemory", "rtMalloc", "Memory for caching.", "MemoryPool", sz(2<<20, 32<<20)},
	{"rdma_pool_allocator.cc", 95, "InitMemory", "rtMalloc", "Memory for rdma pool.", "Variable", sz(1<<20, 16<<20)},
	{"runtime_model.cc", 313, "InitArgs", "rtMalloc", "task args data.", "Other", sz(2048, 65536)},
	{"runtime_model.cc", 340, "InitTaskInfo", "rtMalloc", "task information.", "Other", sz(2048, 65536)},
	{"graph_execute.cc", 207, "MallocInOutBuffer", "rtMalloc", "the output memory of data on training.", "Other", sz(2048, 1<<20)},
	{"op_task.cc", 731, "SetWorkspaceSizes", "rtMalloc", "malloc workspace memory for dynamic op.", "Other", sz(2048, 1<<20)},
	{"kernel_task_info.cc", 1043, "InitTVMTask", "new", "cce task physical memory.", "", sz(2048, 65536)},
	{"file_saver.cc", 255, "SaveToFile", "malloc", "File buffer.", "", sz(1<<20, 64<<20)},
}

// mallocs writes one line of every purpose of the generation.
func (p *proc) mallocs() {
	kinds := mallocsOld
	if p.gen == Gen2025 {
		kinds = mallocs2025
	}
	for _, k := range kinds {
		size := k.size(p.r)
		msg := fmt.Sprintf("MallocMemory, func=%s, size=%d, purpose=%s", k.funcName, size, k.purpose)
		if p.gen == Gen2025 && k.category != "" {
			msg += fmt.Sprintf(", ptr=0x%x, device_id=0, module_id=45", p.newBase())
		}
		p.ge("INFO", k.file, k.line, k.fn, msg)
		if k.category != "" {
			p.g.truth.Malloc = append(p.g.truth.Malloc, MallocTruth{PID: p.pid, Category: k.category, Bytes: size})
		}
	}
	if p.gen == Gen2025 {
		// Expandable fixed-base memory: one physical page.
		p.ge("INFO", "active_memory_allocator.cc", 1135, "MallocPhysicalPage", fmt.Sprintf("MallocMemory, func=aclrtMalloc, size=2097152, purpose=fixed_base_expandable_memory, ptr=0x%x, device_id=0, module_id=45", p.newBase()))
		p.g.truth.Malloc = append(p.g.truth.Malloc, MallocTruth{PID: p.pid, Category: "StaticGraph", Bytes: 2 << 20})
		p.ge("INFO", "active_memory_allocator.cc", 1137, "ge::PhysicalMemoryAllocator::MallocPhysicalPage", "rtMallocPhysical success pa_index:0, current physical memory size:2097152 reuse:0, memory_type:2, pg_type:2M.")
	}
}

// poolSim simulates one RT2 caching allocator: 64 KiB-granular blocks cut
// from page-caching chunks, best fit on free spans.
type poolSim struct {
	id      int
	name    string
	tid     int
	tagged  bool // [allocator_N] tag on Malloc block lines
	start   uint64
	next    uint64
	free    []span
	live    []liveBlock
	events  int
	truth   PoolTruth
	cur     int64
	real    int64
	peakReq int64
	kernel  int
	chunks  []span // page-caching mallocs (2023 lines)
}

type span struct{ addr, size uint64 }

type liveBlock struct {
	addr, size uint64
	req        int64
	op         string
}

func (ps *poolSim) take(size uint64) (uint64, bool) {
	best := -1
	for i, s := range ps.free {
		if s.size >= size && (best < 0 || s.size < ps.free[best].size || (s.size == ps.free[best].size && s.addr < ps.free[best].addr)) {
			best = i
		}
	}
	if best < 0 {
		return 0, false
	}
	s := ps.free[best]
	if s.size == size {
		ps.free = append(ps.free[:best], ps.free[best+1:]...)
	} else {
		ps.free[best] = span{s.addr + size, s.size - size}
	}
	return s.addr, true
}

func (ps *poolSim) give(addr, size uint64) {
	// The free list stays sorted by address with neighbours merged, so
	// the span goes in at its place and joins at most two neighbours.
	i := sort.Search(len(ps.free), func(i int) bool { return ps.free[i].addr >= addr })
	if i > 0 && ps.free[i-1].addr+ps.free[i-1].size == addr {
		ps.free[i-1].size += size
		if i < len(ps.free) && ps.free[i-1].addr+ps.free[i-1].size == ps.free[i].addr {
			ps.free[i-1].size += ps.free[i].size
			ps.free = append(ps.free[:i], ps.free[i+1:]...)
		}
		return
	}
	if i < len(ps.free) && addr+size == ps.free[i].addr {
		ps.free[i] = span{addr, size + ps.free[i].size}
		return
	}
	ps.free = append(ps.free, span{})
	copy(ps.free[i+1:], ps.free[i:])
	ps.free[i] = span{addr, size}
}

// poolRun is the RT2 pool activity of one process in progress: its
// allocators and the host-side pointers and kernel ids the lines carry.
type poolRun struct {
	sims    []*poolSim
	hostPtr uint64
	spanPtr uint64
	kid     int
	// maxLive bounds each allocator's live blocks during bursts (0: no
	// bound): a step frees what it allocated, as a training step does.
	maxLive int
}

// burstLive is the live-block bound of allocators fed in bursts.
const burstLive = 48

// pools writes the RT2 pool activity of the process: allocator creation,
// page-caching mallocs, Malloc block / KernelTrace Alloc, KernelTrace Free
// / Free block, and (PhysPages) expandable physical pages.
func (p *proc) pools() {
	pr := p.poolsBegin()
	for _, ps := range pr.sims {
		ps.events = p.spec.PoolEvents
	}
	p.poolEvents(pr, true)
	p.poolsEnd(pr)
}

// poolsBegin creates the allocators and the expandable physical pages.
func (p *proc) poolsBegin() *poolRun {
	spec := p.spec
	tr := p.g.truth
	pr := &poolRun{hostPtr: 0x55d1c2a30000, spanPtr: 0x55d1c29b0000}
	nextID := 2
	for i := 0; i < spec.Pools; i++ {
		ps := &poolSim{id: nextID, name: "allocator_" + strconv.Itoa(nextID)}
		nextID += 3
		ps.start = 0x12c1a0000000 + uint64(p.idx)*0x100000000 + uint64(i)*0x30000000
		ps.next = ps.start
		ps.tid = p.mtid + 7*(i+1)
		// The first allocator is created on its own thread and logs
		// Malloc block without the tag (pre-2026-07); the second is created
		// on the main thread and tags its lines; the others do both.
		ps.tagged = i != 0 || p.idx%2 == 1
		createTid := ps.tid
		if i == 1 {
			createTid = p.pid
		}
		ps.truth = PoolTruth{PID: p.pid, Allocator: ps.name}
		if p.gen == Gen2025 {
			p.geTid(p.tid, "", "rts_caching_mem_allocator.cc", 41, "GetRtsCachingMemAllocator", "Create RtsCachingMemAllocator device id:0 memory type:2.")
			p.geTid(createTid, "", "caching_mem_allocator.cc", 80, "CachingMemAllocator", "create caching memory allocator, ["+ps.name+"]")
		} else {
			// 2023: no creation line; every pool line carries the tag.
			ps.tagged = true
			p.geTid(ps.tid, "", "graph_mem_allocator.cc", 23, "Initialize", "MemoryAllocator::Initialize.")
		}
		pr.sims = append(pr.sims, ps)
	}
	for k := 0; k < spec.PhysPages; k++ {
		page := int64(8 << 20)
		p.geTid(p.mtid, "", "active_memory_allocator.cc", 1135, "MallocPhysicalPage", fmt.Sprintf("MallocMemory, func=aclrtMalloc, size=%d, purpose=page caching, ptr=0x%x, device_id=0, module_id=45", page, 0x12c200000000+uint64(k)*uint64(page)))
		p.geTid(p.mtid, "", "active_memory_allocator.cc", 1137, "ge::PhysicalMemoryAllocator::MallocPhysicalPage", fmt.Sprintf("rtMallocPhysical success pa_index:%d, current physical memory size:%d reuse:0, memory_type:2, pg_type:2M.", k, int64(k+1)*page))
		tr.Malloc = append(tr.Malloc, MallocTruth{PID: p.pid, Category: "MemoryPool", Bytes: page})
	}
	return pr
}

// poolEvents writes allocations and frees until every allocator has used
// its pending events; drain also frees down to the blocks left leaked.
func (p *proc) poolEvents(pr *poolRun, drain bool) {
	tr := p.g.truth
	for {
		var active []*poolSim
		for _, ps := range pr.sims {
			if ps.events > 0 || drain && len(ps.live) > ps.keep() {
				active = append(active, ps)
			}
		}
		if len(active) == 0 {
			break
		}
		ps := pick(p.r, active)
		tag := ""
		if ps.tagged {
			tag = "[" + ps.name + "] "
		}
		pr.kid++
		kid := pr.kid
		doAlloc := ps.events > 0 && (len(ps.live) < 3 || p.r.chance(0.52)) && (pr.maxLive == 0 || len(ps.live) < pr.maxLive)
		if doAlloc {
			ps.events--
			var req int64
			switch p.r.intn(10) {
			case 0, 1, 2, 3:
				req = p.r.between(200, 8000)
			case 4, 5, 6, 7:
				req = p.r.between(8000, 900000)
			default:
				req = p.r.between(900000, 9<<20)
			}
			bsz := uint64(max(65536, align(req, 65536)))
			addr, ok := ps.take(bsz)
			if !ok {
				chunk := max(bsz, 2<<20)
				base := ps.next
				ps.next += align64(chunk)
				if p.gen == Gen2025 {
					p.geTid(ps.tid, "", "device_allocator.cc", 62, "Alloc", fmt.Sprintf("MallocMemory, func=aclrtMalloc, size=%d, purpose=page caching, ptr=0x%x, device_id=0, module_id=45", chunk, base))
				} else {
					// 2023: no pointer; the pool prints its device total after each.
					p.geTid(ps.tid, "", "device_allocator.cc", 53, "Alloc", fmt.Sprintf("MallocMemory, func=rtMalloc, size=%d, purpose=page caching", chunk))
					p.geTid(ps.tid, "", "device_allocator.cc", 29, "Alloc", fmt.Sprintf("DeviceAllocator::Alloc device_id:0, size:%d, addr:0x%x", chunk, base))
					ps.chunks = append(ps.chunks, span{base, chunk})
					var held uint64
					for _, c := range ps.chunks {
						held += c.size
					}
					p.geTid(ps.tid, "["+ps.name+"] ", "scalable_allocator.cc", 381, "PrintDetails", fmt.Sprintf("Device memory   : [alloc count:%d free count:0 total size:%d]", len(ps.chunks), held))
					p.geTid(ps.tid, "["+ps.name+"] ", "scalable_allocator.cc", 383, "PrintDetails", fmt.Sprintf("Allocator memory: [alloc count:%d free count:%d recycle count:0]", ps.truth.Allocs, ps.truth.Frees))
				}
				tr.Malloc = append(tr.Malloc, MallocTruth{PID: p.pid, Category: "MemoryPool", Bytes: int64(chunk)})
				if chunk > bsz {
					ps.give(base+bsz, chunk-bsz)
				}
				addr = base
				if p.r.chance(0.15) {
					p.geTid(ps.tid, "", "rts_caching_mem_allocator.h", 34, "Malloc", fmt.Sprintf("MallocMemory, func=rtMalloc, size=%d, purpose=rt2 memory pool", chunk))
				}
			}
			pr.hostPtr += 0x40
			pr.spanPtr += 0x40
			op := pick(p.r, noiseOps)
			if p.gen == Gen2025 {
				p.geTid(ps.tid, tag, "scalable_allocator.cc", 511, "Alloc", fmt.Sprintf("Malloc block device_id:0 size:%d allocate_size:%d mem_addr:0x%x. span addr 0x%x", req, bsz, addr, pr.spanPtr))
				p.geTid(ps.tid, "", "memory_kernel.cc", 385, "AllocHbmMem", fmt.Sprintf("[KernelTrace][AllocMemHbm_%s_%d_%d][MEM]Alloc memory at stream 0, block 0x%x, address 0x%x, size %d, tensor size %d, index 1", op, ps.kernel, kid, pr.hostPtr, addr, bsz, req))
			} else {
				// 2023: no span, no stream, no tensor size; "address" with or
				// without "=", graph outputs marked.
				p.geTid(ps.tid, tag, "scalable_allocator.cc", 216, "Alloc", fmt.Sprintf("Malloc block device_id:0 size:%d allocate_size:%d mem_addr:0x%x.", req, bsz, addr))
				eq, out := " =", ""
				if kid%2 == 1 {
					eq = ""
				}
				if kid%7 == 0 {
					out = ", as model out memory"
				}
				p.geTid(ps.tid, "", "memory_kernel.cc", 174, "AllocHbmMem", fmt.Sprintf("[KernelTrace][AllocMemHbm_%s_%d][MEM]Alloc memory block 0x%x, address%s 0x%x, size = %d%s", op, kid, pr.hostPtr, eq, addr, bsz, out))
			}
			ps.kernel++
			ps.live = append(ps.live, liveBlock{addr: addr, size: bsz, req: req, op: op})
			ps.truth.Allocs++
			ps.truth.Total += int64(bsz)
			ps.cur += int64(bsz)
			ps.real += req
			ps.truth.PeakLive = max(ps.truth.PeakLive, ps.cur)
			ps.peakReq = max(ps.peakReq, ps.real)
			continue
		}
		i := p.r.intn(len(ps.live))
		lb := ps.live[i]
		ps.live = append(ps.live[:i], ps.live[i+1:]...)
		if p.gen != Gen2025 {
			p.geTid(ps.tid, "", "memory_kernel.cc", 207, "FreeMemory", fmt.Sprintf("[KernelTrace][FreeMemory_%s_%d][MEM]Free memory, address 0x%x", lb.op, kid, lb.addr))
		} else if p.r.chance(0.15) {
			p.geTid(ps.tid, "", "memory_kernel.cc", 419, "FreeHbmMemHoldAddr", fmt.Sprintf("[KernelTrace][FreeMemHbmHoldAddr_%s_%d][MEM]Free memory at stream 0, address 0x%x", lb.op, kid, lb.addr))
		} else {
			p.geTid(ps.tid, "", "memory_kernel.cc", 407, "FreeHbmMem", fmt.Sprintf("[KernelTrace][FreeMemHbm_%s_%d][MEM]Free memory at stream 0, address 0x%x", lb.op, kid, lb.addr))
		}
		ps.cur -= int64(lb.size)
		ps.real -= lb.req
		ps.truth.Frees++
		switch {
		case p.gen != Gen2025:
			p.geTid(ps.tid, "["+ps.name+"] ", "scalable_allocator.cc", 268, "Free", fmt.Sprintf("Free block device_id:0 allock_size:%d mem_addr:0x%x.", lb.size, lb.addr))
		case p.r.chance(0.6):
			p.geTid(ps.tid, "["+ps.name+"] ", "scalable_allocator.cc", 569, "Free", fmt.Sprintf("Free block device_id:0 theory_size_:%d theory_min_size_:%d allock_size:%d mem_addr:0x%x.", ps.cur, ps.truth.PeakLive, lb.size, lb.addr))
		}
		ps.give(lb.addr, lb.size)
	}
}

// poolsEnd writes each allocator's closing statistics.
func (p *proc) poolsEnd(pr *poolRun) {
	tr := p.g.truth
	for _, ps := range pr.sims {
		ps.truth.Leaked = ps.truth.Allocs - ps.truth.Frees
		total := int64(ps.next - ps.start)
		rate := 0.0
		if total > 0 {
			rate = float64(ps.peakReq) / float64(total) * 100
		}
		if p.gen == Gen2025 {
			p.geTid(ps.tid, "["+ps.name+"] ", "scalable_allocator.cc", 737, "PrintDetails", fmt.Sprintf("Device memory   : [alloc count:%d free count:%d total size:%s new_va_size:0 real_theory_min:%s theory_min:%s reach theory rate:%.2f%%]",
				ps.truth.Allocs, ps.truth.Frees, sizeString(total), sizeString(ps.peakReq), sizeString(ps.truth.PeakLive), rate))
		} else {
			// 2023 finalize: the pages go back, the caching bins are
			// emptied, the allocator stops.
			for _, c := range ps.chunks {
				p.geTid(ps.tid, "", "device_allocator.cc", 67, "Free", fmt.Sprintf("RtMemAllocator::free device_id:0 ,size:%d, addr:0x%x", c.size, c.addr))
				p.geTid(ps.tid, "", "device_allocator.cc", 38, "Free", fmt.Sprintf("DeviceAllocator::free device_id:0 ,size:%d, addr:0x%x", c.size, c.addr))
			}
			p.geTid(ps.tid, "", "caching_allocator.cc", 429, "FreeBlockBins", "Free block bins.")
			p.geTid(ps.tid, "", "graph_mem_allocator.cc", 37, "Finalize", "MemoryAllocator::Finalize.")
		}
		tr.Pools = append(tr.Pools, ps.truth)
	}
}

// keep is the number of allocations left live at the end (leaks).
func (ps *poolSim) keep() int { return 1 + ps.id%3 }

func align64(n uint64) uint64 { return (n + 65535) / 65536 * 65536 }

// sizeString is GE's SizeToString.
func sizeString(n int64) string {
	switch {
	case n > 1<<30:
		return fmt.Sprintf("%d(%.2fG)", n, float64(n)/(1<<30))
	case n > 1<<20:
		return fmt.Sprintf("%d(%.2fM)", n, float64(n)/(1<<20))
	case n > 1024:
		return fmt.Sprintf("%d(%.2fK)", n, float64(n)/1024)
	}
	return strconv.FormatInt(n, 10)
}

type devmmLine struct {
	mem     string
	dev     bool
	modules []string
}

var moduleIDs = map[string]int{"RUNTIME": 7, "GE": 45, "HCCL": 3, "APP": 33}

// devmm writes the driver's per-module statistics at process exit (run
// plog), in the new (CANN 9) or old (CANN 8.5) driver format.
func (p *proc) devmm() {
	if p.spec.Devmm == Devmm2023 {
		p.devmm2023()
		return
	}
	var types []devmmLine
	if p.spec.Devmm == DevmmOld {
		types = []devmmLine{{"SVM_MEM", false, []string{"RUNTIME", "GE"}}, {"DEV_MEM", true, []string{"RUNTIME", "GE", "HCCL", "APP"}}, {"HOST_MEM", false, []string{"RUNTIME"}}}
	} else {
		types = []devmmLine{{"HOST_MEM", false, []string{"RUNTIME"}}, {"MEM_DEV_SMALL_HBM", true, []string{"RUNTIME", "GE", "HCCL", "APP"}},
			{"MEM_DEV_HUGE_HBM", true, []string{"RUNTIME", "GE", "HCCL", "APP"}}, {"MEM_DEV_SMALL_DDR", true, []string{"RUNTIME"}},
			{"MEM_DEV_HUGE_P2P_HBM", true, []string{"HCCL"}}}
	}
	dtid := p.mtid + 40
	for _, t := range types {
		dev := ""
		if t.dev {
			dev = " dev0"
		}
		for _, m := range t.modules {
			peak := p.r.between(1, 40000) * 4096
			cur := int64(0)
			if p.r.chance(0.4) {
				cur = p.r.between(0, peak/4096) * 4096
			}
			allocs := p.r.between(1, 900)
			frees := allocs
			if cur > 0 {
				frees = allocs - p.r.between(1, min(allocs, 5))
			}
			var body string
			if p.spec.Devmm == DevmmOld {
				body = fmt.Sprintf("[ascend][curpid: %d, %d][drv][devmm][_svm_mem_stats_show 148]%s%s Mem stats (Bytes). (module_name=%s; module_id=%d; current_alloced_size=%d; alloced_peak_size=%d; alloc_cnt=%d; free_cnt=%d)",
					p.pid, dtid, t.mem, dev, m, moduleIDs[m], cur, peak, allocs, frees)
			} else {
				body = fmt.Sprintf("[svm_mem_statistics.c:150][ascend][curpid:%d,%d][drv][devmm][_svm_mem_stats_show]%s%s Mem stats (Bytes). (module_name=%s; module_id=%d; current_alloced_size=%d; allocated_peak_size=%d; alloc_cnt=%d; free_cnt=%d)",
					p.pid, dtid, t.mem, dev, m, moduleIDs[m], cur, peak, allocs, frees)
			}
			p.emit(p.runl, p.tick(), "INFO", "DRV", body)
			p.g.truth.Devmm = append(p.g.truth.Devmm, DevmmTruth{PID: p.pid, MemType: t.mem, Module: m, Peak: peak, Current: cur})
		}
		if p.spec.Devmm == DevmmNew {
			p.emit(p.runl, p.tick(), "INFO", "DRV", fmt.Sprintf("[svm_mem_statistics.c:156][ascend][curpid:%d,%d][drv][devmm][_svm_mem_stats_show]%s%s Cached_size:%dBytes",
				p.pid, dtid, t.mem, dev, p.r.between(0, 40)*2<<20))
		}
	}
}

// devmm2023 writes the 2023 driver's statistics (CANN 6.x comma form, no
// counts) as an [EVENT] dump, printed twice ~68 ms apart as that driver
// did for a second device context: each entry counts once.
func (p *proc) devmm2023() {
	dtid := p.mtid + 40
	type entry struct {
		mem, dev, module string
		peak, cur        int64
	}
	var dump []entry
	for _, t := range []devmmLine{{"DEV_MEM", true, []string{"RUNTIME", "APP", "GE"}}, {"HOST_MEM", false, []string{"RUNTIME"}}} {
		dev := ""
		if t.dev {
			dev = " dev0"
		}
		for _, m := range t.modules {
			peak := p.r.between(1, 40000) * 4096
			cur := int64(0)
			if p.r.chance(0.4) {
				cur = p.r.between(0, peak/4096) * 4096
			}
			dump = append(dump, entry{t.mem, dev, m, peak, cur})
			p.g.truth.Devmm = append(p.g.truth.Devmm, DevmmTruth{PID: p.pid, MemType: t.mem, Module: m, Peak: peak, Current: cur})
		}
	}
	cached := p.r.between(0, 40) * 2 << 20
	for round := 0; round < 2; round++ {
		for _, e := range dump {
			p.emit(p.runl, p.tick(), "EVENT", "DRV", fmt.Sprintf("[ascend][curpid: %d, %d][drv][devmm][_devmm_mem_stats_show 152]%s%s mem stats(Bytes): module_name=%s, module_id=%d current_alloced_size=%d, alloced_peak_size=%d.",
				p.pid, dtid, e.mem, e.dev, e.module, moduleIDs[e.module], e.cur, e.peak))
		}
		p.emit(p.runl, p.tick(), "EVENT", "DRV", fmt.Sprintf("[ascend][curpid: %d, %d][drv][devmm][_devmm_mem_stats_show 158]DEV_MEM dev0 Cached_size:%dBytes", p.pid, dtid, cached))
		p.clock += 68000 // the second dump, 68 ms later
	}
}
