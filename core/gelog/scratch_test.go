package gelog

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"imas/core/plog"
)

// scratchLines are the statements ParseScratch parses into its Scratch,
// one per form, with the record type each must give.
var scratchLines = []struct {
	name, line string
	want       reflect.Type
}{
	{"set", benchSetLine, reflect.TypeFor[*SetRow]()},
	{"trace-alloc", fzEnvKT + "[KernelTrace][AllocMemHbm_Add_1_325][MEM]Alloc memory at stream 0, block 0x55d1c2a3f0e0, address 0x12c180000800, size 65536, tensor size 544, index 1", reflect.TypeFor[*PoolAlloc]()},
	{"trace-alloc-model-out", fzEnvKT + "[KernelTrace][AllocMemHbm_Add_1_325][MEM]Alloc memory at stream 1, block 0x55d1c2a3f0e0, address 0x12c180000800, size 65536, as model out memory", reflect.TypeFor[*PoolAlloc]()},
	{"trace-free", fzEnvKT + "[KernelTrace][FreeMemHbm_Add_1_326][MEM]Free memory at stream 0, address 0x12c180000800, tensor 0x55d1c2a3f0e0, index 1", reflect.TypeFor[*PoolFree]()},
	{"trace-free-2023", fzEnvKT + "[KernelTrace][FreeMemHbm_326][MEM]Free memory, address 0x12c180000800", reflect.TypeFor[*PoolFree]()},
	{"malloc-block", fzEnvSA + "Malloc block device_id:0 size:5213 allocate_size:65536 mem_addr:0x12c1a0230000. span addr 0x55d1c29b1240", reflect.TypeFor[*PoolBlock]()},
	{"malloc-block-untagged", strings.Replace(fzEnvSA, "[allocator_2] ", "", 1) + "Malloc block device_id:0 size:5213 allocate_size:65536 mem_addr:0x12c1a0230000. span addr 0x55d1c29b1240", reflect.TypeFor[*PoolBlock]()},
	{"op-address", fzEnvAddr + "[IMAS]graph_1 type[F] name[realdiv_8] workspace[0] offset[2080256] size[148160] memaddr[0x12c2e71fbe00]", reflect.TypeFor[*OpAddress]()},
	{"op-address-get", fzEnvAddr + "[IMAS]GetInputDataAddrs graph_0 type[C] name[matmul] input[1] size[4096] memaddr[0x12c300001000]", reflect.TypeFor[*OpAddress]()},
	{"malloc", fzEnvMem + "MallocMemory, func=aclrtMalloc, size=32522752, purpose=feature map,used for op input and output, ptr=0x12c23d600000, device_id=0, module_id=45", reflect.TypeFor[*DeviceMalloc]()},
	{"variable", fzEnv25 + "[IMAS]AssignVarMem Set session_0 name[conv1_weight] output[0] offset to [0] size[74752] realsize[73728].", reflect.TypeFor[*VarAssign]()},
	{"devmm", fzEnvDRV + "_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=44138496; alloced_peak_size=44138496; alloc_cnt=18; free_cnt=0)", reflect.TypeFor[*DevmmStat]()},
	{"devmm-cached", fzEnvDRV + "_svm_mem_stats_show]HOST_MEM Cached_size:12582912Bytes", reflect.TypeFor[*DevmmStat]()},
	{"free-block", fzEnvSA + "Free block device_id:0 theory_size_:0 theory_min_size_:65536 allock_size:65536 mem_addr:0x12c1a0230000.", reflect.TypeFor[*PoolBlock]()},
}

// TestScratchAllocatesNothing: a line of each statement ParseScratch
// covers, envelope included, costs no allocation.
func TestScratchAllocatesNothing(t *testing.T) {
	var env plog.Envelope
	var sc Scratch
	for _, c := range scratchLines {
		line := []byte(c.line)
		var got Record
		allocs := testing.AllocsPerRun(100, func() {
			ok := plog.Parse(line, &env)
			got = ParseScratch(&env, ok, line, Meta{}, &sc)
		})
		if reflect.TypeOf(got) != c.want {
			t.Fatalf("%s: got %T, want %v", c.name, got, c.want)
		}
		if allocs != 0 {
			t.Errorf("%s: %v allocations a line, want none", c.name, allocs)
		}
	}
}

// TestScratchEqualsParse: what ParseScratch gives for a line equals what
// Parse gives, for the covered forms and every seed line of the families.
func TestScratchEqualsParse(t *testing.T) {
	lines := append([]string(nil), fzSeeds...)
	for _, c := range scratchLines {
		lines = append(lines, c.line)
	}
	var sc Scratch
	for _, l := range lines {
		line := []byte(l)
		var env plog.Envelope
		ok := plog.Parse(line, &env)
		want := Parse(&env, ok, line, Meta{File: 1, Line: 7})
		got := ParseScratch(&env, ok, line, Meta{File: 1, Line: 7}, &sc)
		if reflect.TypeOf(got) != reflect.TypeOf(want) {
			t.Fatalf("%q: got %T, want %T", l, got, want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\ngot  %+v\nwant %+v", l, got, want)
		}
	}
}

// FuzzScratch: for any line, ParseScratch gives the record Parse gives.
func FuzzScratch(f *testing.F) {
	for _, s := range fzSeeds {
		f.Add(s)
	}
	for _, c := range scratchLines {
		f.Add(c.line)
	}
	var sc Scratch
	f.Fuzz(func(t *testing.T, l string) {
		line := []byte(l)
		var env plog.Envelope
		ok := plog.Parse(line, &env)
		want := Parse(&env, ok, line, Meta{Line: 3})
		got := ParseScratch(&env, ok, line, Meta{Line: 3}, &sc)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\ngot  %+v\nwant %+v", l, got, want)
		}
	})
}

// TestIndexIMAS: indexIMAS is bytes.Index(msg, "[IMAS]").
func TestIndexIMAS(t *testing.T) {
	for _, msg := range []string{
		"", "[IMAS]", "IMAS]", "x[IMAS]Set", "IMAS][IMAS]", "[IMASIMAS][IMAS]", "[[IMAS]", "[IMAS",
		"[KernelTrace][AllocMemHbm_In_1][MEM]Alloc memory at stream 0, block 0x1, address 0x2, size 3",
		"SetOffsetSize:[IMAS]Set g name[IMAS] output[0]", "IMAS]IMAS]x[IMAS]",
	} {
		if got, want := indexIMAS([]byte(msg)), bytes.Index([]byte(msg), []byte("[IMAS]")); got != want {
			t.Errorf("indexIMAS(%q) = %d, want %d", msg, got, want)
		}
	}
}
