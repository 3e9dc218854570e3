package gelog

import (
	"bytes"
	"strconv"

	"imas/core/diag"
	"imas/core/plog"
)

// Memory errors: a request for memory the driver, the runtime or GE
// refused, as each layer logs it. One out-of-memory event is usually
// logged by several layers within milliseconds (driver → runtime → ACL);
// every statement that carries a fact about it is a MemError record, and
// the model groups them into one error.
//
//	DRV      [..][halMemCreate 3073]<errno:12, 6> Mem create failed. (ret=6; size=<n>; side=1; devid=<d>)
//	DRV      [..][_devmm_mem_remote_map 1888]<errno:22, 8> Mem_remote_map ioctl error. (src_va=0x..; size=<n>; devid=<d>; ret=8)
//	RUNTIME  MallocPhysical:[..][drv api]halMemCreate failed. drvRetCode=6.
//	RUNTIME  rtMallocPhysical:[..]ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016
//	RUNTIME  DevMemAllocHugePageManaged:[drv api] halMemAlloc failed:size=<n>(bytes|Byte), type=2, moduleId=3, ..., drvRetCode=6, device_id <d>, ErrCode=207001, ...
//	ASCENDCL aclrtMallocPhysical: [..]malloc physical memory failed, runtime result = 207001
//	GE       InitRuntimeParams: ... Assert (total_hbm_size == (...)) failed, expect <n> actual <m>
//	report   Call rtMalloc fail, purpose: page caching, type = 2, size:<n>, device_id:<d>[FUNC:Alloc][FILE:device_allocator.cc][LINE:72]
//	report   alloc device memory failed, runtime result = 207001[FUNC:..][FILE:..][LINE:..]
//	report   [PID: <p>] <time> Memory_Allocation_Failure(EL0004): Failed to allocate memory requested by GE module.
//	DDK      DevMalloc:dev memory alloc error, errno = 2   (the size is on the "dev memory alloc, size = <n>" line before)
//
// The driver's host kernel log prints its per-module statistics as a
// table row (no plog envelope; plog.FormKernel):
//
//	[time] [ascend] [devmm] [INFO] [devmm_mem_stats_show 74] <pname:pid,tid> <pid> dev<N> <MEM_TYPE> <module_name> <module_id> <current_alloced_size> <alloced_peak_size> <alloc_cnt> <free_cnt>
//
// The columns are those of the run plog's "_svm_mem_stats_show" lines, in
// the same order (module_name, module_id, current_alloced_size,
// allocated_peak_size, alloc_cnt, free_cnt); the row becomes a DevmmStat
// marked Periodic, since the driver prints it while the process runs.

// MemError is one statement about a refused memory request.
type MemError struct {
	Meta
	What     string // the statement: MemErr* below
	Form     string // the envelope form: plog, kernel-log, ddk, damaged-plog, error-report
	Module   string // DRV, RUNTIME, GE, ASCENDCL; "" in error reports
	PName    string
	Func     string // the function that logged it (halMemCreate, rtMallocPhysical, ...)
	Source   string // file:line of the statement in the CANN sources, when printed
	Size     int64  // bytes asked; -1 when the statement does not say
	Expect   int64  // InitRuntimeParams: the size expected; -1 otherwise
	Actual   int64  // InitRuntimeParams: the size found; -1 otherwise
	Purpose  string // "page caching", ...
	Device   int64  // -1 when not printed
	MemType  int64  // the driver memory type / rtMalloc type; -1 when not printed
	ModuleID int64  // the driver module id of the caller; -1 when not printed
	Code     string // the error code as printed: "207001", "ret=6", "errno=2", "EL0004"
	Reason   string // the printed description ("driver error:out of memory", ...)
}

