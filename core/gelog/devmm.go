package gelog

import (
	"bytes"

	"imas/core/plog"
)

// Driver (devmm) memory statistics, printed to the run plog when a process
// exits normally (ge-log-formats.md §4.5; real-log-lines.md §1-§3):
//
//	[ascend][curpid:<p>,<t>][drv][devmm][_svm_mem_stats_show]<TYPE> [dev<N> ]Mem stats (Bytes). (module_name=<M>; module_id=<n>; current_alloced_size=<n>; allocated_peak_size=<n>; alloc_cnt=<n>; free_cnt=<n>)
//	[ascend][curpid: <p>, <t>][drv][devmm][_svm_mem_stats_show 148]<TYPE> dev<N> Mem stats (Bytes). (...; alloced_peak_size=<n>; ...)
//	[...][_svm_mem_stats_show]<TYPE> [dev<N> ]Cached_size:<n>Bytes
//	[...][svm_mem_stats_show_device_proc_mem 358]DEV_PROC_MEM dev<N> Mem stats (Bytes). (module_name=<M>; module_id=<n>; total_size=<n>)

// DevmmStat is one statistics line. Cached lines have no module.
type DevmmStat struct {
	Meta
	MemType  string // HOST_MEM, MEM_DEV_SMALL_HBM, DEV_MEM, SVM_MEM, DEV_PROC_MEM, ...
	Device   int64  // -1 when the line has no dev<N> (HOST_MEM, SVM_MEM)
	Module   string
	ModuleID int64
	Current  int64
	Peak     int64
	AllocCnt int64 // -1 when cut off
	FreeCnt  int64 // -1 when cut off
	Cached   int64 // Cached_size lines
	IsCached bool
	Total    int64 // DEV_PROC_MEM total_size
	// Periodic: printed while the process runs (the kernel log's table),
	// not at its exit, so memory still allocated is no leak hint.
	Periodic bool
}

func init() {
	Register(Family{
		Name:  "devmm",
		Match: func(_ *plog.Envelope, msg []byte) bool { return bytes.Contains(msg, []byte("svm_mem_stats_show")) },
		Parse: parseDevmm,
	})
}

func parseDevmm(_ *plog.Envelope, msg []byte, m Meta, line []byte) Record {
	// Published copies carry markdown bold markers; they are never part of
	// a real line, so dropping them is safe.
	if bytes.Contains(msg, []byte("**")) {
		msg = bytes.ReplaceAll(msg, []byte("**"), nil)
	}
	i := bytes.Index(msg, []byte("svm_mem_stats_show"))
	e := bytes.IndexByte(msg[i:], ']')
	if e < 0 {
		return reject(m, line, "truncated", "cut inside the devmm function tag")
	}
	s := bytes.TrimLeft(msg[i+e+1:], " ")
	r := &DevmmStat{Meta: m, Device: -1, AllocCnt: -1, FreeCnt: -1}
	sp := bytes.IndexByte(s, ' ')
	if sp <= 0 {
		return reject(m, line, "truncated", "memory type missing")
	}
	r.MemType, s = string(s[:sp]), s[sp+1:]
	if bytes.HasPrefix(s, []byte("dev")) {
		d := leadingDigits(s[3:])
		if len(d) > 0 {
			r.Device, _ = parseInt(d)
			s = bytes.TrimLeft(s[3+len(d):], " ")
		}
	}
	if bytes.HasPrefix(s, []byte("Cached_size:")) {
		v := leadingDigits(s[len("Cached_size:"):])
		var e numErr
		if r.Cached, e = parseInt(v); e != numOK {
			return badNum(m, line, "Cached_size", e)
		}
		r.IsCached = true
		r.AllocCnt, r.FreeCnt = 0, 0
		return r
	}
	p := bytes.IndexByte(s, '(')
	if !bytes.HasPrefix(bytes.ToLower(s), []byte("mem stats")) || p < 0 {
		return reject(m, line, missingOrCut(line, "Mem stats"), "\"Mem stats (Bytes). (...)\" expected")
	}
	// The "(Bytes)" unit is the first parenthesis; the fields follow.
	if q := bytes.IndexByte(s[p+1:], '('); q >= 0 {
		s = s[p+1+q+1:]
	}
	fields := map[string][]byte{}
	var last string
	for _, kv := range bytes.Split(bytes.TrimRight(s, ")"), []byte(";")) {
		k, v, ok := bytes.Cut(bytes.TrimSpace(kv), []byte("="))
		if ok {
			fields[string(k)] = bytes.TrimSpace(v)
			last = string(k)
		}
	}
	if !bytes.HasSuffix(s, []byte(")")) {
		// Cut by the logger: the last value may be incomplete.
		delete(fields, last)
	}
	r.Module = string(fields["module_name"])
	if r.Module == "" {
		return reject(m, line, missingOrCut(line, "module_name"), "module_name missing")
	}
	num := func(key string, dst *int64) (present bool, e numErr) {
		v, ok := fields[key]
		if !ok {
			return false, numOK
		}
		n, e := parseInt(v)
		if e == numOK {
			*dst = n
		}
		return true, e
	}
	num("module_id", &r.ModuleID)
	if ok, e := num("total_size", &r.Total); ok {
		if e != numOK {
			return badNum(m, line, "total_size", e)
		}
		if r.Total < 0 {
			return reject(m, line, "negative-value", "negative total_size")
		}
		return r
	}
	if ok, e := num("current_alloced_size", &r.Current); !ok || e != numOK {
		return reject(m, line, missingOrCut(line, "current_alloced_size"), "current_alloced_size missing")
	}
	ok, e2 := num("allocated_peak_size", &r.Peak)
	if !ok {
		ok, e2 = num("alloced_peak_size", &r.Peak)
	}
	if !ok || e2 != numOK {
		return reject(m, line, missingOrCut(line, "allocated_peak_size"), "allocated_peak_size missing")
	}
	if r.Current < 0 || r.Peak < 0 {
		return reject(m, line, "negative-value", "negative current or peak size")
	}
	num("alloc_cnt", &r.AllocCnt)
	num("free_cnt", &r.FreeCnt)
	return r
}
