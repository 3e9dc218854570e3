package plog

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		name                           string
		line                           string
		ok                             bool
		level, module, pname, file, fn string
		pid, tid                       int64
		event                          bool
		alloc, kv, msg                 string
	}{
		{name: "E1 standard 2025",
			line: "[INFO] GE(2617230,python3):2026-08-12-10:21:33.412.907 [block_mem_assigner.cc:2914]2617301 SetOffsetSize:[IMAS]Set g name[a]",
			ok:   true, level: "INFO", module: "GE", pname: "python3", file: "block_mem_assigner.cc", fn: "SetOffsetSize",
			pid: 2617230, tid: 2617301, msg: "[IMAS]Set g name[a]"},
		{name: "E0 no tid (2020)",
			line: "[INFO] GE(11394,python3):2020-07-20-09:10:11.123.456 [block_mem_assigner.cc:1156]SetOffsetSize:[IMAS]Set g name[a]",
			ok:   true, level: "INFO", module: "GE", pname: "python3", file: "block_mem_assigner.cc", fn: "SetOffsetSize",
			pid: 11394, tid: -1, msg: "[IMAS]Set g name[a]"},
		{name: "E2 trace kv",
			line: "[INFO] GE(2617230,python):2024-03-19-19:42:00.317.200 [ge_api.cc:1154][status:INIT]2617230 CompileGraph:Start to compile graph, graph_id: 1",
			ok:   true, level: "INFO", module: "GE", pname: "python", file: "ge_api.cc", fn: "CompileGraph",
			pid: 2617230, tid: 2617230, kv: "[status:INIT]", msg: "Start to compile graph, graph_id: 1"},
		{name: "two kv groups",
			line: "[INFO] GE(5,p):2024-03-19-19:42:00.317.200 [ge_api.cc:1]6 [x][status:INIT][k:v]7 F:m",
			ok:   true, level: "INFO", module: "GE", pname: "p", file: "ge_api.cc", pid: 5, tid: 6, msg: "[x][status:INIT][k:v]7 F:m"},
		{name: "kv groups then tid",
			line: "[INFO] GE(5,p):2024-03-19-19:42:00.317.200 [ge_api.cc:1][status:INIT][k:v]7 F:m",
			ok:   true, level: "INFO", module: "GE", pname: "p", file: "ge_api.cc", fn: "F", pid: 5, tid: 7, kv: "[status:INIT][k:v]", msg: "m"},
		{name: "trace status before file (2020-2023)",
			line: "[TRACE] GE(41,python3):2021-02-03-04:05:06.070.080 [status:RUNNING] [ge_session.cc:77]42 BuildGraph:Building graph 3",
			ok:   true, level: "TRACE", module: "GE", pname: "python3", file: "ge_session.cc", fn: "BuildGraph",
			pid: 41, tid: 42, kv: "[status:RUNNING]", msg: "Building graph 3"},
		{name: "trace status before relative path, no tid",
			line: "[TRACE] GE(41,python3):2020-02-03-04:05:06.070.080 [status:STOP] [src/client/ge_session.cc:9]Finalize:done",
			ok:   true, level: "TRACE", module: "GE", pname: "python3", file: "src/client/ge_session.cc", fn: "Finalize",
			pid: 41, tid: -1, kv: "[status:STOP]", msg: "done"},
		{name: "E3 allocator tag",
			line: "[INFO] GE(2617230,python3):2026-08-12-10:22:01.118.497 [scalable_allocator.cc:511]2617402 [allocator_2] Alloc:Malloc block device_id:0 size:544",
			ok:   true, level: "INFO", module: "GE", pname: "python3", file: "scalable_allocator.cc", fn: "Alloc",
			pid: 2617230, tid: 2617402, alloc: "allocator_2", msg: "Malloc block device_id:0 size:544"},
		{name: "E3 rts allocator",
			line: "[INFO] GE(1,p):2026-08-12-10:22:01.118.497 [x.cc:1]7 [rts_allocator_1] Free:Free block x",
			ok:   true, level: "INFO", module: "GE", pname: "p", file: "x.cc", fn: "Free", pid: 1, tid: 7, alloc: "rts_allocator_1", msg: "Free block x"},
		{name: "E4 class qualified",
			line: "[INFO] GE(2617230,python3):2026-08-12-10:22:05.770.322 [active_memory_allocator.cc:1137]2617402 ge::PhysicalMemoryAllocator::MallocPhysicalPage:rtMallocPhysical success pa_index:6",
			ok:   true, level: "INFO", module: "GE", pname: "python3", file: "active_memory_allocator.cc", fn: "ge::PhysicalMemoryAllocator::MallocPhysicalPage",
			pid: 2617230, tid: 2617402, msg: "rtMallocPhysical success pa_index:6"},
		{name: "E5 run-log event",
			line: "[INFO] GE(2617230,python):2024-03-19-19:42:00.317.282 [graph_manager.cc:1264][EVENT]2617230 PreRun:PreRun start: graph node size 1",
			ok:   true, level: "INFO", module: "GE", pname: "python", file: "graph_manager.cc", fn: "PreRun",
			pid: 2617230, tid: 2617230, event: true, msg: "PreRun start: graph node size 1"},
		{name: "EVENT level",
			line: "[EVENT] GE(1,atc.bin):2022-09-01-00:00:00.000.001 [davinci_model.cc:9]5 InitFeatureMapAndP2PMem:[IMAS]InitFeatureMapAndP2PMem graph_0",
			ok:   true, level: "EVENT", module: "GE", pname: "atc.bin", file: "davinci_model.cc", fn: "InitFeatureMapAndP2PMem",
			pid: 1, tid: 5, event: true, msg: "[IMAS]InitFeatureMapAndP2PMem graph_0"},
		{name: "RUNTIME space before tid",
			line: "[INFO] RUNTIME(901649,aiv_aicpu_bench):2026-06-13-17:00:34.686.237 [stream_mem_pool.cc:360] 901649 ~PoolRegistry: SOMA PoolRegistry destructor.",
			ok:   true, level: "INFO", module: "RUNTIME", pname: "aiv_aicpu_bench", file: "stream_mem_pool.cc", fn: "~PoolRegistry",
			pid: 901649, tid: 901649, msg: " SOMA PoolRegistry destructor."},
		{name: "relative file path",
			line: "[ERROR] FE(5,python3):2024-01-01-00:00:00.000.000 [tensor_engine/te_fusion/pywrapper.cc:33]6 Init:boom",
			ok:   true, level: "ERROR", module: "FE", pname: "python3", file: "tensor_engine/te_fusion/pywrapper.cc", fn: "Init", pid: 5, tid: 6, msg: "boom"},
		{name: "DRV devmm",
			line: "[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.178 [svm_mem_statistics.c:150][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]HOST_MEM Mem stats",
			ok:   true, level: "INFO", module: "DRV", pname: "aiv_aicpu_bench", file: "svm_mem_statistics.c", pid: 901649, tid: -1,
			msg: "[ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]HOST_MEM Mem stats"},
		{name: "old DRV without file:line",
			line: "[INFO] DRV(4052516,main_aarch64):2024-07-08-22:27:45.354.856 [ascend][curpid: 4052516, 4052516][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev0",
			ok:   true, level: "INFO", module: "DRV", pname: "main_aarch64", pid: 4052516, tid: -1,
			msg: "[ascend][curpid: 4052516, 4052516][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev0"},
		{name: "grep prefix",
			line: "run/plog/plog-1_2.log:460:[INFO] GE(1,p):2024-06-29-16:19:28.436.386 [a.cc:1]2 F:m",
			ok:   true, level: "INFO", module: "GE", pname: "p", file: "a.cc", fn: "F", pid: 1, tid: 2, msg: "m"},
		{name: "process name with paren",
			line: "[INFO] GE(7,py(x)):2024-06-29-16:19:28.436.386 [a.cc:1]2 F:m",
			ok:   true, level: "INFO", module: "GE", pname: "py(x)", file: "a.cc", fn: "F", pid: 7, tid: 2, msg: "m"},
		{name: "not a plog line", line: "hello [IMAS]Set world", ok: false, tid: -1, msg: "hello [IMAS]Set world"},
		{name: "empty", line: "", ok: false, tid: -1},
		{name: "binary junk", line: "\x00\xff[INFO] \x01(", ok: false, tid: -1, msg: "\x00\xff[INFO] \x01("},
		{name: "pid overflow", line: "[INFO] GE(99999999999999999999,p):2024-06-29-16:19:28.436.386 [a.cc:1]2 F:m", ok: false, tid: -1,
			msg: "[INFO] GE(99999999999999999999,p):2024-06-29-16:19:28.436.386 [a.cc:1]2 F:m"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e Envelope
			ok := Parse([]byte(tc.line), &e)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			got := []string{string(e.Level), string(e.Module), string(e.PName), string(e.File), string(e.Func), string(e.Alloc), string(e.KV), string(e.Msg)}
			want := []string{tc.level, tc.module, tc.pname, tc.file, tc.fn, tc.alloc, tc.kv, tc.msg}
			names := []string{"level", "module", "pname", "file", "func", "alloc", "kv", "msg"}
			for i := range got {
				if !ok && names[i] != "msg" {
					continue // a failed parse only promises Msg
				}
				if got[i] != want[i] {
					t.Errorf("%s = %q, want %q", names[i], got[i], want[i])
				}
			}
			if ok && (e.PID != tc.pid || e.TID != tc.tid || e.Event != tc.event) {
				t.Errorf("pid/tid/event = %d/%d/%v, want %d/%d/%v", e.PID, e.TID, e.Event, tc.pid, tc.tid, tc.event)
			}
		})
	}
}