// The statements of the family (MemError.What).
const (
	MemErrHalMemCreate  = "halMemCreate"        // DRV Mem create failed
	MemErrRemoteMap     = "mem-remote-map"      // DRV Mem_remote_map ioctl error
	MemErrDrvCallFailed = "drv-call-failed"     // RUNTIME halMemCreate failed
	MemErrRuntime207001 = "rt-out-of-memory"    // RUNTIME ErrCode=207001
	MemErrHalMemAlloc   = "halMemAlloc"         // RUNTIME halMemAlloc failed:size=
	MemErrACLResult     = "acl-out-of-memory"   // ASCENDCL / report: runtime result = 207001
	MemErrRuntimeParams = "init-runtime-params" // GE InitRuntimeParams assert expect/actual
	MemErrRtMallocFail  = "rtMalloc-fail"       // report: Call rtMalloc fail
	MemErrReportEL0004  = "EL0004"              // report header: Memory_Allocation_Failure
	MemErrDDKAllocError = "ddk-alloc-error"     // DDK dev memory alloc error
)

// MemRequest is a request that may fail later: the 2019 DDK runtime logs
// "dev memory alloc, size = <n>, type = <t>" before it tries, and only
// "dev memory alloc error, errno = <e>" when it fails.
type MemRequest struct {
	Meta
	Size    int64
	MemType int64
}

// memErrMarkers are the family's Markers (also in Markers).
var memErrMarkers = []string{
	"Mem create failed",
	"halMemCreate failed",
	"halMemAlloc failed",
	"ErrCode=207001",
	"result = 207001",
	"InitRuntimeParams",
	"Call rtMalloc fail",
	"Mem_remote_map ioctl error",
	"dev memory alloc",
	"EL0004",
}

// The statements' keys, in the order they are tried: a line may hold
// several (the huge-page line has both "halMemAlloc failed" and
// "ErrCode=207001"; "dev memory alloc" starts the other two).
const (
	keyDDKError = iota
	keyRuntimeAllocOK
	keyRuntimeAlloc
	keyMemCreate
	keyRemoteMap
	keyHalMemAlloc
	keyHalMemCreate
	keyRtMallocFail
	keyErrCode
	keyACLResult
	keyEL0004
)

var memErrKeys = [...]string{
	keyDDKError: "dev memory alloc error", keyRuntimeAllocOK: "dev memory alloc ok", keyRuntimeAlloc: "dev memory alloc",
	keyMemCreate: "Mem create failed", keyRemoteMap: "Mem_remote_map ioctl error", keyHalMemAlloc: "halMemAlloc failed",
	keyHalMemCreate: "halMemCreate failed", keyRtMallocFail: "Call rtMalloc fail", keyErrCode: "ErrCode=207001",
	keyACLResult: "result = 207001", keyEL0004: "EL0004",
}

// memErrKey is the first of memErrKeys in msg, -1 when none.
func memErrKey(msg []byte) int {
	for i, k := range memErrKeys {
		if containsText(msg, k) {
			return i
		}
	}
	return -1
}

const (
	kernelDevmmFunc = "devmm_mem_stats_show"
	// kernelDevmmMarker: the kernel log's tag, "[devmm_mem_stats_show 74]";
	// the 2023 plog's "[_devmm_mem_stats_show 152]" is another statement.
	kernelDevmmMarker = "[" + kernelDevmmFunc
	runtimeParamsFunc = "InitRuntimeParams"
)

func init() {
	Register(Family{Name: "memory-errors", Match: matchMemErr, Parse: parseMemErr, Rare: true})
	Register(Family{Name: "kernel-devmm", Match: matchKernelDevmm, Parse: parseKernelDevmm})
}

func matchMemErr(env *plog.Envelope, msg []byte) bool {
	if string(env.Func) == runtimeParamsFunc {
		return true // its assert names the function only in the envelope
	}
	for _, k := range memErrMarkers {
		if containsText(msg, k) {
			return true
		}
	}
	return false
}

func matchKernelDevmm(env *plog.Envelope, _ []byte) bool {
	return env.Form == plog.FormKernel && string(env.Func) == kernelDevmmFunc
}

