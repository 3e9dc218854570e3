package core

import (
	"bytes"
	"reflect"
	"testing"

	"imas/core/gelog"
	"imas/core/input"
	"imas/core/plog"
)

// TestChunkRecordsOwnTheirText: the records a chunk keeps for the lines
// parsed into the worker's scratch (pool traces, blocks, operator
// addresses) hold no byte of the read buffer, which is reused once the
// chunk is parsed: overwritten, the records still equal those parsed from
// a copy of each line.
func TestChunkRecordsOwnTheirText(t *testing.T) {
	const env = "[INFO] GE(610001,python3):2026-02-20-10:00:17.396.789 [x.cc:1]610061 "
	lines := []string{
		env + "AllocHbmMem:[KernelTrace][AllocMemHbm_Add_17_2440][MEM]Alloc memory at stream 0, block 0x55d1c2a31240, address 0x12c1a0230000, size 65536, tensor size 5213, index 1",
		env + "FreeHbmMem:[KernelTrace][FreeMemHbm_Add_2441][MEM]Free memory at stream 0, address 0x12c1a0230000",
		env + "[allocator_2] Alloc:Malloc block device_id:0 size:5213 allocate_size:65536 mem_addr:0x12c1a0230000. span addr 0x55d1c29b1240",
		env + "[allocator_2] Free:Free block device_id:0 theory_size_:0 theory_min_size_:65536 allock_size:65536 mem_addr:0x12c1a0230000.",
		env + "GetWorkspaceDataAddrs:[IMAS]graph_1 type[F] name[realdiv_8] workspace[0] offset[2080256] size[148160] memaddr[0x12c2e71fbe00]",
		env + "MallocMemory:MallocMemory, func=aclrtMalloc, size=32522752, purpose=feature map,used for op input and output, ptr=0x12c23d600000, device_id=0, module_id=45",
		env + "AssignVarMem:[IMAS]AssignVarMem Set session_0 name[conv1_weight] output[0] offset to [0] size[74752] realsize[73728].",
		"[INFO] DRV(610001,python3):2026-02-20-10:00:17.396.789 [svm_mem_statistics.c:150][ascend][curpid:610001,610061][drv][devmm][_svm_mem_stats_show]DEV_MEM dev0 Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=4096; allocated_peak_size=8192; alloc_cnt=3; free_cnt=3)",
		env + "SetInputOffset:[IMAS]AfterAssignMemory : g_1 memoffset[1024], memtype[2], theory_min[512], streams[1]",
	}
	data := []byte(joinLines(lines))
	var sc chunkScratch
	r := parseChunk(&input.Chunk{Data: data}, 0, 64<<10, &sc)
	for i := range data {
		data[i] = 'x'
	}
	if len(r.records) != len(lines) {
		t.Fatalf("%d records, want %d", len(r.records), len(lines))
	}
	kept := 0
	for i, rec := range r.records {
		line := []byte(lines[i])
		var e plog.Envelope
		ok := plog.Parse(line, &e)
		want := gelog.Parse(&e, ok, line, *gelog.M(rec))
		if !reflect.DeepEqual(rec, want) {
			t.Errorf("line %d:\n got %+v\nwant %+v", i+1, rec, want)
		}
		switch rec.(type) {
		case *gelog.PoolAlloc, *gelog.PoolFree, *gelog.PoolBlock, *gelog.OpAddress, *gelog.DeviceMalloc, *gelog.VarAssign, *gelog.DevmmStat:
			kept++
		}
	}
	if kept != 8 {
		t.Errorf("%d of the records came from the scratch, want 8", kept)
	}
}

func joinLines(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
