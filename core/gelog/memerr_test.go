package gelog

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"imas/core/plog"
)

// parseAny parses one line the way the core does (every envelope form).
func parseAny(t *testing.T, line string) Record {
	t.Helper()
	if !IsCandidate([]byte(line)) {
		t.Fatalf("not a candidate: %q", line)
	}
	var e plog.Envelope
	ok := plog.ParseAny([]byte(line), &e)
	return Parse(&e, ok, []byte(line), Meta{Line: 1})
}

func describeMemErr(r Record) string {
	switch x := r.(type) {
	case *MemError:
		return fmt.Sprintf("%s form=%s mod=%s fn=%s src=%s pid=%d size=%d exp=%d act=%d purpose=%q dev=%d type=%d modid=%d code=%s reason=%q",
			x.What, x.Form, x.Module, x.Func, x.Source, x.PID, x.Size, x.Expect, x.Actual, x.Purpose, x.Device, x.MemType, x.ModuleID, x.Code, x.Reason)
	case *MemRequest:
		return fmt.Sprintf("request tid=%d size=%d type=%d", x.TID, x.Size, x.MemType)
	case *DevmmStat:
		return fmt.Sprintf("devmm pid=%d %s dev=%d %s/%d cur=%d peak=%d cnt=%d/%d periodic=%v",
			x.PID, x.MemType, x.Device, x.Module, x.ModuleID, x.Current, x.Peak, x.AllocCnt, x.FreeCnt, x.Periodic)
	case *UserMemoryLoad:
		return fmt.Sprintf("user memory work=%d weight=%d", x.WorkSize, x.WeightSize)
	case *Ignored:
		return "ignored " + x.What
	case *Reject:
		return "reject " + x.Reason
	}
	return fmt.Sprintf("%T", r)
}

