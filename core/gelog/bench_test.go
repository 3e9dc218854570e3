package gelog

import (
	"testing"

	"imas/core/plog"
)

// benchSetLine is a 2025 "[IMAS]Set" row, the bulk of every log.
const benchSetLine = "[INFO] GE(777001,python3):2026-02-20-10:00:17.396.789 [block_mem_assigner.cc:2914]777061 SetOffsetSize:[IMAS]Set kernel_graph6_7 name[layernorm_874] optype[LayerNorm] output[0] offset to [44359168] streamid[0] memtype[2] size[2097664] realsize[606944] noalignsize[606890] life time begin[874] life time end[875] child[0:1:0:0:1] isref[0] batch[], block_type[]"

// BenchmarkParseFamily parses one typical line of each statement family
// (envelope included); the lines are the unit-test seeds of the fuzz
// targets.
func BenchmarkParseFamily(b *testing.B) {
	pick := func(prefix string) string {
		for _, s := range fzSeeds {
			if len(s) > len(prefix) && s[:len(prefix)] == prefix {
				return s
			}
		}
		b.Fatalf("no seed starts with %q", prefix)
		return ""
	}
	families := []struct{ name, line string }{
		{"set", benchSetLine},
		{"continuous", pick(fzEnv25 + "[IMAS]Continuous output")},
		{"atomic", pick(fzEnv25 + "[AtomicClean][IMAS]Atomic fusion")},
		{"after-assign", pick(fzEnvEvent + "[IMAS]AfterAssignMemory : g_1")},
		{"varmem", pick(fzEnv25 + "[IMAS]AssignVarMem Set session_0 name[conv1")},
		{"malloc", pick(fzEnvMem + "MallocMemory, func=aclrtMalloc")},
		{"address", pick(fzEnvAddr + "[IMAS]GetInputDataAddrs graph_0")},
		{"pool", pick(fzEnvSA + "Malloc block")},
		{"kernel-trace", pick(fzEnvKT + "[KernelTrace][AllocMemHbm")},
		{"devmm", pick(fzEnvDRV + "_svm_mem_stats_show 148]")},
	}
	for _, f := range families {
		b.Run(f.name, func(b *testing.B) {
			line := []byte(f.line)
			var env plog.Envelope
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				ok := plog.Parse(line, &env)
				if _, bad := Parse(&env, ok, line, Meta{}).(*Reject); bad {
					b.Fatal("rejected")
				}
			}
		})
	}
}
