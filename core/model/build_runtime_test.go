package model_test

import (
	"fmt"
	"strings"
	"testing"

	"imas/core/analyze"
	"imas/core/gelog"
	"imas/core/model"
	"imas/core/plog"
)

// build runs lines (one log file) through the parser, the builder and the
// analyses, as core.Analyze does.
func build(t *testing.T, path string, lines ...string) *model.Report {
	t.Helper()
	b := model.NewBuilder([]string{path})
	var env plog.Envelope
	for i, l := range lines {
		if !gelog.IsCandidate([]byte(l)) {
			t.Fatalf("line %d is not a candidate: %s", i+1, l)
		}
		ok := plog.Parse([]byte(l), &env)
		b.Add(gelog.Parse(&env, ok, []byte(l), gelog.Meta{Line: int64(i + 1)}))
	}
	rep := b.Finish()
	analyze.All(rep)
	return rep
}

// ln formats a GE line of pid 9 at the n-th millisecond.
func ln(n, tid int, fn, msg string) string {
	return fmt.Sprintf("[INFO] GE(9,python3):2026-08-12-10:00:00.%03d.000 [f.cc:1]%d %s:%s", n, tid, fn, msg)
}

func pools(rep *model.Report) string {
	var b strings.Builder
	for _, p := range rep.Pools {
		fmt.Fprintf(&b, "%s allocs=%d frees=%d total=%d peak=%d leaked=%d unmatched=%d physical=%d/%s unit=%d;",
			p.Allocator, p.Allocs, p.Frees, p.Total, p.PeakLive, p.Leaked, p.UnmatchedFrees, p.Physical, p.PhysicalFrom, p.Unit)
	}
	return b.String()
}

