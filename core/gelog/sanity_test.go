package gelog

import (
	"fmt"
	"testing"
)

// describeRT renders the runtime records the tests care about; other
// records fall back to describe (static_test.go).
func describeRT(r Record) string {
	switch x := r.(type) {
	case *VarAssign:
		return fmt.Sprintf("var s=%s n=%s %s[%d] off=%d addr=%#x/%v size=%d real=%d reuse=%q",
			x.Session, x.Name, x.Kind, x.Index, x.Offset, x.Addr, x.HasAddr, x.Size, x.RealSize, x.ReuseOf)
	case *DeviceMalloc:
		return fmt.Sprintf("malloc f=%s caller=%s size=%d purpose=%q ptr=%#x/%v dev=%d mod=%d cat=%s counted=%v phys=%v",
			x.Func, x.Caller, x.Size, x.Purpose, x.Ptr, x.HasPtr, x.Device, x.Module, x.Category, x.Counted, x.Physical())
	case *AllocatorCall:
		return fmt.Sprintf("allocator %s %s dev=%d size=%d used=%d", x.Class, x.Op, x.Device, x.Size, x.Used)
	case *PhysicalPage:
		return fmt.Sprintf("page free=%v pa=%d cur=%d reuse=%v mt=%d pg=%s", x.Free, x.Index, x.Current, x.Reuse, x.MemType, x.PageType)
	case *DeviceFree:
		return fmt.Sprintf("devfree dev=%d size=%d addr=%#x", x.Device, x.Size, x.Addr)
	case *ProcessFact:
		return fmt.Sprintf("fact %s=%d", x.What, x.Value)
	case *Region:
		return fmt.Sprintf("region %s g=%d %s mt=%d base=%#x size=%d rel=%v dev=%d ev=%v",
			x.Statement, x.GraphID, x.Type, x.MemType, x.Base, x.Size, x.Release, x.Device, x.EventKey != 0)
	case *OpAddress:
		return fmt.Sprintf("addr %s g=%d t=%s n=%s op=%s %s/%s[%d] off=%d size=%d data=%d addr=%#x/%v null=%v failed=%v om2=%v",
			x.Statement, x.GraphID, x.Type, x.Name, x.OpType, x.Kind, x.Variant, x.Index, x.Offset, x.Size, x.DataSize,
			x.Addr, x.HasAddr, x.Null, x.Failed, x.OM2)
	case *PoolCreate:
		return "create " + x.Allocator
	case *PoolAlloc:
		out := ""
		if x.ModelOut {
			out = " out=true"
		}
		return fmt.Sprintf("alloc k=%s t=%s n=%s st=%d block=%#x addr=%#x size=%d tensor=%d idx=%d req=%v%s",
			x.Kernel, x.KernelType, x.Node, x.Stream, x.Block, x.Addr, x.Size, x.TensorSize, x.Index, x.Requested(), out)
	case *PageAddress:
		return fmt.Sprintf("pageaddr dev=%d size=%d addr=%#x", x.Device, x.Size, x.Addr)
	case *ZeroCopySize:
		return fmt.Sprintf("zerocopy %s=%d", x.What, x.Value)
	case *PoolFree:
		return fmt.Sprintf("free k=%s t=%s n=%s st=%d addr=%#x", x.Kernel, x.KernelType, x.Node, x.Stream, x.Addr)
	case *PoolBlock:
		return fmt.Sprintf("block a=%q free=%v dev=%d size=%d alloc=%d addr=%#x theory=%d/%d",
			x.Allocator, x.Free, x.Device, x.Size, x.AllocSize, x.Addr, x.TheorySize, x.TheoryMin)
	case *PoolDetails:
		return fmt.Sprintf("details a=%q n=%d/%d total=%d va=%d real=%d min=%d rate=%s",
			x.Allocator, x.AllocCount, x.FreeCount, x.TotalSize, x.NewVASize, x.RealTheoryMin, x.TheoryMin, x.Rate)
	case *DevmmStat:
		return fmt.Sprintf("devmm %s dev=%d mod=%s/%d cur=%d peak=%d cnt=%d/%d cached=%d/%v total=%d",
			x.MemType, x.Device, x.Module, x.ModuleID, x.Current, x.Peak, x.AllocCnt, x.FreeCnt, x.Cached, x.IsCached, x.Total)
	}
	return describe(r)
}

type rtCase struct{ name, line, want string }

func runCases(t *testing.T, cases []rtCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := describeRT(parseLineAt(t, c.line, caseMeta(c.name))); got != c.want {
				t.Errorf("\n got: %s\nwant: %s", got, c.want)
			}
		})
	}
}

// A marker in the envelope only (the function token) does not make a
// statement: such lines are understood and ignored, not rejected.
func TestEnvelopeOnlyMarkers(t *testing.T) {
	runCases(t, []rtCase{
		{"MallocMemory function, other message",
			"[INFO] GE(7,python3):2026-08-12-10:21:35.004.198 [graph_mem_allocator.cc:70]7 MallocMemory:memory type 2 allocator already exists",
			"ignored envelope-marker"},
		{"physical allocator HP_LOGI line",
			"[INFO] GE(7,python3):2026-08-12-10:22:05.770.322 [active_memory_allocator.cc:1150]9 ge::PhysicalMemoryAllocator::MallocPhysicalPage:reuse self pa_index:3.",
			"ignored envelope-marker"},
		{"InitFeatureMapAndP2PMem function, zero-copy note",
			"[INFO] GE(7,python3):2026-08-12-10:21:35.004.100 [davinci_model.cc:640]7 InitFeatureMapAndP2PMem:Model 1 need 16896/317952 for feature-map without zero-copyable memory",
			"ignored envelope-marker"},
		// ...but a message that is a statement of another family is not.
		{"malloc failure in MallocMemory",
			"[ERROR] GE(7,python3):2026-08-12-10:21:35.004.198 [graph_mem_allocator.cc:72]7 MallocMemory:[Malloc][Memory] failed, device_id = 0, size= 1073741824",
			"allocator MemoryAllocator failed dev=0 size=1073741824 used=-1"},
	})
}

// Every family's Match must claim only lines that carry one of the
// Markers, or the candidate filter would never show them to it.
func TestFamiliesNeedMarkers(t *testing.T) {
	for _, c := range []string{
		"MallocMemory, func=aclrtMalloc, size=1, purpose=x", "[IMAS]graph_0 type[F]", "[KernelTrace][x]",
		"Malloc block device_id:0", "Free block device_id:0", "Device memory   : [", "create caching memory allocator, [allocator_1]",
		"virtual_active_addr_base:0x1", "rtMallocPhysical success", "aclrtFreePhysical success", "RtMemAllocator::free",
		"Final StaticMemoryPolicy is set to 0.", "Total memory size is 1", "[ascend][drv][devmm][_svm_mem_stats_show]X",
		"[svm_mem_stats_show_device_proc_mem 358]DEV_PROC_MEM", "MemoryAllocator::FreeMemory device_id = 0.",
		"InitFeatureMapAndP2PMem graph_0 MallocMemory type[F]",
	} {
		if !IsCandidate([]byte(c)) {
			t.Errorf("%q is claimed by a family but carries no marker", c)
		}
	}
}