func parseMemErr(env *plog.Envelope, msg []byte, m Meta, line []byte) Record {
	// Published copies carry markdown bold around names.
	if bytes.Contains(msg, []byte("**")) {
		msg = bytes.ReplaceAll(msg, []byte("**"), nil)
	}
	r := &MemError{Meta: m, Form: env.Form.String(), Module: string(env.Module), PName: string(env.PName),
		Func: string(bytes.Trim(env.Func, "*")), Size: -1, Expect: -1, Actual: -1, Device: -1, MemType: -1, ModuleID: -1}
	if env.File != nil {
		r.Source = string(env.File) + ":" + strconv.Itoa(int(env.FileNo))
	}
	if r.Func == "" && r.Module == "DRV" {
		r.Func = string(drvFunc(msg))
	} else if r.Func == "" && env.Form != plog.FormReport {
		// "**aclrtMallocPhysical**: ..." as published: the function
		// token is readable once the markdown is gone.
		if c := bytes.IndexByte(msg, ':'); c > 0 && isFuncToken(msg[:c]) {
			r.Func = string(msg[:c])
		}
	}
	if r.Func == runtimeParamsFunc || bytes.Contains(msg, []byte(runtimeParamsFunc)) {
		return parseRuntimeParams(r, msg, line)
	}
	switch memErrKey(msg) {
	case keyDDKError:
		r.What = MemErrDDKAllocError
		if v, ok := numAfter(msg, "errno = "); ok {
			r.Code = "errno=" + strconv.FormatInt(v, 10)
		}
		return r
	case keyRuntimeAllocOK:
		// The request succeeded: the next request replaces it anyway.
		return &Ignored{Meta: m, What: diag.IgnoreRuntimeMallocOK}
	case keyRuntimeAlloc:
		// "size = N, type = T" (DDK 2019) or "size=N, type=T" (2020).
		q := &MemRequest{Meta: m, MemType: -1}
		v, ok := numAfter(msg, "size = ")
		if !ok {
			v, ok = numAfter(msg, "size=")
		}
		if !ok {
			return Rejectf(m, line, missingOrCut(r.Meta, line, "size"), "\"size = <n>\" expected")
		}
		q.Size = v
		q.MemType = numOr(msg, "type = ", numOr(msg, "type=", -1))
		return q
	case keyMemCreate:
		r.What = MemErrHalMemCreate
		return driverFields(r, msg, line)
	case keyRemoteMap:
		r.What = MemErrRemoteMap
		return driverFields(r, msg, line)
	case keyHalMemAlloc:
		r.What = MemErrHalMemAlloc
		v, ok := numAfter(msg, "halMemAlloc failed:size=")
		if !ok {
			return Rejectf(m, line, missingOrCut(r.Meta, line, "size"), "\"halMemAlloc failed:size=<n>\" expected")
		}
		r.Size = v
		r.MemType = numOr(msg, "type=", -1)
		r.ModuleID = numOr(msg, "moduleId=", -1)
		r.Device = numOr(msg, "device_id=", numOr(msg, "device_id ", -1))
		runtimeCode(r, msg)
		return r
	case keyHalMemCreate:
		r.What = MemErrDrvCallFailed
		if v, ok := numAfter(msg, "drvRetCode="); ok {
			r.Code = "drvRetCode=" + strconv.FormatInt(v, 10)
		}
		return r
	case keyRtMallocFail:
		r.What = MemErrRtMallocFail
		v, ok := numAfter(msg, "size:")
		if !ok {
			return Rejectf(m, line, missingOrCut(r.Meta, line, "size"), "\"size:<n>\" expected")
		}
		r.Size = v
		if p := textAfter(msg, "purpose: "); p != nil {
			r.Purpose = string(p)
		}
		r.MemType = numOr(msg, "type = ", -1)
		r.Device = numOr(msg, "device_id:", -1)
		return r
	case keyErrCode:
		r.What = MemErrRuntime207001
		runtimeCode(r, msg)
		return r
	case keyACLResult:
		r.What = MemErrACLResult
		r.Code = "207001"
		return r
	case keyEL0004:
		if !bytes.Contains(msg, []byte("EL0004:")) && !bytes.Contains(msg, []byte("(EL0004)")) {
			// GE's error manager registering its codes at start: nothing failed.
			return &Ignored{Meta: m, What: diag.IgnoreErrorCodeList}
		}
		r.What = MemErrReportEL0004
		r.Code = "EL0004"
		r.Reason = string(bytes.TrimSpace(afterCode(msg, "EL0004")))
		return r
	}
	return Rejectf(m, line, diag.Unrecognised, "marker present but statement unknown")
}

