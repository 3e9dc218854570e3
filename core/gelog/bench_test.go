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

// benchPoolLines are an RT2 pool's allocation and free, the bulk of a
// pool-heavy log.
var benchPoolLines = []string{
	"[INFO] GE(610001,python3):2026-02-20-10:00:17.396.789 [scalable_allocator.cc:511]610061 [allocator_2] Alloc:Malloc block device_id:0 size:5213 allocate_size:65536 mem_addr:0x12c1a0230000. span addr 0x55d1c29b1240",
	"[INFO] GE(610001,python3):2026-02-20-10:00:17.396.801 [memory_kernel.cc:385]610061 AllocHbmMem:[KernelTrace][AllocMemHbm_Add_17_2440][MEM]Alloc memory at stream 0, block 0x55d1c2a31240, address 0x12c1a0230000, size 65536, tensor size 5213, index 1",
	"[INFO] GE(610001,python3):2026-02-20-10:00:17.396.955 [memory_kernel.cc:407]610061 FreeHbmMem:[KernelTrace][FreeMemHbm_Add_2441][MEM]Free memory at stream 0, address 0x12c1a0230000",
	"[INFO] GE(610001,python3):2026-02-20-10:00:17.396.960 [scalable_allocator.cc:569]610061 [allocator_2] Free:Free block device_id:0 theory_size_:0 theory_min_size_:65536 allock_size:65536 mem_addr:0x12c1a0230000.",
}

// BenchmarkParsePoolLines is one pool line (of the four above, in turn):
// envelope and statement, into records of their own (parse) and into a
// scratch as the parsing workers do (scratch).
func BenchmarkParsePoolLines(b *testing.B) {
	lines := make([][]byte, len(benchPoolLines))
	n := 0
	for i, l := range benchPoolLines {
		lines[i] = []byte(l)
		n += len(l)
	}
	for _, into := range []bool{false, true} {
		name := "parse"
		if into {
			name = "scratch"
		}
		b.Run(name, func(b *testing.B) {
			var env plog.Envelope
			var sc Scratch
			b.SetBytes(int64(n / len(lines)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				line := lines[i%len(lines)]
				ok := plog.Parse(line, &env)
				var r Record
				if into {
					r = ParseScratch(&env, ok, line, Meta{}, &sc)
				} else {
					r = Parse(&env, ok, line, Meta{})
				}
				if _, bad := r.(*Reject); bad {
					b.Fatal("rejected")
				}
			}
		})
	}
}
