package gelog

import (
	"strings"
	"testing"

	"imas/core/diag"
	"imas/core/plog"
)

// FuzzParse drives every statement parser through the one dispatch: any
// candidate line must give a record or a reject, never a panic or nil.
func FuzzParse(f *testing.F) {
	seeds := []string{
		env25 + "[IMAS]Set allreduce_graph_0 name[allreduce_op] optype[HcomAllReduce] output[0] offset to [67109376] streamid[1] memtype[2] size[67109376] realsize[67108896] noalignsize[67108864] life time begin[3] life time end[4294967294] child[0:1:0:0:1] isref[0] batch[], block_type[]",
		env20 + "[IMAS]Set ge_default name[conv1] output[0] offset to [1024] streamid[0] size[2048] realsize[1568].",
		env25 + "[IMAS]Continuous input : Set g name[add_1] optype[Add] output[0] offset to [134251520] stream_id[0] memtype[2] size[0] realsize[1024] nopadding[0]",
		env25 + "[AtomicClean][IMAS]Atomic fusion workspace : Set g_0 name[n] optype[T] workspace[0] offset to [512] stream_id[0] memtype[2] ssize[300] real_size[300] batch[].",
		env25 + "[AtomicClean][IMAS]AppendAttrsToMemSetOp : Set g atomic_node name[m] optype[MemSet] workspace[0] offset to [1 2 ] streamid[0] size[3 4 ]",
		env25 + "[IMAS]AfterAssignMemory : g_1 memoffset[100], memtype[16], theory_min[10], zero_copy[5], total_size[200], no_reuse[0], streams[2] topo_mode[DFS], mop[], io_reuse[1:0], alloc_mode[], smp[4]",
		env25 + "[IMAS]after append ws, node conv1 refresh ws from [100, 200] to [300, 400]",
		env25 + "MallocMemory, func=aclrtMalloc, size=268470272, purpose=feature map,used for op input and output, ptr=0x12c041600000, device_id=0, module_id=45",
		env25 + "[IMAS]InitFeatureMapAndP2PMem graph_0 MallocMemory type[F] memaddr[0x12c041600000] mem_size[268470272]Bytes",
		env25 + "[IMAS]graph_0 type[F] name[allreduce_op] output[0] offset[67109376] size[67108896] memaddr[0x12c045600200]",
		env25 + "[KernelTrace][AllocMemHbm_Add_1_325][MEM]Alloc memory at stream 0, block 0x55d1c2a3f0e0, address 0x12c180000800, size 65536, tensor size 544, index 1",
		"[INFO] GE(1,p):2026-08-12-10:22:01.118.497 [scalable_allocator.cc:511]2617402 [allocator_2] Alloc:Malloc block device_id:0 size:544 allocate_size:65536 mem_addr:0x12c180000800. span addr 0x55d1c29b7a40",
		env25 + "[IMAS]AssignVarMem Set session_0 name[conv1_weight] output[0] offset to [0] size[74752] realsize[73728].",
		"[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.187 [svm_mem_statistics.c:150][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]MEM_DEV_SMALL_HBM dev0 Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=28672; allocated_peak_size=118784; alloc_cnt=14; free_cnt=7)",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var e plog.Envelope
		ok := plog.Parse(line, &e)
		if !IsCandidate(line) {
			return
		}
		r := Parse(&e, ok, line, Meta{Line: 1})
		if r == nil {
			t.Fatal("nil record for a candidate line")
		}
		if ig, isIg := r.(*Ignored); isIg && !diag.Known("ignored:"+ig.What) {
			t.Fatalf("ignore rule %q is not in core/diag", ig.What)
		}
		if rj, isRej := r.(*Reject); isRej {
			if !knownReason(rj.Reason) || len(rj.Text) > 4*MaxText+4 {
				t.Fatalf("bad reject %+v", rj)
			}
			if strings.ContainsAny(rj.Text, "\x00\n\r") {
				t.Fatalf("unescaped control byte in diagnostic text %q", rj.Text)
			}
		}
	})
}
