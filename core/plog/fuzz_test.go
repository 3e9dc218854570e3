package plog

import (
	"bytes"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"[INFO] GE(2617230,python3):2026-08-12-10:21:33.412.907 [block_mem_assigner.cc:2914]2617301 SetOffsetSize:[IMAS]Set g name[a]",
		"[INFO] GE(11394,python3):2020-07-20-09:10:11.123.456 [block_mem_assigner.cc:1156]SetOffsetSize:x",
		"[INFO] GE(1,p):2026-08-12-10:22:01.118.497 [x.cc:1]7 [rts_allocator_1] Free:Free block x",
		"[INFO] GE(2617230,python):2024-03-19-19:42:00.317.200 [ge_api.cc:1154][status:INIT]2617230 CompileGraph:Start",
		"[INFO] DRV(4052516,main_aarch64):2024-07-08-22:27:45.354.856 [ascend][curpid: 4052516, 4052516][drv][devmm][_svm_mem_stats_show 148]DEV_MEM",
		"x:1:[EVENT] GE(1,p):2026-08-12-10:22:01.118.497 [x.cc:1][EVENT]7 ge::A::B:m",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var e Envelope
		Parse(line, &e)
		// Every field must alias the line: Parse never allocates or invents text.
		for _, b := range [][]byte{e.Level, e.Module, e.PName, e.File, e.KV, e.Alloc, e.Func, e.Msg} {
			if len(b) > 0 && !contains(line, b) {
				t.Fatalf("field %q not in line", b)
			}
		}
	})
}

func contains(s, sub []byte) bool { return bytes.Contains(s, sub) }
