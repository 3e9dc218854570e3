package gelog

import (
	"bytes"

	"imas/core/diag"
	"imas/core/plog"
)

// Driver (devmm) memory statistics, printed to the run plog when a process
// exits normally (docs/log-formats.md#devmm):
//
//	[ascend][curpid:<p>,<t>][drv][devmm][_svm_mem_stats_show]<TYPE> [dev<N> ]Mem stats (Bytes). (module_name=<M>; module_id=<n>; current_alloced_size=<n>; allocated_peak_size=<n>; alloc_cnt=<n>; free_cnt=<n>)
//	[ascend][curpid: <p>, <t>][drv][devmm][_svm_mem_stats_show 148]<TYPE> dev<N> Mem stats (Bytes). (...; alloced_peak_size=<n>; ...)
//	[...][_svm_mem_stats_show]<TYPE> [dev<N> ]Cached_size:<n>Bytes
//	[...][svm_mem_stats_show_device_proc_mem 358]DEV_PROC_MEM dev<N> Mem stats (Bytes). (module_name=<M>; module_id=<n>; total_size=<n>)
//	[...][_devmm_mem_stats_show 152]<TYPE> [dev<N> ]mem stats(Bytes): module_name=<M>, module_id=<n> current_alloced_size=<n>, alloced_peak_size=<n>.
//	[...][_devmm_mem_stats_show 158]<TYPE> [dev<N> ]Cached_size:<n>Bytes
//
// The last two are the 2023 driver's (CANN 6.x), also printed under
// [_svm_mem_stats_show 154]: fields separated by ", " or " ", no
// parentheses, no counts, a period at the end.

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
		Match: func(_ *plog.Envelope, msg []byte) bool { return devmmTag(msg) >= 0 },
		Parse: parseDevmm,
		ParseInto: func(_ *plog.Envelope, msg []byte, m Meta, line []byte, sc *Scratch) Record {
			return parseDevmmInto(msg, m, line, &sc.Devmm)
		},
	})
}

func parseDevmm(_ *plog.Envelope, msg []byte, m Meta, line []byte) Record {
	return parseDevmmInto(msg, m, line, nil)
}

// devmmField is one key=value of a statistics line.
type devmmField struct{ key, val []byte }

// parseDevmmInto parses into dst when it is not nil. Memory types and
// module names are interned: a record holds no byte of the line.
func parseDevmmInto(msg []byte, m Meta, line []byte, dst *DevmmStat) Record {
	// Published copies carry markdown bold markers; they are never part of
	// a real line, so dropping them is safe.
	if bytes.Contains(msg, []byte("**")) {
		msg = bytes.ReplaceAll(msg, []byte("**"), nil)
	}
	i := devmmTag(msg)
	e := bytes.IndexByte(msg[i:], ']')
	if e < 0 {
		return reject(m, line, diag.Truncated, "cut inside the devmm function tag")
	}
	s := bytes.TrimLeft(msg[i+e+1:], " ")
	r := dst
	if r == nil {
		r = new(DevmmStat)
	}
	*r = DevmmStat{Meta: m, Device: -1, AllocCnt: -1, FreeCnt: -1}
	sp := bytes.IndexByte(s, ' ')
	if sp <= 0 {
		return reject(m, line, diag.Truncated, "memory type missing")
	}
	r.MemType, _ = internName(s[:sp])
	s = s[sp+1:]
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
	if !hasPrefixASCIIFold(s, "mem stats") {
		return reject(m, line, diag.MissingField, "\"Mem stats (Bytes)\" expected")
	}
	s = s[len("mem stats"):]
	// A complete line ends its fields with ')' (current form) or '.' (the
	// 2023 form); otherwise the last value may be incomplete.
	t := bytes.TrimRight(s, " \r")
	complete := len(t) > 0 && (t[len(t)-1] == ')' || t[len(t)-1] == '.')
	// Fields in print order; a key printed twice has its last value, and
	// the last key of an incomplete line is dropped.
	var fieldBuf [16]devmmField
	fields := fieldBuf[:0]
	var last []byte
	for len(t) > 0 {
		j := bytes.IndexAny(t, " ;,()")
		tok := t
		if j >= 0 {
			tok, t = t[:j], t[j+1:]
		} else {
			t = nil
		}
		if k, v, ok := bytes.Cut(tok, []byte("=")); ok && len(k) > 0 {
			fields = append(fields, devmmField{k, bytes.TrimRight(v, ".")})
			last = k
		}
	}
	var dropped []byte
	if !complete {
		dropped = last
	}
	get := func(key string) ([]byte, bool) {
		if dropped != nil && string(dropped) == key {
			return nil, false
		}
		for i := len(fields) - 1; i >= 0; i-- {
			if string(fields[i].key) == key {
				return fields[i].val, true
			}
		}
		return nil, false
	}
	// missing says why key has no value: absent, or the last field of a
	// line that lacks its closing '.' or ')', so that its value may be cut.
	missing := func(key, alt string) string {
		if dropped != nil && (string(dropped) == key || string(dropped) == alt) {
			return string(dropped) + " ends the line without its closing '.' or ')': its value may be cut"
		}
		return key + " missing"
	}
	mod, _ := get("module_name")
	r.Module, _ = internName(mod)
	if r.Module == "" {
		return reject(m, line, missingOrCut(m, line, "module_name"), missing("module_name", ""))
	}
	num := func(key string, dst *int64) (present bool, e numErr) {
		v, ok := get(key)
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
			return reject(m, line, diag.NegativeValue, "negative total_size")
		}
		return r
	}
	if ok, e := num("current_alloced_size", &r.Current); !ok || e != numOK {
		return reject(m, line, missingOrCut(m, line, "current_alloced_size"), missing("current_alloced_size", ""))
	}
	ok, e2 := num("allocated_peak_size", &r.Peak)
	if !ok {
		ok, e2 = num("alloced_peak_size", &r.Peak)
	}
	if !ok || e2 != numOK {
		return reject(m, line, missingOrCut(m, line, "allocated_peak_size"), missing("allocated_peak_size", "alloced_peak_size"))
	}
	if r.Current < 0 || r.Peak < 0 {
		return reject(m, line, diag.NegativeValue, "negative current or peak size")
	}
	num("alloc_cnt", &r.AllocCnt)
	num("free_cnt", &r.FreeCnt)
	return r
}

// devmmTag returns where the driver's statistics function tag starts in
// msg, or -1: _svm_mem_stats_show, svm_mem_stats_show_device_proc_mem and
// the 2023 driver's _devmm_mem_stats_show.
func devmmTag(msg []byte) int {
	if i := bytes.Index(msg, []byte("svm_mem_stats_show")); i >= 0 {
		return i
	}
	return bytes.Index(msg, []byte("_devmm_mem_stats_show"))
}

// hasPrefixASCIIFold reports whether s starts with prefix, a lower-case
// ASCII text, with s's ASCII letters compared in lower case (no rune of
// another script lowers to prefix's letters).
func hasPrefixASCIIFold(s []byte, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}
