package core

import (
	"testing"

	"imas/core/diag"
)

func TestNotRecordRule(t *testing.T) {
	for _, tc := range []struct {
		line, rule string
	}{
		{"[INFO] RUNTIME(4242,train):2024-02-03-10:11:12.131.415 [logger.cc:12]4243 DevMalloc:Device memory alloc ok, size=8192, type=2, ptr=0x10000",
			diag.NotRecordRuntimeAlloc},
		{"[INFO] RUNTIME(4242,train):2024-02-03-10:11:12.131.415 [logger.cc:13]4243 ManagedMemFree:managed memory free. mem = 0x20000",
			diag.NotRecordRuntimeAlloc},
		{"[INFO] ASCENDCL(4242,train):2024-02-03-10:11:12.131.415 [memory.cpp:40]4242 aclrtMallocHost: start to execute aclrtMallocHost, size = 96",
			diag.NotRecordRuntimeAlloc},
		{"[EVENT] ASCENDCL(4242,train):2024-02-03-10:11:12.131.415 [stat.cpp:9]4242 TraverseStatistics: The ResourceType:ACL_STATISTICS_MALLOC_FREE, applyTotal = 7, applySucc = 7",
			diag.NotRecordACLStatistics},
		{"[INFO] RUNTIME(4242,train):2024-02-03-10:11:12.131.415 [device.cc:5]4242 Start:new Stream ok, Runtime_alloc_size 1024",
			diag.NotRecordRuntimeObject},
		{"[INFO] RUNTIME(4242,train):2024-02-03-10:11:12.131.415 [stream.cc:5]4242 FreeStreamId:free stream_id=12, sq_id=3, cq_id=1.",
			diag.NotRecordRuntimeResource},
		{"[INFO] RUNTIME(4242,train):2024-02-03-10:11:12.131.415 [engine.cc:5] 4243 SubmitTask: stream_id=4, task_id=9, task_type=5 (MEMCPY_ASYNC)",
			diag.NotRecordRuntimeTask},
		{"[INFO] GE(4242,train):2024-02-03-10:11:12.131.415 [executor.cc:5]4243 CheckFreeMemory:Graph[3] need memory_size[1024], weight_size[0], Device[0] free_memory_size[4096]",
			diag.NotRecordCapacity},
		{"[INFO] GE(4242,train):2024-02-03-10:11:12.131.415 [pass.cc:5]4243 Run:[GEPERFTRACE] The time cost of Stage::MemcpyAddrAsyncPass is [12] micro second.",
			diag.NotRecordTiming},
		{"[WARNING] GE(4242,train):2024-02-03-10:11:12.131.415 [factory.cc:5]4242 RegisterInferShapeFunc:op [BatchSize] has registered infer func",
			diag.NotRecordOpRegistry},
		{"[INFO] GE(4242,train):2024-02-03-10:11:12.131.415 [partition.cc:5]4243 PartitionSubGraph:Graph Partition starts, graph nodes size is 9",
			diag.NotRecordGraphBuild},
		{"[INFO] GE(4242,train):2024-02-03-10:11:12.131.415 [block_mem_assigner.cc:5]4243 GetNodeWorkSpaceSize:node[conv1] size:2048",
			diag.NotRecordAssignerTrace},
		{"[INFO] GE(4242,train):2024-02-03-10:11:12.131.415 [zero_copy_task.cc:5]4243 SetOriginalArgs:[ZCPY] relu set info from virtual_addr: 0x30000, args_addr: 0x40000, args size: 16",
			diag.NotRecordLoadTrace},
		{"[INFO] GE(4242,train):2024-02-03-10:11:12.131.415 [caching_allocator.cc:5]4243 PrintStatics:Called counts[malloc: 3 free: 3].",
			diag.NotRecordAllocatorCare},
		{"[INFO] GE(4242,train):2024-02-03-10:11:12.131.415 [caching_mem_allocator.cc:5]4243 Malloc:Malloc size:4096.",
			diag.NotRecordPoolRequest},
		{"[INFO] IDEDD(4242,train):2024-02-03-10:11:12.131.415 [dump_operator.cpp:5][tid:4243] [AIC_INFO] output:0;shape:[8];format:ND;dtype:DT_FLOAT;addr:0x50000;size:32 bytes",
			diag.NotRecordDump},
		{"[ERROR] HCCL(4242,train):2024-02-03-10:11:12.131.415 [hccl_mem.cc:5] [4243][RegMem]register buffer failed, size[65536].",
			diag.NotRecordFailure},
		{"ERROR 02-03 10:11:12 [worker.py:9]         Possible Cause: Available memory is insufficient.",
			diag.NotRecordErrorText},
		{"[INFO] CCECPU(4242,aicpu_scheduler):2024-02-03-10:11:12.131.415 [dump_task.cpp:5][LoadOpMappingInfo][tid:4243] Load op mapping info, size[128].",
			diag.NotRecordAICPU},
		{"[INFO] FE(4242,train):2024-02-03-10:11:12.131.415 [tensorsize_calculator.cpp:5]4243 CalculateOpTensorSize:\"FE -- get tensor_actual_size : [64],[0]\"",
			diag.NotRecordOpCompiler},
		{"[INFO] KERNEL(17,sklogd):2024-02-03-10:11:12.131.415 [klogd.c:5][99.12]  [devmm] [devmm_destory_all_self_mem_by_proc 10] <train:4242,4243> page statistics: alloc_page_cnt=2,free_page_cnt=2",
			diag.NotRecordDriver},
		{"[INFO] TDT(4242,train):2024-02-03-10:11:12.131.415 [hdc_common.cpp:5][InitMsgSize][tid:4242] msgMaxSize_ = 1024",
			diag.NotRecordTransport},
		// An ERROR line about a want of memory is not explained by its
		// level: a memory-error form imas does not read is left over.
		{"[ERROR] GE(4242,train):2024-02-03-10:11:12.131.415 [alloc.cc:5]4243 NewAlloc:alloc 4096 bytes failed, out of memory", ""},
		{"[ERROR] RUNTIME(4242,train):2024-02-03-10:11:12.131.415 [err.cc:5]4243 FuncErrorReason:rtMalloc execute failed, reason=[driver error:out of memory]",
			diag.NotRecordFailure},
		// A GE line of no known form is left to the accounting, not
		// explained by the module alone.
		{"[INFO] GE(4242,train):2024-02-03-10:11:12.131.415 [new.cc:5]4243 SomethingNew:memory size 4096", ""},
		// A function name shared by two modules is read by module.
		{"[INFO] RUNTIME(4242,train):2024-02-03-10:11:12.131.415 [rts_ops.cc:5]4243 CalcOpRunningParam:[Node: NetOutput] output size=0.",
			diag.NotRecordGraphBuild},
		// The pool request phrase is needed besides the function.
		{"[INFO] GE(4242,train):2024-02-03-10:11:12.131.415 [x.cc:5]4243 Malloc:memory of 4096 bytes", ""},
	} {
		if got := NotRecordRule([]byte(tc.line)); got != tc.rule {
			t.Errorf("NotRecordRule(%.90s...) = %q, want %q", tc.line, got, tc.rule)
		}
	}
}

// TestNotRecordRows: every form names a not-record row of core/diag, and
// every such row has a form.
func TestNotRecordRows(t *testing.T) {
	used := map[string]bool{}
	for _, f := range notRecordForms {
		r, ok := diag.Lookup(f.rule)
		if !ok || r.Class != diag.NotRecord {
			t.Errorf("form rule %q is not a not-record row of core/diag", f.rule)
		}
		used[f.rule] = true
	}
	for _, name := range diag.OfClass(diag.NotRecord) {
		if !used[name] {
			t.Errorf("not-record row %q has no form in notRecordForms", name)
		}
	}
}