// One line of every memory-error form, written for this test.
func TestMemErrForms(t *testing.T) {
	for _, c := range []struct{ name, line, want string }{
		{"driver halMemCreate",
			"[ERROR] DRV(900,train):2025-01-02-03:04:05.000.100 [ascend][curpid: 900, 900][drv][devmm][halMemCreate 3100]<errno:12, 6> Mem create failed. (ret=6; size=8388608; side=1; devid=3)",
			`halMemCreate form=plog mod=DRV fn=halMemCreate src= pid=900 size=8388608 exp=-1 act=-1 purpose="" dev=3 type=-1 modid=-1 code=ret=6 reason=""`},
		{"driver remote map",
			"[ERROR] DRV(901,app):2025-01-02-03:04:05.000.100 [ascend][curpid: 901, 901][drv][devmm][_devmm_mem_remote_map 1900]<errno:22, 8> Mem_remote_map ioctl error. (src_va=0x1000; size=65536; devid=1; ret=8)",
			`mem-remote-map form=plog mod=DRV fn=_devmm_mem_remote_map src= pid=901 size=65536 exp=-1 act=-1 purpose="" dev=1 type=-1 modid=-1 code=ret=8 reason=""`},
		{"runtime halMemCreate failed",
			"[ERROR] RUNTIME(900,train):2025-01-02-03:04:05.000.200 [npu_driver.cc:5000]900 MallocPhysical:[INIT][DEFAULT][drv api]halMemCreate failed. drvRetCode=6.",
			`drv-call-failed form=plog mod=RUNTIME fn=MallocPhysical src=npu_driver.cc:5000 pid=900 size=-1 exp=-1 act=-1 purpose="" dev=-1 type=-1 modid=-1 code=drvRetCode=6 reason=""`},
		{"runtime ErrCode 207001",
			"[ERROR] RUNTIME(900,train):2025-01-02-03:04:05.000.300 [api_c.cc:4000]900 rtMallocPhysical:[INIT][DEFAULT]ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016",
			`rt-out-of-memory form=plog mod=RUNTIME fn=rtMallocPhysical src=api_c.cc:4000 pid=900 size=-1 exp=-1 act=-1 purpose="" dev=-1 type=-1 modid=-1 code=207001 reason="driver error:out of memory"`},
		{"runtime halMemAlloc, device_id with a space",
			"[ERROR] RUNTIME(902,w):2025-01-02-03:04:05.000.300 [npu_driver.cc:1500]903 DevMemAllocHugePageManaged:[drv api] halMemAlloc failed:size=4194304(bytes), type=2, moduleId=45, drvFlag=1, drvRetCode=6, device_id 5, ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x1",
			`halMemAlloc form=plog mod=RUNTIME fn=DevMemAllocHugePageManaged src=npu_driver.cc:1500 pid=902 size=4194304 exp=-1 act=-1 purpose="" dev=5 type=2 modid=45 code=207001 reason="driver error:out of memory"`},
		{"runtime halMemAlloc, device_id= and (Byte)",
			"[ERROR] RUNTIME(902,w):2025-01-02-03:04:05.000.300 [npu_driver.cc:1100]903 DevMemAllocHugePageManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=1048576(Byte), type=2, moduleId=7, drvFlag=1, drvRetCode=6, device_id=2!",
			`halMemAlloc form=plog mod=RUNTIME fn=DevMemAllocHugePageManaged src=npu_driver.cc:1100 pid=902 size=1048576 exp=-1 act=-1 purpose="" dev=2 type=2 modid=7 code=drvRetCode=6 reason=""`},
		{"runtime halMemAlloc under a damaged level tag",
			"ERR0R] RUNTIME(902,w) :2025-01-02-03:04:05.000.300 [npu_driver.cc:1500]903 DevMemAllocHugePageManaged:[drv api] halMemAlloc failed:size=2048(bytes), type=2, moduleId=3, d",
			`halMemAlloc form=damaged-plog mod=RUNTIME fn=DevMemAllocHugePageManaged src=npu_driver.cc:1500 pid=902 size=2048 exp=-1 act=-1 purpose="" dev=-1 type=2 modid=3 code= reason=""`},
		{"ACL result with markdown bold",
			"[ERROR] ASCENDCL(900,train):2025-01-02-03:04:05.000.400 [memory.cpp:600]900 **aclrtMallocPhysical**: [INIT][DEFAULT]malloc physical memory failed, runtime result = 207001",
			`acl-out-of-memory form=plog mod=ASCENDCL fn=aclrtMallocPhysical src=memory.cpp:600 pid=900 size=-1 exp=-1 act=-1 purpose="" dev=-1 type=-1 modid=-1 code=207001 reason=""`},
		{"GE InitRuntimeParams size check",
			"[ERROR] GE(904,infer):2025-01-02-03:04:05.000.500 [model_utils.cc:1300]904 InitRuntimeParams: ErrorNo: 4294967295(failed) [LOAD][DEFAULT]Assert (a == (b - c)) failed, expect 1000448 actual 512",
			`init-runtime-params form=plog mod=GE fn=InitRuntimeParams src=model_utils.cc:1300 pid=904 size=1000448 exp=1000448 act=512 purpose="" dev=-1 type=-1 modid=-1 code= reason="Assert (a == (b - c))"`},
		{"GE assert that passes the error up",
			"[ERROR] GE(904,infer):2025-01-02-03:04:05.000.600 [davinci_model.cc:480]904 InitRuntimeParams: ErrorNo: 4294967295(failed) [LOAD][DEFAULT]Assert ((X::InitRuntimeParams(m)) == ge::SUCCESS) failed",
			"ignored error-propagation"},
		{"GE InitRuntimeParams INFO trace",
			"[INFO] GE(904,infer):2025-01-02-03:04:05.000.600 [davinci_model.cc:470]904 InitRuntimeParams:InitRuntimeParams(), session_id:1, memory_size:4096, weight_size:512",
			"ignored runtime-params"},
		{"report: page caching",
			"ERROR 01-02 03:04:05 [e.py:1]    Call rtMalloc fail, purpose: page caching, type = 2, size:2147483648, device_id:1[FUNC:Alloc][FILE:device_allocator.cc][LINE:70]",
			`rtMalloc-fail form=error-report mod= fn=Alloc src=device_allocator.cc:70 pid=0 size=2147483648 exp=-1 act=-1 purpose="page caching" dev=1 type=2 modid=-1 code= reason=""`},
		{"report: runtime result",
			"(Eng pid=12) ERROR 01-02 03:04:05 [c.py:7]    alloc device memory failed, runtime result = 207001[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:100]",
			`acl-out-of-memory form=error-report mod= fn=ReportCallError src=log_inner.cpp:100 pid=12 size=-1 exp=-1 act=-1 purpose="" dev=-1 type=-1 modid=-1 code=207001 reason=""`},
		{"report header, code before the pid",
			"(Eng pid=12) ERROR 01-02 03:04:05 [c.py:7] EL0004: [PID: 12] 2025-01-02-03:04:05.006.007 Failed to allocate memory.",
			`EL0004 form=error-report mod= fn= src= pid=12 size=-1 exp=-1 act=-1 purpose="" dev=-1 type=-1 modid=-1 code=EL0004 reason="Failed to allocate memory."`},
		{"report header, code after the time",
			"ERROR 01-02 03:04:05 [e.py:1] [PID: 13] 2025-01-02-03:04:05.006.007 Memory_Allocation_Failure(EL0004): Failed to allocate memory requested by GE module.",
			`EL0004 form=error-report mod= fn= src= pid=13 size=-1 exp=-1 act=-1 purpose="" dev=-1 type=-1 modid=-1 code=EL0004 reason="Failed to allocate memory requested by GE module."`},
		{"error manager registering the code",
			"[INFO] GE(5,p):2025-01-02-03:04:05.000.001 [error_manager.cc:500]5 ParseJsonFile:add error_code EL0004 success",
			"ignored error-code-list"},
		{"DDK request",
			"[INFO] RUNTIME:2018-01-02-03:04:05.006.007 321 rt/logger.cc:200 DevMalloc:dev memory alloc, size = 123456, type = 1 ",
			"request tid=321 size=123456 type=1"},
		{"2020 runtime request",
			"[INFO] RUNTIME(8,p):2020-01-02-03:04:05.006.007 [runtime/feature/src/logger.cc:600]9 DevMalloc:dev memory alloc, size=4096, type=2",
			"request tid=9 size=4096 type=2"},
		{"2020 runtime request granted",
			"[INFO] RUNTIME(8,p):2020-01-02-03:04:05.006.107 [runtime/feature/src/logger.cc:603]9 DevMalloc:dev memory alloc ok, size=4096, type=2, ptr=0x1000",
			"ignored runtime-malloc-ok"},
		{"DDK failure",
			"[ERROR] RUNTIME:2018-01-02-03:04:05.106.007 321 rt/logger.cc:204 DevMalloc:dev memory alloc error, errno = 2 ",
			`ddk-alloc-error form=ddk mod=RUNTIME fn=DevMalloc src=rt/logger.cc:204 pid=0 size=-1 exp=-1 act=-1 purpose="" dev=-1 type=-1 modid=-1 code=errno=2 reason=""`},
		{"ACL load into user memory",
			"[INFO] ASCENDCL(7,m):2022-01-02-03:04:05.000.001 [model.cpp:500]7 aclmdlLoadFromMemWithMem: start to execute aclmdlLoadFromMemWithMem, workSize[1048576], weightSize[2048]",
			"user memory work=1048576 weight=2048"},
		{"ACL load into user memory without weights",
			"[INFO] ASCENDCL(7,m):2022-01-02-03:04:05.000.001 [model.cpp:210]7 ModelLoadFromFileWithMem: call ge interface executor.LoadModelFromData, workSize[4096]",
			"user memory work=4096 weight=-1"},
		{"ACL load trace without sizes",
			"[INFO] ASCENDCL(7,m):2022-01-02-03:04:05.000.001 [model.cpp:570]7 aclmdlLoadFromFileWithMem: aclmdlLoadFromFileWithMem done",
			"ignored model-load-trace"},
		{"ACL load cut in workSize",
			"[INFO] ASCENDCL(7,m):2022-01-02-03:04:05.000.001 [model.cpp:570]7 aclmdlLoadFromFileWithMem: start, workSize[40",
			"reject truncated"},
		{"kernel devmm row",
			"[2025-01-02-03:04:05.123456] [ascend] [devmm] [INFO] [devmm_mem_stats_show 74] <svc:50,51> 60 dev2 MEM_DEV_SMALL_HBM GE 45 65536 131072 4 3",
			"devmm pid=60 MEM_DEV_SMALL_HBM dev=2 GE/45 cur=65536 peak=131072 cnt=4/3 periodic=true"},
		{"kernel devmm row cut short",
			"[2025-01-02-03:04:05.123456] [ascend] [devmm] [INFO] [devmm_mem_stats_show 74] <svc:50,51> 60 dev2 MEM_DEV_SMALL_HBM GE 45 655",
			"reject missing-field"},
		{"kernel devmm row with a bad number",
			"[2025-01-02-03:04:05.123456] [ascend] [devmm] [INFO] [devmm_mem_stats_show 74] <svc:50,51> 60 dev2 MEM_DEV_SMALL_HBM GE 45 6x5 1 1 1",
			"reject bad-number"},
		{"halMemAlloc without a size",
			"[ERROR] RUNTIME(902,w):2025-01-02-03:04:05.000.300 [npu_driver.cc:1500]903 DevMemAllocHugePageManaged:[drv api] halMemAlloc failed:",
			"reject missing-field"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := describeMemErr(parseAny(t, c.line)); got != c.want {
				t.Errorf("\n got: %s\nwant: %s", got, c.want)
			}
		})
	}
}

