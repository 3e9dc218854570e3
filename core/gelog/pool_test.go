package gelog

import (
	"reflect"
	"testing"

	"imas/core/plog"
)

const envKT = "[INFO] GE(2617230,python3):2026-08-12-10:22:01.118.530 [memory_kernel.cc:385]2617402 AllocHbmMem:"
const envSA = "[INFO] GE(2617230,python3):2026-08-12-10:22:01.118.497 [scalable_allocator.cc:511]2617402 "

func TestPoolStatements(t *testing.T) {
	runCases(t, []rtCase{
		{"create", "[INFO] GE(5151,python3):2026-04-24-10:00:00.933.781 [caching_mem_allocator.cc:80]5158 CachingMemAllocator:create caching memory allocator, [allocator_2]",
			"create allocator_2"},
		// a kernel-trace allocation (docs/log-formats.md#kernel-trace)
		{"AllocMemHbm", envKT + "[KernelTrace][AllocMemHbm_Add_1_325][MEM]Alloc memory at stream 0, block 0x55d1c2a3f0e0, address 0x12c180000800, size 65536, tensor size 544, index 1",
			"alloc k=AllocMemHbm_Add_1_325 t=AllocMemHbm n=Add_1 st=0 block=0x55d1c2a3f0e0 addr=0x12c180000800 size=65536 tensor=544 idx=1 req=false"},
		{"AllocBatchHbm requested size", envKT + "[KernelTrace][AllocBatchHbm_Conv_7][MEM]Alloc memory at stream 1, block 0x55d1c2a3f100, address 0x12c180010000, size 1000, index 0",
			"alloc k=AllocBatchHbm_Conv_7 t=AllocBatchHbm n=Conv st=1 block=0x55d1c2a3f100 addr=0x12c180010000 size=1000 tensor=-1 idx=0 req=true"},
		{"AllocCopyFlowHbm", envKT + "[KernelTrace][AllocCopyFlowHbm_12][MEM]Alloc memory at stream 0, block 0x1, address 0x12c180020000, size 4096, index 0",
			"alloc k=AllocCopyFlowHbm_12 t=AllocCopyFlowHbm n= st=0 block=0x1 addr=0x12c180020000 size=4096 tensor=-1 idx=0 req=true"},
		{"FileConstant alloc", envKT + "[KernelTrace][AllocMemory_fc_3][MEM]Alloc memory at stream -1, block 0x2, address 0x12c180030000, size 131072, tensor size 131000",
			"alloc k=AllocMemory_fc_3 t=AllocMemory n=fc st=-1 block=0x2 addr=0x12c180030000 size=131072 tensor=131000 idx=-1 req=false"},
		{"aicpu sequence", envKT + "[KernelTrace][AllocMemHbm_cpu_op_4][MEM]Alloc memory at stream 0, block 0x3, address 0x12c180040000, size 65536, tensor size 100, index 0, tensor data address 0x12c180040000",
			"alloc k=AllocMemHbm_cpu_op_4 t=AllocMemHbm n=cpu_op st=0 block=0x3 addr=0x12c180040000 size=65536 tensor=100 idx=0 req=false"},
		{"model out", envKT + "[KernelTrace][AllocMemHbm_out_5][MEM]Alloc memory at stream 0, block 0x4, address 0x12c180050000, size 65536, tensor size 64, index 1, as model out memory",
			"alloc k=AllocMemHbm_out_5 t=AllocMemHbm n=out st=0 block=0x4 addr=0x12c180050000 size=65536 tensor=64 idx=1 req=false out=true"},
		// a kernel-trace free
		{"FreeMemHbm", "[INFO] GE(2617230,python3):2026-08-12-10:22:01.131.004 [memory_kernel.cc:407]2617402 FreeHbmMem:[KernelTrace][FreeMemHbm_Add_1_326][MEM]Free memory at stream 0, address 0x12c180000800",
			"free k=FreeMemHbm_Add_1_326 t=FreeMemHbm n=Add_1 st=0 addr=0x12c180000800"},
		{"FreeTensorMemory", envKT + "[KernelTrace][FreeTensorMemory_x_9][MEM]Free memory at stream -1, address 0x12c180000800, tensor 0x55d1c2a3f0e0",
			"free k=FreeTensorMemory_x_9 t=FreeTensorMemory n=x st=-1 addr=0x12c180000800"},
		{"FreeBatchHbm", envKT + "[KernelTrace][FreeBatchHbmHoldAddr_y_10][MEM]Free memory at stream 2, address 0x12c180010000, index 0",
			"free k=FreeBatchHbmHoldAddr_y_10 t=FreeBatchHbmHoldAddr n=y st=2 addr=0x12c180010000"},
		{"recycle", envKT + "[KernelTrace][][MEM]Recycle memory at stream 0, address 0x12c180000800", "ignored pool-recycle"},
		{"borrow recycle", envKT + "[KernelTrace][][MEM]Borrow-recycle memory at stream 1, address 0x12c180000800, birth stream 0", "ignored pool-recycle"},
		{"wandering", envKT + "[KernelTrace][k_1][MEM]Memory wandering from stream 0 to 1, address 0x12c180000800", "ignored pool-wandering"},
		{"fixed feature", envKT + "[KernelTrace][k_1][MEM] alloc fixed_feature_memory, block: 0x1, addr: 0x2, size 4096", "ignored fixed-feature-memory"},
		{"l2 setup", envKT + "[KernelTrace][k_1][MEM]create l2 allocators, stream_num: 2, placement: device", "ignored allocator-setup"},
		{"launch trace", envKT + "[KernelTrace][LaunchKernelWithHandle_Add_1_325]Input/Output addresses: 0x12df37ff0000 0x12c180000800 , Input/Output sizes: 33619968 65568", "ignored kernel-trace"},
		{"unknown MEM trace", envKT + "[KernelTrace][k_1][MEM]Teleport memory at stream 0", "reject unrecognised: unknown [KernelTrace][MEM] statement"},
		{"alloc cut before size", envKT + "[KernelTrace][AllocMemHbm_Add_1_325][MEM]Alloc memory at stream 0, block 0x55d1c2a3f0e0, address 0x12c180000800, si",
			"reject truncated: address or size missing"},
		{"free cut", envKT + "[KernelTrace][FreeMemHbm_Add_1_326][MEM]Free memory at stream 0, addr",
			"reject truncated: address missing"},
		// pool allocator lines, tagged and untagged (docs/log-formats.md#pool-lines)
		{"Malloc block tagged", envSA + "[allocator_2] Alloc:Malloc block device_id:0 size:544 allocate_size:65536 mem_addr:0x12c180000800. span addr 0x55d1c29b7a40",
			`block a="allocator_2" free=false dev=0 size=544 alloc=65536 addr=0x12c180000800 theory=0/0`},
		{"Malloc block untagged", envSA + "Alloc:Malloc block device_id:0 size:3241 allocate_size:65536 mem_addr:0x12c1a0000000. span addr 0x55d1c29b0001",
			`block a="" free=false dev=0 size=3241 alloc=65536 addr=0x12c1a0000000 theory=0/0`},
		{"Free block", envSA + "[allocator_2] Free:Free block device_id:0 theory_size_:0 theory_min_size_:65536 allock_size:65536 mem_addr:0x12c180000800.",
			`block a="allocator_2" free=true dev=0 size=0 alloc=65536 addr=0x12c180000800 theory=0/65536`},
		{"rts Malloc block", envSA + "[rts_allocator_1] Alloc:Malloc block device_id:0 size:2097152 allocate_size:2097152 mem_addr:0x12c180000000. span addr 0x55d1c29b7000",
			`block a="rts_allocator_1" free=false dev=0 size=2097152 alloc=2097152 addr=0x12c180000000 theory=0/0`},
		{"v1 caching free", envSA + "Free:Free block size = 4096", "ignored caching-allocator-v1"},
		{"PrintDetails", envSA + "[allocator_2] PrintDetails:Device memory   : [alloc count:1 free count:0 total size:2097152(2.00M) new_va_size:0 real_theory_min:544 theory_min:65536(64.00K) reach theory rate:0.03%]",
			`details a="allocator_2" n=1/0 total=2097152 va=0 real=544 min=65536 rate=0.03%`},
		{"Malloc block cut", envSA + "Alloc:Malloc block device_id:0 size:3241 allocate_s",
			"reject truncated: mem_addr missing"},
		// the 2023 generation (CANN 6.x): no stream in the traces, "address =",
		// short Malloc/Free block lines, PrintDetails without the theory fields
		{"2023 alloc block with '='", envKT + "[KernelTrace][CopyH2D_my_graph_in_PartitionedCall_0_41][MEM]Alloc memory block 0xaaaa00001000, address = 0x10c000010000, size = 131072",
			"alloc k=CopyH2D_my_graph_in_PartitionedCall_0_41 t=CopyH2D n=my_graph_in_PartitionedCall_0 st=-1 block=0xaaaa00001000 addr=0x10c000010000 size=131072 tensor=-1 idx=-1 req=false"},
		{"2023 alloc block without '='", envKT + "[KernelTrace][AllocMemHbm_Mul_12][MEM]Alloc memory block 0xaaaa00002000, address 0x10c000030000, size = 65536",
			"alloc k=AllocMemHbm_Mul_12 t=AllocMemHbm n=Mul st=-1 block=0xaaaa00002000 addr=0x10c000030000 size=65536 tensor=-1 idx=-1 req=false"},
		{"2023 alloc model out", envKT + "[KernelTrace][AllocMemHbm_Cast_9][MEM]Alloc memory block 0xaaaa00002000, address = 0x10c000030000, size = 65536, as model out memory",
			"alloc k=AllocMemHbm_Cast_9 t=AllocMemHbm n=Cast st=-1 block=0xaaaa00002000 addr=0x10c000030000 size=65536 tensor=-1 idx=-1 req=false out=true"},
		{"2023 free", envKT + "[KernelTrace][FreeMemory_Mul_14][MEM]Free memory, address 0x10c000030000",
			"free k=FreeMemory_Mul_14 t=FreeMemory n=Mul st=-1 addr=0x10c000030000"},
		{"2023 alloc cut", envKT + "[KernelTrace][AllocMemHbm_Mul_12][MEM]Alloc memory block 0xaaaa00002000, addre",
			"reject truncated: address or size missing"},
		{"2023 Malloc block without span", envSA + "[allocator_1] Alloc:Malloc block device_id:1 size:96 allocate_size:65536 mem_addr:0x10c000030000.",
			`block a="allocator_1" free=false dev=1 size=96 alloc=65536 addr=0x10c000030000 theory=0/0`},
		{"2023 Free block without theory", envSA + "[allocator_1] Free:Free block device_id:1 allock_size:65536 mem_addr:0x10c000030000.",
			`block a="allocator_1" free=true dev=1 size=0 alloc=65536 addr=0x10c000030000 theory=0/0`},
		{"2023 PrintDetails", envSA + "[allocator_1] PrintDetails:Device memory   : [alloc count:3 free count:1 total size:131072]",
			`details a="allocator_1" n=3/1 total=131072 va=-1 real=-1 min=-1 rate=`},
		{"caching bins", envSA + "FreeBlockBins:Free block bins.", "ignored caching-allocator-bins"},
		{"PrintDetails breakdown", envSA + "[allocator_1] PrintDetails:Using: [span count:2 page count:2 total size:131072]", "ignored pool-breakdown"},
		{"PrintDetails span layers", envSA + "[allocator_1] PrintDetails:Freed span layers: [level:7, count:0]", "ignored pool-breakdown"},
		{"PrintDetails cut", envSA + "[allocator_2] PrintDetails:Device memory   : [alloc count:1 free count:0 total size:2097152(2.00M) new_va_",
			"reject truncated: new_va_size missing"},
	})
}