func TestParseTime(t *testing.T) {
	a := parseTime([]byte("2021-10-17-05:54:07.599.074"))
	b := parseTime([]byte("2021-10-17-05:54:07.599.075"))
	c := parseTime([]byte("2021-10-18-00:00:00.000.000"))
	if a == 0 || b-a != 1 || c <= b {
		t.Fatalf("times not monotone: %d %d %d", a, b, c)
	}
	if d := parseTime([]byte("2000-01-01-00:00:01.000.000")); d != 1_000_000 {
		t.Fatalf("epoch offset: %d", d)
	}
	for _, bad := range []string{"", "2021-13-17-05:54:07.599.074", "20x1-10-17-05:54:07.599.074", "2021-10-17"} {
		if parseTime([]byte(bad)) != 0 {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestTimeCache: times read through one Envelope, which remembers the last
// minute, are those read one by one from scratch, whatever came before
// (same minute, the next, a bad time, a date that moves back).
func TestTimeCache(t *testing.T) {
	times := []string{"2021-10-17-05:54:07.599.074", "2021-10-17-05:54:07.599.075", "2021-10-17-05:54:59.999.999",
		"2021-10-17-05:55:00.000.000", "2021-10-17-05:55:0x.000.000", "2021-10-17-05:55:01.000.000", "1999-10-17-05:55:01.000.000",
		"1999-10-17-05:55:02.000.000", "2021-10-17-05:55:01.000.001", "2021-10-16-05:55:01.000.001", "2021-10-16-05:55:01.0x0.001",
		"2021-10-16-05:55", "2021-10-16-05:55:01.000.002", "2026-12-04-19:00:00.000.000"}
	var e Envelope
	for _, tm := range times {
		line := "[INFO] GE(1,python3):" + tm + " [a.cc:1]2 F:msg"
		Parse([]byte(line), &e)
		var fresh Envelope
		Parse([]byte(line), &fresh)
		if e.Time != fresh.Time || e.Time != parseTime([]byte(tm)) {
			t.Errorf("%s: %d after the times before it, %d alone", tm, e.Time, fresh.Time)
		}
	}
	if got, want := parseTime([]byte("2021-10-17-05:55:00.000.000"))-parseTime([]byte("2021-10-17-05:54:59.999.999")), int64(1); got != want {
		t.Errorf("next minute: %d µs later, want %d", got, want)
	}
}

func BenchmarkParse(b *testing.B) {
	line := []byte("[INFO] GE(2617230,python3):2026-08-12-10:21:33.412.907 [block_mem_assigner.cc:2914]2617301 SetOffsetSize:[IMAS]Set allreduce_graph_0 name[allreduce_op] optype[HcomAllReduce] output[0] offset to [67109376] streamid[1] memtype[2] size[67109376] realsize[67108896] noalignsize[67108864] life time begin[3] life time end[4294967294] child[0:1:0:0:1] isref[0] batch[], block_type[]")
	var e Envelope
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Parse(line, &e)
	}
}