// parseRuntimeParams reads GE's InitRuntimeParams lines: its INFO line
// carries the sizes of a model being loaded, the ERROR assert the size
// check that failed ("expect N actual M"); the other asserts only pass the
// failure up.
func parseRuntimeParams(r *MemError, msg, line []byte) Record {
	i := bytes.Index(msg, []byte("failed, expect "))
	if i < 0 {
		if bytes.Contains(msg, []byte("Assert (")) {
			return &Ignored{Meta: r.Meta, What: diag.IgnoreErrorPropagation}
		}
		return &Ignored{Meta: r.Meta, What: diag.IgnoreRuntimeParams}
	}
	r.What = MemErrRuntimeParams
	rest := msg[i+len("failed, expect "):]
	exp := leadingDigits(rest)
	j := bytes.Index(rest, []byte(" actual "))
	if len(exp) == 0 || j < 0 {
		return Rejectf(r.Meta, line, missingOrCut(r.Meta, line, "expect"), "\"expect <n> actual <m>\" expected")
	}
	act := leadingDigits(rest[j+len(" actual "):])
	var e numErr
	if r.Expect, e = parseInt(exp); e != numOK {
		return badNum(r.Meta, line, "expect", e)
	}
	if r.Actual, e = parseInt(act); e != numOK {
		return badNum(r.Meta, line, "actual", e)
	}
	r.Size = r.Expect
	if a := bytes.Index(msg, []byte("Assert (")); a >= 0 {
		r.Reason = string(bytes.TrimSpace(msg[a:i]))
	}
	return r
}

// driverFields reads the "(key=value; ...)" group of a DRV error line.
func driverFields(r *MemError, msg, line []byte) Record {
	v, ok := numAfter(msg, "size=")
	if !ok {
		return Rejectf(r.Meta, line, missingOrCut(r.Meta, line, "size"), "\"size=<n>\" expected")
	}
	r.Size = v
	r.Device = numOr(msg, "devid=", -1)
	if v, ok := numAfter(msg, "ret="); ok {
		r.Code = "ret=" + strconv.FormatInt(v, 10)
	}
	if e := bytes.Index(msg, []byte("<errno:")); e >= 0 {
		if v, ok := numAfter(msg[e:], "<errno:"); ok && r.Code == "" {
			r.Code = "errno=" + strconv.FormatInt(v, 10)
		}
	}
	return r
}

// runtimeCode reads "ErrCode=<n>, desc=[<reason>]".
func runtimeCode(r *MemError, msg []byte) {
	if v, ok := numAfter(msg, "ErrCode="); ok {
		r.Code = strconv.FormatInt(v, 10)
	} else if v, ok := numAfter(msg, "drvRetCode="); ok {
		r.Code = "drvRetCode=" + strconv.FormatInt(v, 10)
	}
	if i := bytes.Index(msg, []byte("desc=[")); i >= 0 {
		d := msg[i+len("desc=["):]
		if j := bytes.IndexByte(d, ']'); j >= 0 {
			r.Reason = string(d[:j])
		}
	}
}