func TestKernelName(t *testing.T) {
	for _, c := range []struct{ in, typ, node string }{
		{"AllocMemHbm_Add_1_325", "AllocMemHbm", "Add_1"},
		{"FreeMemHbm_Sub_2", "FreeMemHbm", "Sub"},
		{"AllocMemHbm_325", "AllocMemHbm", ""},
		{"AllocMemHbm", "AllocMemHbm", ""},
		{"AllocMemHbm_layer_norm", "AllocMemHbm", "layer_norm"},
	} {
		if typ, node := KernelName(c.in); typ != c.typ || node != c.node {
			t.Errorf("KernelName(%q) = %q, %q; want %q, %q", c.in, typ, node, c.typ, c.node)
		}
	}
}

// TestBlockWordsEqualsPhrases checks the one-pass reading of block lines
// (parseBlockWords) against the general path on the usual forms and on
// lines that look like them but are not of that form: each either gives
// the general path's record or is left to it.
func TestBlockWordsEqualsPhrases(t *testing.T) {
	const sa = "[INFO] GE(2617230,python3):2026-08-12-10:22:01.118.497 [scalable_allocator.cc:511]2617402 [allocator_2] Alloc:"
	cases := []struct {
		msg  string
		fast bool // parseBlockWords reads it
	}{
		{"Malloc block device_id:0 size:5213 allocate_size:65536 mem_addr:0x12c1a0230000. span addr 0x55d1c29b1240", true},
		{"Malloc block device_id:0 size:5213 allocate_size:65536 mem_addr:0x12c1a0230000.", true},
		{"Malloc block size:5213 allocate_size:65536 mem_addr:0x12C1A0230000", true},
		{"Free block device_id:1 theory_size_:0 theory_min_size_:65536 allock_size:65536 mem_addr:0x12c1a0230000.", true},
		{"Free block device_id:0 allock_size:2097152 mem_addr:0x12c1a0230000.", true},
		{"Free block device_id:0 alloc_size:4096 mem_addr:0x1.", true},
		{"Free block mem_addr:0x1 alloc_size:4096 allock_size:8192", true},
		{"Malloc block size:1 size:2 allocate_size:3 mem_addr:0x10 mem_addr:0x20.", true},
		// left to the general path
		{"Malloc block device_id:0 size:5213 mem_addr:0x12c1a0230000.", false},            // rejected there
		{"Free block device_id:0 allock_size:65536", false},                               // rejected there
		{"Free block bins.", false},                                                       // ignored there
		{"Free block size = 1024, ptr = 0x1", false},                                      // pre-RT2 allocator
		{"Free block device_id:0 allock_size:1 mem_addr:0x1. Malloc block size:1", false}, // a Malloc block
		{"Malloc block device_id:0 size:-1 allocate_size:1 mem_addr:0x1.", false},
		{"Malloc block device_id:0 size:1 allocate_size:1 mem_addr:0x1.. span addr 0x1", false},
		{"Malloc block device_id:0 size:1 allocate_size:1 mem_addr:0x1. span addr 0x1 [KernelTrace][k][MEM]Free memory, address 0x1", false},
		{"Malloc block device_id:0 size: 1 allocate_size:1 mem_addr:0x1.", false},
		{"Malloc block device_id:0 size:1,allocate_size:1 mem_addr:0x1.", false},
		{"Malloc block device_id:0 size:1 allocate_size:1 mem_addr:0x1. ", true},
		{"Malloc block device_id:0 size:1 allocate_size:1 mem_addr:0x1. create caching memory allocator, [allocator_3]", false},
		{"Malloc block device_id:0 size:1 xsize:1 allocate_size:1 mem_addr:0x1.", false},
		{"Malloc block device_id:0 size:1 allocate_size:1 mem_addr:0x12345678901234567.", false},
		{"Malloc block device_id:0 size:1234567890123456789 allocate_size:1 mem_addr:0x1.", false},
		{"Free block device_id:0 allock_size:1 mem_addr:0x1. span addr 0x1", false},
	}
	for _, c := range cases {
		line := []byte(sa + c.msg)
		var env plog.Envelope
		if !plog.Parse(line, &env) {
			t.Fatalf("envelope not parsed: %q", line)
		}
		if got := parseBlockWords(&env, env.Msg, Meta{}, nil) != nil; got != c.fast {
			t.Errorf("%q: read in one pass = %v, want %v", c.msg, got, c.fast)
		}
		checkBlockWords(t, line)
	}
}

// checkBlockWords fails when parseBlockWords reads line (a plog line)
// other than the general path does.
func checkBlockWords(t *testing.T, line []byte) {
	t.Helper()
	var env plog.Envelope
	if !plog.Parse(line, &env) {
		return
	}
	m := Meta{File: 1, Line: 7}
	fast := parseBlockWords(&env, env.Msg, m, nil)
	if fast == nil {
		return
	}
	if slow := parsePoolPhrases(&env, env.Msg, m, line, nil); !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q:\none pass %#v\ngeneral  %#v", line, fast, slow)
	}
	var sc Scratch
	if into := parseBlockWords(&env, env.Msg, m, &sc); into != Record(&sc.Block) || !reflect.DeepEqual(into, fast) {
		t.Fatalf("%q: parsed into the scratch %#v, want %#v", line, into, fast)
	}
}