func TestPoolAttribution(t *testing.T) {
	alloc := func(n, tid int, addr string, size int) string {
		return ln(n, tid, "AllocHbmMem", fmt.Sprintf("[KernelTrace][AllocMemHbm_op_%d][MEM]Alloc memory at stream 0, block 0x1, address %s, size %d, tensor size 10, index 1", n, addr, size))
	}
	free := func(n, tid int, addr string) string {
		return ln(n, tid, "FreeHbmMem", "[KernelTrace][FreeMemHbm_op_1][MEM]Free memory at stream 0, address "+addr)
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"thread context", []string{
			ln(1, 5, "CachingMemAllocator", "create caching memory allocator, [allocator_1]"),
			ln(2, 6, "CachingMemAllocator", "create caching memory allocator, [allocator_2]"),
			alloc(3, 5, "0x100", 65536), alloc(4, 6, "0x200", 131072), free(5, 6, "0x100"),
		}, "allocator_1 allocs=1 frees=1 total=65536 peak=65536 leaked=0 unmatched=0 physical=0/ unit=0;allocator_2 allocs=1 frees=0 total=131072 peak=131072 leaked=1 unmatched=0 physical=0/ unit=0;"},
		{"Malloc block tag beats the thread context, latest block wins over the L1 one", []string{
			ln(1, 5, "CachingMemAllocator", "create caching memory allocator, [allocator_1]"),
			ln(2, 5, "[rts_allocator_0] Alloc", "Malloc block device_id:1 size:2097152 allocate_size:2097152 mem_addr:0x100. span addr 0x9"),
			ln(3, 5, "[allocator_7] Alloc", "Malloc block device_id:1 size:10 allocate_size:65536 mem_addr:0x100. span addr 0x9"),
			alloc(4, 5, "0x100", 65536),
		}, "allocator_1 allocs=0 frees=0 total=0 peak=0 leaked=0 unmatched=0 physical=0/ unit=0;allocator_7 allocs=1 frees=0 total=65536 peak=65536 leaked=1 unmatched=0 physical=0/ unit=0;"},
		{"batch kernels: block size from Malloc block, else 64 KiB pages", []string{
			ln(1, 5, "CachingMemAllocator", "create caching memory allocator, [allocator_1]"),
			ln(2, 5, "Alloc", "Malloc block device_id:0 size:100000 allocate_size:262144 mem_addr:0x100. span addr 0x9"),
			ln(3, 5, "AllocBatchHbm", "[KernelTrace][AllocBatchHbm_x_3][MEM]Alloc memory at stream 0, block 0x1, address 0x100, size 100000, index 0"),
			ln(4, 5, "AllocBatchHbm", "[KernelTrace][AllocBatchHbm_y_4][MEM]Alloc memory at stream 0, block 0x1, address 0x900000, size 70000, index 0"),
		}, "allocator_1 allocs=2 frees=0 total=393216 peak=393216 leaked=2 unmatched=0 physical=0/ unit=0;"},
		{"no context: unknown allocator; stray free", []string{
			alloc(1, 5, "0x100", 65536), free(2, 5, "0x999"),
		}, "unknown allocs=1 frees=1 total=65536 peak=65536 leaked=1 unmatched=1 physical=0/ unit=0;"},
		{"page caching on the pool's thread is its physical size", []string{
			ln(1, 5, "CachingMemAllocator", "create caching memory allocator, [allocator_1]"),
			ln(2, 5, "Alloc", "MallocMemory, func=aclrtMalloc, size=2097152, purpose=page caching, ptr=0x100, device_id=0, module_id=45"),
			alloc(3, 5, "0x100", 65536),
		}, "allocator_1 allocs=1 frees=0 total=65536 peak=65536 leaked=1 unmatched=0 physical=2097152/page-caching unit=2097152;"},
		{"PrintDetails total size wins", []string{
			ln(1, 5, "CachingMemAllocator", "create caching memory allocator, [allocator_1]"),
			ln(2, 5, "Alloc", "MallocMemory, func=aclrtMalloc, size=2097152, purpose=page caching, ptr=0x100, device_id=0, module_id=45"),
			ln(3, 5, "[allocator_1] PrintDetails", "Device memory   : [alloc count:1 free count:0 total size:4194304(4.00M) new_va_size:0 real_theory_min:10 theory_min:65536(64.00K) reach theory rate:0.00%]"),
			ln(4, 5, "[allocator_1] PrintDetails", "Device memory   : [alloc count:1 free count:1 total size:2097152(2.00M) new_va_size:0 real_theory_min:10 theory_min:65536(64.00K) reach theory rate:0.00%]"),
		}, "allocator_1 allocs=0 frees=0 total=0 peak=0 leaked=0 unmatched=0 physical=4194304/print-details unit=2097152;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := pools(build(t, "/log/debug/plog-9.log", c.lines...)); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestPoolRowsClockAndFrees(t *testing.T) {
	rep := build(t, "/log/plog-9.log",
		ln(1, 5, "CachingMemAllocator", "create caching memory allocator, [allocator_1]"),
		ln(2, 5, "Alloc", "MallocMemory, func=aclrtMalloc, size=2097152, purpose=page caching, ptr=0x1000, device_id=0, module_id=45"),
		ln(3, 5, "AllocHbmMem", "[KernelTrace][AllocMemHbm_a_1][MEM]Alloc memory at stream 0, block 0x1, address 0x1000, size 65536, tensor size 10, index 1"),
		ln(4, 5, "FreeHbmMem", "[KernelTrace][FreeMemHbm_a_2][MEM]Free memory at stream 0, address 0x1000"),
		ln(5, 5, "[allocator_1] Free", "Free block device_id:0 theory_size_:0 theory_min_size_:65536 allock_size:65536 mem_addr:0x1000."),
		ln(6, 5, "AllocHbmMem", "[KernelTrace][AllocMemHbm_b_3][MEM]Alloc memory at stream 0, block 0x1, address 0x1000, size 65536, tensor size 20, index 1"),
	)
	p := rep.Pools[0]
	got := fmt.Sprintf("%+v|%+v", p.Rows[0], p.Rows[1])
	for _, want := range []string{"Begin:0 End:1 Cached:2097152", "KernelFree:true PoolFree:true", "Begin:1 End:4294967295"} {
		if !strings.Contains(got, want) {
			t.Errorf("rows %s: want %q", got, want)
		}
	}
	if p.Addresses != 1 || p.TopAddresses[0].Allocs != 2 {
		t.Errorf("by address: %d, %+v", p.Addresses, p.TopAddresses)
	}
}

func mallocs(rep *model.Report) string {
	var b strings.Builder
	for _, m := range rep.DeviceMalloc {
		fmt.Fprintf(&b, "%s/%d/%s=%d#%d", m.PID, m.DeviceID, m.Category, m.Bytes, m.Count)
		if m.PhysicalPeak > 0 {
			fmt.Fprintf(&b, " peak=%d", m.PhysicalPeak)
		}
		if m.Freed > 0 {
			fmt.Fprintf(&b, " freed=%d", m.Freed)
		}
		b.WriteString(";")
	}
	return b.String()
}

func TestDeviceMalloc(t *testing.T) {
	page := func(n int, ptr string) string {
		return ln(n, 5, "MallocPhysicalPage", "MallocMemory, func=aclrtMalloc, size=8388608, purpose=page caching, ptr="+ptr+", device_id=0, module_id=45")
	}
	ok := func(n, pa, cur int) string {
		return ln(n, 5, "ge::PhysicalMemoryAllocator::MallocPhysicalPage", fmt.Sprintf("rtMallocPhysical success pa_index:%d, current physical memory size:%d reuse:0, memory_type:2, pg_type:2M.", pa, cur))
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"old format: device from MemoryAllocator, then the process's only device", []string{
			ln(1, 5, "MallocMemory", "MemoryAllocator::MallocMemory device_id = 3, size= 4096"),
			ln(2, 5, "MallocMemory", "MallocMemory, func=rtMalloc, size=4096, purpose=feature map,used for op input and output."),
			ln(3, 5, "MallocMemory", "MallocMemory, func=rtMalloc, size=175000000, purpose=weights memory in inference network."),
			ln(4, 5, "MallocMemory", "MallocMemory, func=rtMalloc, size=4194304, purpose=rt2 memory pool"),
		}, "9/3/Weights=175000000#1;9/3/StaticGraph=4096#1;"},
		{"physical pages: peak of live pages, not their sum", []string{
			page(1, "0x1"), ok(2, 1, 8388608), page(3, "0x2"), ok(4, 2, 16777216),
			ln(5, 5, "ge::PhysicalMemoryAllocator::FreePhysicalPage", "aclrtFreePhysical success pa_index:1, current physical memory size:8388608, pg_type:2M"),
			page(6, "0x3"), ok(7, 3, 16777216),
			ln(8, 5, "ge::PhysicalMemoryAllocator::FreePhysicalPage", "aclrtFreePhysical success pa_index:2, current physical memory size:8388608, pg_type:2M"),
			page(9, "0x4"), ok(10, 4, 16777216),
		}, "9/0/MemoryPool=16777216#4 peak=16777216;"},
		{"pages without GE_PRINT are sized from the running total", []string{
			ok(1, 1, 2097152), ok(2, 2, 6291456),
			ln(3, 5, "ge::PhysicalMemoryAllocator::MallocPhysicalPage", "rtMallocPhysical success pa_index:2, current physical memory size:6291456 reuse:1, memory_type:2, pg_type:2M."),
		}, "9/-1/Other=6291456#2 peak=6291456;"},
		{"page caching given back", []string{
			ln(1, 5, "Alloc", "MallocMemory, func=aclrtMalloc, size=2097152, purpose=page caching, ptr=0x100, device_id=1, module_id=45"),
			ln(2, 5, "Free", "RtMemAllocator::free device_id:1 ,size:2097152, mem_addr:0x100"),
		}, "9/1/MemoryPool=2097152#1 freed=2097152;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := mallocs(build(t, "/log/plog-9.log", c.lines...)); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestAddressesFollowTheLatestRegion(t *testing.T) {
	region := func(n int, base string) string {
		return ln(n, 5, "InitFeatureMapAndP2PMem", "[IMAS]InitFeatureMapAndP2PMem graph_1 MallocMemory type[F] memaddr["+base+"] mem_size[4096]Bytes")
	}
	addr := func(n int, a string) string {
		return ln(n, 5, "GetOutputDataAddrs", "[IMAS]graph_1 type[F] name[x] output[0] offset[16] size[16] memaddr["+a+"]")
	}
	rep := build(t, "/log/plog-9.log", addr(1, "0x20010"), region(2, "0x10000"), addr(3, "0x10010"), region(4, "0x20000"), addr(5, "0x20010"))
	ac := rep.AddressChecks[0]
	var st []string
	for _, r := range ac.Rows {
		st = append(st, r.Status)
	}
	// The first line came before any region: it takes the graph's last one.
	if fmt.Sprint(st) != "[ok ok ok]" || ac.Checked != 3 || len(rep.Regions) != 2 {
		t.Errorf("statuses %v, checked %d, regions %d", st, ac.Checked, len(rep.Regions))
	}
}

func TestDevmmAndSanity(t *testing.T) {
	devmm := func(n int, msg string) string {
		return fmt.Sprintf("[INFO] DRV(9,python3):2026-08-12-10:00:01.%03d.000 [svm_mem_statistics.c:150][ascend][curpid:9,9][drv][devmm][_svm_mem_stats_show]%s", n, msg)
	}
	rep := build(t, "/home/u/ascend/log/run/plog/plog-9.log",
		"[INFO] GE(9,python3):2026-08-12-10:00:00.001.000 [graph_mem_assigner.cc:1664][EVENT]9 SetInputOffset:[IMAS]AfterAssignMemory : g_1 memoffset[4096], memtype[2]",
		devmm(1, "MEM_DEV_HUGE_HBM dev0 Mem stats (Bytes). (module_name=GE; module_id=45; current_alloced_size=0; allocated_peak_size=100; alloc_cnt=1; free_cnt=1)"),
		devmm(2, "MEM_DEV_HUGE_HBM dev0 Mem stats (Bytes). (module_name=GE; module_id=45; current_alloced_size=0; allocated_peak_size=200; alloc_cnt=2; free_cnt=2)"),
		devmm(3, "MEM_DEV_HUGE_HBM dev0 Mem stats (Bytes). (module_name=APP; module_id=33; current_alloced_size=8; allocated_peak_size=300; alloc_cnt=2; free_cnt=1)"),
		devmm(4, "MEM_DEV_HUGE_HBM dev0 Cached_size:4096Bytes"),
	)
	var got []string
	for _, d := range rep.Devmm {
		got = append(got, fmt.Sprintf("%s/%s peak=%d leak=%v cached=%d", d.MemType, d.Module, d.Peak, d.LeakHint, d.Cached))
	}
	if want := "[MEM_DEV_HUGE_HBM/GE peak=200 leak=false cached=0 MEM_DEV_HUGE_HBM/APP peak=300 leak=true cached=0 MEM_DEV_HUGE_HBM/ peak=0 leak=false cached=4096]"; fmt.Sprint(got) != want {
		t.Errorf("devmm\n got %v\nwant %s", got, want)
	}
	s := rep.Sanity
	if s == nil || s.InfoLevel || !s.RunLog || s.Families["devmm"] != 4 || s.Families["graph-summaries"] != 1 {
		t.Fatalf("sanity %+v", s)
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "Only EVENT lines found") {
		t.Errorf("notes %q", s.Notes)
	}
}

func TestEmptyReportHasArrays(t *testing.T) {
	b := model.NewBuilder(nil)
	rep := b.Finish()
	analyze.All(rep)
	if rep.Variables == nil || rep.DeviceMalloc == nil || rep.Regions == nil || rep.AddressChecks == nil ||
		rep.Pools == nil || rep.Devmm == nil || rep.Mallocs == nil || rep.Devices == nil {
		t.Errorf("nil lists in %+v", rep)
	}
}

// The 2023 RT2 pool: the [allocator_N] Malloc block line names the pool and
// the requested size, the "Alloc memory block" trace (no stream) follows on
// the same thread, "Free memory, address" frees it; PrintDetails stops
// after total size.
func TestPool2023(t *testing.T) {
	sa := func(n, tid int, fn, msg string) string { return ln(n, tid, "[allocator_3] "+fn, msg) }
	rep := build(t, "plog-9.log",
		ln(1, 5, "Alloc", "MallocMemory, func=rtMalloc, size=65536, purpose=page caching"),
		ln(1, 5, "Alloc", "DeviceAllocator::Alloc device_id:0, size:65536, addr:0x20000"),
		sa(2, 5, "PrintDetails", "Device memory   : [alloc count:1 free count:0 total size:65536]"),
		sa(2, 5, "PrintDetails", "Using: [span count:1 page count:1 total size:65536]"),
		sa(3, 5, "Alloc", "Malloc block device_id:0 size:100 allocate_size:65536 mem_addr:0x20000."),
		ln(4, 5, "CopyH2D", "[KernelTrace][CopyH2D_g_in_7][MEM]Alloc memory block 0xaa01, address = 0x20000, size = 65536"),
		ln(5, 6, "Alloc", "MallocMemory, func=rtMalloc, size=65536, purpose=page caching"),
		sa(6, 6, "PrintDetails", "Device memory   : [alloc count:2 free count:0 total size:131072]"),
		sa(7, 6, "Alloc", "Malloc block device_id:0 size:300 allocate_size:65536 mem_addr:0x30000."),
		ln(8, 6, "AllocHbmMem", "[KernelTrace][AllocMemHbm_Add_8][MEM]Alloc memory block 0xaa02, address 0x30000, size = 65536"),
		ln(9, 6, "FreeMemory", "[KernelTrace][FreeMemory_Add_9][MEM]Free memory, address 0x30000"),
		sa(10, 6, "Free", "Free block device_id:0 allock_size:65536 mem_addr:0x30000."),
		sa(11, 6, "Alloc", "Malloc block device_id:0 size:40 allocate_size:65536 mem_addr:0x30000."),
		ln(12, 6, "AllocMemoryIfNeed", "[KernelTrace][AllocMemHbm_Out_10][MEM]Alloc memory block 0xaa02, address = 0x30000, size = 65536, as model out memory"),
		ln(13, 6, "FreeMemory", "[KernelTrace][FreeMemory_Out_11][MEM]Free memory, address 0x30000"),
		ln(14, 5, "FreeMemory", "[KernelTrace][FreeMemory_g_in_12][MEM]Free memory, address 0x20000"),
		ln(15, 5, "Free", "RtMemAllocator::free device_id:0 ,size:65536, addr:0x20000"),
		ln(15, 5, "Free", "DeviceAllocator::free device_id:0 ,size:65536, addr:0x20000"),
		ln(16, 5, "FreeBlockBins", "Free block bins."),
	)
	// Three allocations of 64 KiB blocks, at most two live at once: the
	// pool held 131072 bytes, as its PrintDetails says, in 64 KiB pages.
	if got, want := pools(rep), "allocator_3 allocs=3 frees=3 total=196608 peak=131072 leaked=0 unmatched=0 physical=131072/print-details unit=65536;"; got != want {
		t.Errorf("pools\n got %s\nwant %s", got, want)
	}
	var real []int64
	for _, r := range rep.Pools[0].Rows {
		real = append(real, r.RealSize)
	}
	if fmt.Sprint(real) != "[100 300 40]" {
		t.Errorf("requested sizes %v, want [100 300 40] (from the Malloc block lines)", real)
	}
	if len(rep.Diagnostics) != 0 || rep.DiagSummary["ignored:caching-allocator-bins"] != 1 {
		t.Errorf("diagnostics %v, counts %v", rep.Diagnostics, rep.DiagSummary)
	}
	// The first page got its address from DeviceAllocator::Alloc: its
	// RtMemAllocator::free gave it back; the second page has no address.
	var freed int64
	for _, m := range rep.DeviceMalloc {
		if m.Category == "MemoryPool" {
			freed = m.Freed
		}
	}
	if freed != 65536 || rep.Pools[0].Rows[0].Cached != 65536 {
		t.Errorf("freed %d, first block's page %d; want 65536 each", freed, rep.Pools[0].Rows[0].Cached)
	}
}

// The 2023 driver prints its statistics in the comma form, sometimes twice
// (one dump per device context): each entry counts once.
func TestDevmm2023TwiceCountsOnce(t *testing.T) {
	dump := func(ms int) []string {
		l := func(us int, msg string) string {
			return fmt.Sprintf("[EVENT] DRV(9,python):2023-01-02-03:04:05.%03d.%03d [ascend][curpid: 9, 9][drv][devmm][_devmm_mem_stats_show 152]%s", ms, us, msg)
		}
		return []string{
			l(1, "DEV_MEM dev1 mem stats(Bytes): module_name=RUNTIME, module_id=7 current_alloced_size=4096, alloced_peak_size=8192."),
			l(2, "DEV_MEM dev1 mem stats(Bytes): module_name=GE, module_id=45 current_alloced_size=0, alloced_peak_size=1048576."),
			l(3, "DEV_MEM dev1 Cached_size:2097152Bytes"),
			l(4, "HOST_MEM mem stats(Bytes): module_name=RUNTIME, module_id=7 current_alloced_size=0, alloced_peak_size=512."),
		}
	}
	rep := build(t, "run/plog/plog-9.log", append(dump(100), dump(168)...)...)
	var got []string
	for _, d := range rep.Devmm {
		got = append(got, fmt.Sprintf("%s/dev%d/%s peak=%d cur=%d cached=%d", d.MemType, d.Device, d.Module, d.Peak, d.Current, d.Cached))
	}
	want := "[DEV_MEM/dev1/RUNTIME peak=8192 cur=4096 cached=0 DEV_MEM/dev1/GE peak=1048576 cur=0 cached=0 DEV_MEM/dev1/ peak=0 cur=0 cached=2097152 HOST_MEM/dev-1/RUNTIME peak=512 cur=0 cached=0]"
	if fmt.Sprint(got) != want {
		t.Errorf("devmm\n got %v\nwant %s", got, want)
	}
}

// 2020: GE printed the offset before and after laying out the zero-copy
// blocks, then BuildModelDef's size; the graph's zero_copy is GE's.
func TestZeroCopyFromBuildLines(t *testing.T) {
	set := func(n int, node string, off, size, real int) string {
		return ln(n, 5, "SetOffsetSize", fmt.Sprintf("[IMAS]Set g_1 name[%s] output[0] offset to [%d] streamid[0] size[%d] realsize[%d] noalignsize[%d] life time begin[1] life time end[2] child[0:1:0:0] isref[0].", node, off, size, real, real-32))
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  int64
	}{
		{"include minus exclude", []string{
			ln(1, 5, "ResizeMemoryBlocks", "mem_offset_ exclude zero_copy_memory is 1024."),
			set(2, "a", 0, 1024, 1000),
			ln(3, 5, "AssignZeroCopyMemory", "mem_offset_ include zero_copy_memory is 3072."),
			set(4, "in", 1024, 2048, 2000),
			ln(5, 5, "SetInputOffset", "[IMAS]AfterAssignMemory : g_1 memoffset[3072]"),
		}, 2048},
		{"BuildModelDef wins", []string{
			set(1, "a", 0, 1024, 1000),
			ln(2, 5, "ResizeMemoryBlocks", "mem_offset_ exclude zero_copy_memory is 1024."),
			ln(3, 5, "AssignZeroCopyMemory", "mem_offset_ include zero_copy_memory is 3072."),
			ln(5, 5, "SetInputOffset", "[IMAS]AfterAssignMemory : g_1 memoffset[3072]"),
			ln(6, 5, "BuildModelDef", "For model, max_mem_offset_: 3072, zero_copy_mem_size_: 1536"),
		}, 1536},
		{"no zero-copy lines", []string{set(1, "a", 0, 1024, 1000)}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := build(t, "plog-9.log", c.lines...)
			if len(rep.Graphs) != 1 || rep.Graphs[0].Figures.ZeroCopy != c.want {
				t.Fatalf("graphs %d, zero_copy %d, want %d", len(rep.Graphs), rep.Graphs[0].Figures.ZeroCopy, c.want)
			}
		})
	}
}

// A device log with only the AICPU scheduler's CPU-side mallocs is not
// called a GE debug log.
func TestSanityCPUMallocsOnly(t *testing.T) {
	rep := build(t, "device-9.log",
		"[INFO] CCECPU(9,aicpu_scheduler):2021-01-02-03:04:05.006.007 [ae_so_manager.cc:10][LoadSo][tid:12][AICPU_PROCESSER] MallocMemory, func=new, size=64, purpose=so manager object",
		"[INFO] CCECPU(9,aicpu_scheduler):2021-01-02-03:04:05.006.008 [dump.cc:10][tid:12][AICPU_PROCESSER] MallocMemory, func=new, size=4096, purpose=data dump buffer",
	)
	s := rep.Sanity
	notes := strings.Join(s.Notes, "\n")
	if s.InfoLevel || strings.Contains(notes, "INFO-level GE statements found") || !strings.Contains(notes, "2 CCECPU (AICPU)") {
		t.Errorf("info level %v, notes %q", s.InfoLevel, s.Notes)
	}
}

// A "Free block" line frees the allocation at its address when no kernel
// trace did (a model output is freed with the caller's tensor, and only the
// pool logs it); a kernel Free before or after it is the same free. The
// summary build (rows not kept) counts the same.
func TestPoolFreeBlockFrees(t *testing.T) {
	sa := func(n int, fn, msg string) string { return ln(n, 5, "[allocator_2] "+fn, msg) }
	block := func(n int, addr string) string {
		return sa(n, "Alloc", "Malloc block device_id:0 size:100 allocate_size:65536 mem_addr:"+addr+".")
	}
	alloc := func(n int, addr string) string {
		return ln(n, 5, "AllocHbmMem", fmt.Sprintf("[KernelTrace][AllocMemHbm_op_%d][MEM]Alloc memory block 0xaa, address %s, size = 65536", n, addr))
	}
	kfree := func(n int, addr string) string {
		return ln(n, 5, "FreeMemory", "[KernelTrace][FreeMemory_op_1][MEM]Free memory, address "+addr)
	}
	pfree := func(n int, addr string) string {
		return sa(n, "Free", "Free block device_id:0 allock_size:65536 mem_addr:"+addr+".")
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"pool free alone", []string{block(1, "0x10000"), alloc(2, "0x10000"), block(3, "0x20000"), alloc(4, "0x20000"),
			pfree(5, "0x10000"), block(6, "0x30000"), alloc(7, "0x30000")},
			"allocator_2 allocs=3 frees=1 total=196608 peak=131072 leaked=2 unmatched=0 physical=0/ unit=0;"},
		{"kernel free, then pool free", []string{block(1, "0x10000"), alloc(2, "0x10000"), kfree(3, "0x10000"), pfree(4, "0x10000")},
			"allocator_2 allocs=1 frees=1 total=65536 peak=65536 leaked=0 unmatched=0 physical=0/ unit=0;"},
		{"pool free, then kernel free", []string{block(1, "0x10000"), alloc(2, "0x10000"), pfree(3, "0x10000"), kfree(4, "0x10000")},
			"allocator_2 allocs=1 frees=1 total=65536 peak=65536 leaked=0 unmatched=0 physical=0/ unit=0;"},
		{"a second kernel free is unmatched", []string{block(1, "0x10000"), alloc(2, "0x10000"), pfree(3, "0x10000"), kfree(4, "0x10000"),
			kfree(5, "0x10000")},
			"allocator_2 allocs=1 frees=1 total=65536 peak=65536 leaked=0 unmatched=0 physical=0/ unit=0;" +
				"unknown allocs=0 frees=1 total=0 peak=0 leaked=0 unmatched=1 physical=0/ unit=0;"},
		{"reused address: the pool free ends the second allocation", []string{block(1, "0x10000"), alloc(2, "0x10000"),
			kfree(3, "0x10000"), pfree(4, "0x10000"), block(5, "0x10000"), alloc(6, "0x10000"), pfree(7, "0x10000")},
			"allocator_2 allocs=2 frees=2 total=131072 peak=65536 leaked=0 unmatched=0 physical=0/ unit=0;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := pools(build(t, "plog-9.log", c.lines...)); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
			if got := pools(buildSummary(t, "plog-9.log", c.lines...)); got != c.want {
				t.Errorf("summary build\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// buildSummary is build with the builder's summary mode (no pool rows).
func buildSummary(t *testing.T, path string, lines ...string) *model.Report {
	t.Helper()
	b := model.NewBuilder([]string{path})
	b.SummaryOnly = true
	var env plog.Envelope
	for i, l := range lines {
		ok := plog.Parse([]byte(l), &env)
		b.Add(gelog.Parse(&env, ok, []byte(l), gelog.Meta{Line: int64(i + 1)}))
	}
	rep := b.Finish()
	analyze.All(rep)
	return rep
}