// drvFunc is the function of a DRV message "[ascend]...[devmm][name line]<...>text":
// the last bracket group before the text.
func drvFunc(msg []byte) []byte {
	var fn []byte
	p := msg
	for len(p) > 0 && p[0] == '[' {
		rb := bytes.IndexByte(p, ']')
		if rb < 0 {
			break
		}
		fn = p[1:rb]
		p = p[rb+1:]
	}
	if sp := bytes.IndexByte(fn, ' '); sp > 0 {
		fn = fn[:sp]
	}
	return fn
}

// numAfter reads the decimal number right after the first key in msg.
func numAfter(msg []byte, key string) (int64, bool) {
	for from := 0; ; {
		i := indexFrom(msg, key, from)
		if i < 0 {
			return 0, false
		}
		if d := leadingDigits(msg[i+len(key):]); len(d) > 0 {
			v, e := parseInt(d)
			return v, e == numOK
		}
		from = i + 1
	}
}

func numOr(msg []byte, key string, def int64) int64 {
	if v, ok := numAfter(msg, key); ok {
		return v
	}
	return def
}

// textAfter is the text after key up to the next comma.
func textAfter(msg []byte, key string) []byte {
	i := bytes.Index(msg, []byte(key))
	if i < 0 {
		return nil
	}
	v := msg[i+len(key):]
	if c := bytes.IndexByte(v, ','); c >= 0 {
		v = v[:c]
	}
	return bytes.TrimSpace(v)
}

// afterCode is the message after an error code "CODE:" / "...(CODE):",
// without the "[PID: p] time" part of the report header.
func afterCode(msg []byte, code string) []byte {
	i := bytes.Index(msg, []byte(code))
	rest := msg[i+len(code):]
	rest = bytes.TrimLeft(rest, "):")
	if j := bytes.Index(rest, []byte("[PID: ")); j >= 0 {
		r := rest[j:]
		if k := bytes.IndexByte(r, ']'); k >= 0 {
			r = bytes.TrimLeft(r[k+1:], " ")
			if len(r) >= 27 && r[4] == '-' && r[10] == '-' {
				r = r[27:]
			}
			rest = r
		}
	}
	return rest
}

func isFuncToken(b []byte) bool {
	if len(b) > 128 {
		return false
	}
	for _, c := range b {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// parseKernelDevmm reads a kernel-log statistics row:
// "<pid> dev<N> <MEM_TYPE> <module_name> <module_id> <current> <peak> <alloc_cnt> <free_cnt>".
func parseKernelDevmm(env *plog.Envelope, msg []byte, m Meta, line []byte) Record {
	f := bytes.Fields(msg)
	if len(f) < 9 {
		return Rejectf(m, line, missingOrCut(m, line, "free_cnt"), "9 columns expected: pid devN type module id current peak alloc_cnt free_cnt")
	}
	if !bytes.HasPrefix(f[1], []byte("dev")) {
		return Rejectf(m, line, diag.BadField, "dev<N> expected in the 2nd column")
	}
	r := &DevmmStat{Meta: m, MemType: string(f[2]), Module: string(f[3]), Periodic: true}
	nums := []struct {
		name string
		b    []byte
		dst  *int64
	}{
		{"pid", f[0], &r.PID}, {"device", f[1][3:], &r.Device}, {"module_id", f[4], &r.ModuleID},
		{"current_alloced_size", f[5], &r.Current}, {"alloced_peak_size", f[6], &r.Peak},
		{"alloc_cnt", f[7], &r.AllocCnt}, {"free_cnt", f[8], &r.FreeCnt},
	}
	for _, n := range nums {
		v, e := parseInt(n.b)
		if e != numOK {
			return badNum(m, line, n.name, e)
		}
		if v < 0 {
			return Rejectf(m, line, diag.NegativeValue, n.name+" is negative")
		}
		*n.dst = v
	}
	return r
}
