package gelog

import "testing"

const envMalloc = "[INFO] GE(2617230,python3):2026-08-12-10:21:35.004.198 [graph_mem_allocator.cc:78]2617230 MallocMemory:"
const envPage = "[INFO] GE(2617230,python3):2026-08-12-10:22:05.770.301 [active_memory_allocator.cc:1135]2617402 MallocPhysicalPage:"
const envHP = "[INFO] GE(2617230,python3):2026-08-12-10:22:05.770.322 [active_memory_allocator.cc:1137]2617402 ge::PhysicalMemoryAllocator::MallocPhysicalPage:"

func TestDeviceMalloc(t *testing.T) {
	runCases(t, []rtCase{
		// a purpose with a comma, and the ptr/device_id/module_id tail
		// (docs/log-formats.md#device-mallocs)
		{"HEAD feature map", envMalloc + "MallocMemory, func=aclrtMalloc, size=268470272, purpose=feature map,used for op input and output, ptr=0x12c041600000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=MallocMemory size=268470272 purpose="feature map,used for op input and output" ptr=0x12c041600000/true dev=0 mod=45 cat=StaticGraph counted=true phys=false`},
		{"old feature map with period", envMalloc + "MallocMemory, func=rtMalloc, size=6141440, purpose=feature map,used for op input and output.",
			`malloc f=rtMalloc caller=MallocMemory size=6141440 purpose="feature map,used for op input and output." ptr=0x0/false dev=-1 mod=-1 cat=StaticGraph counted=true phys=false`},
		{"purpose with ', ' and a tail", envMalloc + "MallocMemory, func=aclrtMalloc, size=4096, purpose=platform info memory, used for tiling sink, ptr=0x12c000001000, device_id=3, module_id=45",
			`malloc f=aclrtMalloc caller=MallocMemory size=4096 purpose="platform info memory, used for tiling sink" ptr=0x12c000001000/true dev=3 mod=45 cat=davinci_model_load counted=true phys=false`},
		{"p2p purpose, old", envMalloc + "MallocMemory, func=rtMalloc, size=1048576, purpose=p2p memory, used for some op related to hcom or session scope memory",
			`malloc f=rtMalloc caller=MallocMemory size=1048576 purpose="p2p memory, used for some op related to hcom or session scope memory" ptr=0x0/false dev=-1 mod=-1 cat=StaticGraph counted=true phys=false`},
		{"MallocExMem memory type name", envMalloc + "MallocMemory, func=aclrtMalloc, size=2048000, purpose=RT_MEMORY_P2P_DDR, ptr=0x12c000200000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=MallocMemory size=2048000 purpose="RT_MEMORY_P2P_DDR" ptr=0x12c000200000/true dev=0 mod=45 cat=StaticGraph counted=true phys=false`},
		{"fixed feature base", envMalloc + "MallocMemory, func=aclrtMalloc, size=2097152, purpose=RT_MEMORY_HBM fixed feature base, ptr=0x12c000400000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=MallocMemory size=2097152 purpose="RT_MEMORY_HBM fixed feature base" ptr=0x12c000400000/true dev=0 mod=45 cat=StaticGraph counted=true phys=false`},
		// the RT2 process-wide pool's page caching
		{"page caching", "[INFO] GE(2617230,python3):2026-08-12-10:22:01.118.470 [device_allocator.cc:62]2617402 Alloc:MallocMemory, func=aclrtMalloc, size=2097152, purpose=page caching, ptr=0x12c180000000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=Alloc size=2097152 purpose="page caching" ptr=0x12c180000000/true dev=0 mod=45 cat=MemoryPool counted=true phys=false`},
		// an expandable allocator's physical page (docs/log-formats.md#expandable)
		{"physical page", envPage + "MallocMemory, func=aclrtMalloc, size=8388608, purpose=page caching, ptr=0x12c200000000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=MallocPhysicalPage size=8388608 purpose="page caching" ptr=0x12c200000000/true dev=0 mod=45 cat=MemoryPool counted=true phys=true`},
		{"Memory for caching, old period", envMalloc + "MallocMemory, func=rtMalloc, size=33554432, purpose=Memory for caching.",
			`malloc f=rtMalloc caller=MallocMemory size=33554432 purpose="Memory for caching." ptr=0x0/false dev=-1 mod=-1 cat=MemoryPool counted=true phys=false`},
		{"variables HEAD", envMalloc + "MallocMemory, func=aclrtMalloc, size=25549824, purpose=Auto malloc var and constant op memory, ptr=0x12c100000000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=MallocMemory size=25549824 purpose="Auto malloc var and constant op memory" ptr=0x12c100000000/true dev=0 mod=45 cat=Variable counted=true phys=false`},
		{"variables old", envMalloc + "MallocMemory, func=rtMalloc, size=15947776, purpose=variables and constant op memory in training network.",
			`malloc f=rtMalloc caller=MallocMemory size=15947776 purpose="variables and constant op memory in training network." ptr=0x0/false dev=-1 mod=-1 cat=Variable counted=true phys=false`},
		{"rdma pool", envMalloc + "MallocMemory, func=aclrtMalloc, size=1073741824, purpose=Memory for rdma pool, ptr=0x12c500000000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=MallocMemory size=1073741824 purpose="Memory for rdma pool" ptr=0x12c500000000/true dev=0 mod=45 cat=Variable counted=true phys=false`},
		{"weights", envMalloc + "MallocMemory, func=aclrtMalloc, size=137000000, purpose=weights memory in inference network, ptr=0x12c300000000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=MallocMemory size=137000000 purpose="weights memory in inference network" ptr=0x12c300000000/true dev=0 mod=45 cat=Weights counted=true phys=false`},
		{"fileconstant weights", envMalloc + "MallocMemory, func=aclrtMalloc, size=4096000, purpose=fileconstant memory in inference network, ptr=0x12c310000000, device_id=1, module_id=45",
			`malloc f=aclrtMalloc caller=MallocMemory size=4096000 purpose="fileconstant memory in inference network" ptr=0x12c310000000/true dev=1 mod=45 cat=Weights counted=true phys=false`},
		{"single-op weights", envMalloc + "MallocMemory, func=aclrtMalloc, size=8192, purpose=malloc weights memory on model execute., ptr=0x12c320000000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=MallocMemory size=8192 purpose="malloc weights memory on model execute." ptr=0x12c320000000/true dev=0 mod=45 cat=Weights counted=true phys=false`},
		{"davinci_model_load", "[INFO] GE(2617230,python3):2026-08-12-10:21:35.185.528 [davinci_model.cc:99]2617230 Malloc:MallocMemory, func=aclrtMalloc, size=2097152, purpose=davinci_model_load, ptr=0x12c310000000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=Malloc size=2097152 purpose="davinci_model_load" ptr=0x12c310000000/true dev=0 mod=45 cat=davinci_model_load counted=true phys=false`},
		{"dump: other", envMalloc + "MallocMemory, func=aclrtMalloc, size=4096, purpose=load dump information., ptr=0x12c330000000, device_id=0, module_id=45",
			`malloc f=aclrtMalloc caller=MallocMemory size=4096 purpose="load dump information." ptr=0x12c330000000/true dev=0 mod=45 cat=Other counted=true phys=false`},
		// not device mallocs: parsed, not counted
		{"rt2 memory pool", "[INFO] GE(2617230,python3):2026-08-12-10:21:35.185.623 [rts_caching_mem_allocator.h:34]2617230 Malloc:MallocMemory, func=rtMalloc, size=4194304, purpose=rt2 memory pool",
			`malloc f=rtMalloc caller=Malloc size=4194304 purpose="rt2 memory pool" ptr=0x0/false dev=-1 mod=-1 cat=sub-allocation counted=false phys=false`},
		{"AllocatorMalloc", envMalloc + "MallocMemory, func=AllocatorMalloc, size=65536, purpose=malloc feature map memory on model execute.",
			`malloc f=AllocatorMalloc caller=MallocMemory size=65536 purpose="malloc feature map memory on model execute." ptr=0x0/false dev=-1 mod=-1 cat=sub-allocation counted=false phys=false`},
		{"host malloc", "[INFO] GE(2617230,python3):2026-08-12-10:21:35.185.722 [file_saver.cc:255]2617230 SaveToFile:MallocMemory, func=malloc, size=45666666, purpose=File buffer.",
			`malloc f=malloc caller=SaveToFile size=45666666 purpose="File buffer." ptr=0x0/false dev=-1 mod=-1 cat=host counted=false phys=false`},
		{"host new", envMalloc + "MallocMemory, func=new, size=4096, purpose=cce task physical memory.",
			`malloc f=new caller=MallocMemory size=4096 purpose="cce task physical memory." ptr=0x0/false dev=-1 mod=-1 cat=host counted=false phys=false`},
		{"cut before purpose", envMalloc + "MallocMemory, func=aclrtMalloc, size=4096",
			"reject truncated: purpose= missing"},
		{"bad size", envMalloc + "MallocMemory, func=aclrtMalloc, size=4k, purpose=page caching",
			"reject bad-number: size is not a number"},
	})
}

func TestAllocatorCalls(t *testing.T) {
	runCases(t, []rtCase{
		{"MemoryAllocator malloc HEAD", envMalloc + "MemoryAllocator::MallocMemory device_id = 0, size= 268470272.",
			"allocator MemoryAllocator malloc dev=0 size=268470272 used=-1"},
		{"MemoryAllocator malloc old", envMalloc + "MemoryAllocator::MallocMemory device_id = 1, size= 6141440",
			"allocator MemoryAllocator malloc dev=1 size=6141440 used=-1"},
		{"free by address", "[INFO] GE(7,python3):2026-08-12-10:30:00.000.001 [graph_mem_allocator.cc:84]7 FreeMemory:MemoryAllocator::FreeMemory device_id = 0.",
			"allocator MemoryAllocator free dev=0 size=0 used=-1"},
		{"free by key", "[INFO] GE(7,python3):2026-08-12-10:30:00.000.001 [graph_mem_allocator.cc:175]7 FreeMemory:MemoryAllocator::FreeMemory device_id = 2",
			"allocator MemoryAllocator free dev=2 size=0 used=-1"},
		{"kept", "[DEBUG] GE(7,python3):2026-08-12-10:30:00.000.001 [graph_mem_allocator.cc:170]7 FreeMemory:MemoryAllocator::FreeMemory memory_key[var_0] should not be released, reference count 2",
			"allocator MemoryAllocator kept dev=-1 size=0 used=-1"},
		{"active malloc", envMalloc + "ActiveMemoryAllocator::MallocMemory device_id = 0, size = 8388608 used_count = 3.",
			"allocator ActiveMemoryAllocator malloc dev=0 size=8388608 used=3"},
		{"active physical", envMalloc + "ActiveMemoryAllocator::MallocPhysicalMemory memory_size:16777216 device_id = 0 memory_type = 2",
			"allocator ActiveMemoryAllocator physical dev=0 size=16777216 used=-1"},
		{"active free", envMalloc + "ActiveMemoryAllocator::FreeMemory used_count = 0 device_id = 0 memory_type = 2",
			"allocator ActiveMemoryAllocator free dev=0 size=0 used=0"},
		{"active recycle", envMalloc + "ActiveMemoryAllocator::Recycle recycle physical memory",
			"allocator ActiveMemoryAllocator recycle dev=-1 size=0 used=-1"},
		{"failed", "[ERROR] GE(7,python3):2026-08-12-10:21:35.004.198 [graph_mem_allocator.cc:72]7 MallocMemory:[Malloc][Memory] failed, device_id = 0, size= 1073741824",
			"allocator MemoryAllocator failed dev=0 size=1073741824 used=-1"},
		{"unknown statement", envMalloc + "MemoryAllocator::Resize device_id = 0",
			"reject unrecognised: unknown MemoryAllocator statement"},
		// lines that allocate nothing, by named rules
		{"initialize", envMalloc + "MemoryAllocator::Initialize", "ignored allocator-lifecycle"},
		{"initialize with period", envMalloc + "MemoryAllocator::Initialize.", "ignored allocator-lifecycle"},
		{"finalize", envMalloc + "MemoryAllocator::Finalize", "ignored allocator-lifecycle"},
		{"key lookup miss", "[WARNING] GE(7,python3):2021-05-06-07:08:09.100.200 [graph_mem_allocator.cc:140]7 GetMemoryAddr:MemoryAllocator::GetMemoryAddr failed, memory_key[42] was not exist, device_id = 1.",
			"ignored memory-key-miss"},
		{"key lookup other", envMalloc + "MemoryAllocator::GetMemoryAddr memory_key[42]",
			"reject unrecognised: unknown MemoryAllocator statement"},
		{"cut before size", envMalloc + "MemoryAllocator::MallocMemory device_id = 0, si",
			"reject truncated: size= missing"},
	})
}

func TestPhysicalPagesAndFacts(t *testing.T) {
	runCases(t, []rtCase{
		// an expandable allocator's rtMallocPhysical line
		{"rtMallocPhysical", envHP + "rtMallocPhysical success pa_index:6, current physical memory size:58720256 reuse:0, memory_type:2, pg_type:2M.",
			"page free=false pa=6 cur=58720256 reuse=false mt=2 pg=2M"},
		{"aclrtFreePhysical", "[INFO] GE(2617230,python3):2026-08-12-10:22:09.000.000 [active_memory_allocator.cc:1094]2617402 ge::PhysicalMemoryAllocator::FreePhysicalPage:aclrtFreePhysical success pa_index:6, current physical memory size:50331648, pg_type:2M",
			"page free=true pa=6 cur=50331648 reuse=false mt=-1 pg=2M"},
		{"page cut", envHP + "rtMallocPhysical success pa_index:6, curr",
			"reject truncated: current physical memory size missing"},
		{"RtMemAllocator::free", "[INFO] GE(7,python3):2026-08-12-10:30:00.000.001 [device_allocator.cc:80]9 Free:RtMemAllocator::free device_id:0 ,size:2097152, mem_addr:0x12c180000000",
			"devfree dev=0 size=2097152 addr=0x12c180000000"},
		{"RtMemAllocator::free 2023 addr", "[INFO] GE(7,python3):2023-02-03-04:05:06.000.001 [device_allocator.cc:67]9 Free:RtMemAllocator::free device_id:1 ,size:131072, addr:0x10c000010000",
			"devfree dev=1 size=131072 addr=0x10c000010000"},
		{"DeviceAllocator alloc", "[INFO] GE(7,python3):2023-02-03-04:05:06.000.001 [device_allocator.cc:29]9 Alloc:DeviceAllocator::Alloc device_id:1, size:131072, addr:0x10c000010000",
			"pageaddr dev=1 size=131072 addr=0x10c000010000"},
		{"DeviceAllocator free", "[INFO] GE(7,python3):2023-02-03-04:05:06.000.001 [device_allocator.cc:38]9 Free:DeviceAllocator::free device_id:1 ,size:131072, addr:0x10c000010000",
			"ignored device-allocator-free"},
		{"DeviceAllocator alloc without address", "[INFO] GE(7,python3):2023-02-03-04:05:06.000.001 [device_allocator.cc:29]9 Alloc:DeviceAllocator::Alloc device_id:1, size:131072",
			"reject missing-field: addr missing"},
		{"RtMemAllocator::free without address", "[INFO] GE(7,python3):2023-02-03-04:05:06.000.001 [device_allocator.cc:67]9 Free:RtMemAllocator::free device_id:1 ,size:131072",
			"reject missing-field: mem_addr missing"},
		{"RtMemAllocator::free cut", "[INFO] GE(7,python3):2023-02-03-04:05:06.000.001 [device_allocator.cc:67]9 Free:RtMemAllocator::free device_id:1 ,size:131072, ad",
			"reject truncated: mem_addr missing"},
		{"static memory policy", "[INFO] GE(7,python3):2026-08-12-10:21:30.000.001 [graph_manager.cc:381]7 IsGeUseExtendSizeMemory:Final StaticMemoryPolicy is set to 4.",
			"fact static-memory-policy=4"},
		{"device total", "[INFO] GE(7,python3):2026-08-12-10:21:30.000.001 [graph_var_manager.cc:1010][EVENT]7 SetMemoryMallocSize:Total memory size is 65452113920",
			"fact device-total=65452113920"},
		{"device total cut", "[INFO] GE(7,python3):2026-08-12-10:21:30.000.001 [graph_var_manager.cc:1010][EVENT]7 SetMemoryMallocSize:Total memory size is",
			"reject truncated: number expected after \"Total memory size is\""},
	})
}

func TestMallocCategory(t *testing.T) {
	for _, c := range []struct{ fn, purpose, cat string }{
		{"aclrtMalloc", "feature map,used for op input and output", CatStaticGraph},
		{"aclrtMalloc", "Memory for session scope.", CatStaticGraph},
		{"aclrtMalloc", "fixed_base_expandable_memory", CatStaticGraph},
		{"aclrtMalloc", "RT_MEMORY_HOST_SVM", CatStaticGraph},
		{"aclrtMalloc", "cust platform info memory, used for tiling sink", CatModelLoad},
		{"aclrtMalloc", "args data.", CatOther},
		{"aclrtMalloc", "svm", CatOther},
		{"rtMalloc", "rt2 memory pool", CatPooled},
		{"new", "page caching", CatHost},
	} {
		if got, _ := MallocCategory(c.fn, c.purpose); got != c.cat {
			t.Errorf("MallocCategory(%q, %q) = %s, want %s", c.fn, c.purpose, got, c.cat)
		}
	}
}

// GE's zero-copy sizes: the offsets before and after the zero-copy blocks
// are laid out (2020), and BuildModelDef's size (2020 and 2023 wording).
func TestZeroCopySizes(t *testing.T) {
	const env = "[INFO] GE(31,python3):2020-11-12-13:14:15.161.718 [graph/build/memory/block_mem_assigner.cc:1476]32 "
	runCases(t, []rtCase{
		{"exclude", env + "ResizeMemoryBlocks:mem_offset_ exclude zero_copy_memory is 1536.", "zerocopy exclude=1536"},
		{"include", env + "AssignZeroCopyMemory:mem_offset_ include zero_copy_memory is 3584.", "zerocopy include=3584"},
		{"build 2020", env + "BuildModelDef:For model, max_mem_offset_: 3584, zero_copy_mem_size_: 2048", "zerocopy build=2048"},
		{"build 2023", env + "BuildModelDef:For model, max_mem_offset: 1024, host_max_mem_offset: 0, p2p_mem_size: 0, zero_copy_mem_size: 512, session_scope_mem_size: 0",
			"zerocopy build=512"},
		{"build without value", env + "BuildModelDef:For model, zero_copy_mem_size_: ", "reject missing-field: zero-copy size missing"},
		{"reuse result keeps its rule", env + "ResizeMemoryBlocks:Reuse result:g memory type:2 mem_offset exclude zero_copy_memory:1024.", "ignored reuse-result"},
	})
}