// The family's keys are Markers, or the candidate filter never shows the
// lines to it.
func TestMemErrMarkersAreMarkers(t *testing.T) {
	for _, k := range append(slices.Clone(memErrMarkers), kernelDevmmMarker, runtimeParamsFunc, userMemMarker) {
		if !slices.ContainsFunc(Markers, func(m string) bool { return strings.Contains(k, m) }) {
			t.Errorf("no marker finds lines with %q", k)
		}
	}
}

// Any line with a memory-error marker gives a record (possibly a Reject),
// never a panic nor nil.
func FuzzMemErr(f *testing.F) {
	for _, s := range []string{
		"[ERROR] DRV(900,t):2025-01-02-03:04:05.000.100 [ascend][curpid: 900, 900][drv][devmm][halMemCreate 3100]<errno:12, 6> Mem create failed. (ret=6; size=8; side=1; devid=3)",
		"ERR0R] RUNTIME(902,w) :2025-01-02-03:04:05.000.300 [npu_driver.cc:1500]903 DevMemAllocHugePageManaged:[drv api] halMemAlloc failed:size=2048(bytes), type=2, d",
		"[ERROR] GE(904,i):2025-01-02-03:04:05.000.500 [model_utils.cc:1300]904 InitRuntimeParams: Assert (a == b) failed, expect 10 actual 5",
		"ERROR 01-02 03:04:05 [e.py:1]    Call rtMalloc fail, purpose: page caching, type = 2, size:21, device_id:1[FUNC:Alloc][FILE:d.cc][LINE:70]",
		"[2025-01-02-03:04:05.123456] [ascend] [devmm] [INFO] [devmm_mem_stats_show 74] <s:50,51> 60 dev2 T GE 45 1 2 3 4",
		"[INFO] RUNTIME:2018-01-02-03:04:05.006.007 321 rt/logger.cc:200 DevMalloc:dev memory alloc, size = 12, type = 1 ",
		"[INFO] ASCENDCL(1,m):2021-03-31-18:59:41.766.590 [model.cpp:570]1 aclmdlLoadFromFileWithMem: start, workSize[45], weightSize[51]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if !IsCandidate(line) {
			return
		}
		var e plog.Envelope
		ok := plog.ParseAny(line, &e)
		if Parse(&e, ok, line, Meta{Line: 1}) == nil {
			t.Fatal("nil record for a candidate line")
		}
	})
}

// The rare families come last, so that frequent lines never try them.
func TestRareFamiliesLast(t *testing.T) {
	rare := false
	for _, f := range families {
		if rare && !f.Rare {
			t.Errorf("%s is tried after a rare family", f.Name)
		}
		rare = rare || f.Rare
	}
	if !rare {
		t.Error("no rare family")
	}
}
