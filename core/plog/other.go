package plog

import "bytes"

// Memory errors and driver statistics also reach users in text that is not
// a plog line: the host kernel log of the driver, the DDK logger of 2019,
// plog lines whose level tag a copy mangled, and the error report CANN
// hands to frameworks (printed by Python's logger). Each form has its own
// reader here; ParseAny tries them when a line has no plog envelope.

// Form says which envelope reader read a line.
type Form uint8

const (
	// FormPlog: "[LEVEL] MODULE(pid,pname):time ..." (Parse).
	FormPlog Form = iota
	// FormKernel: the driver's host kernel log,
	// "[YYYY-MM-DD-hh:mm:ss.uuuuuu] [ascend] [MODULE] [LEVEL] [func line] <pname:pid,tid> msg".
	FormKernel
	// FormDDK: the 2019 DDK logger, "[LEVEL] MODULE:time [tid ][file:line ]Func:msg".
	FormDDK
	// FormDamaged: a plog header whose level tag lost its bracket or a
	// letter, or with a space before the colon: "ERR0R] MODULE(pid,pname) :time ...".
	FormDamaged
	// FormReport: a line of CANN's error report as a framework prints it:
	// a header "... [PID: pid] time message" or a traceback line
	// "... message[FUNC:f][FILE:file][LINE:n]".
	FormReport
)

func (f Form) String() string {
	switch f {
	case FormKernel:
		return "kernel-log"
	case FormDDK:
		return "ddk"
	case FormDamaged:
		return "damaged-plog"
	case FormReport:
		return "error-report"
	}
	return "plog"
}

// reportState is the process and time of the latest error-report header:
// the traceback lines under it carry neither.
type reportState struct {
	pid  int64
	time int64
}

// ParseAny is Parse, then the readers of the other forms. It reports
// whether one of them read the line; e.Form says which.
func ParseAny(line []byte, e *Envelope) bool {
	if Parse(line, e) {
		return true
	}
	switch {
	case parseKernel(line, e):
		e.Form = FormKernel
	case parseDDK(line, e):
		e.Form = FormDDK
	case parseDamaged(line, e):
		e.Form = FormDamaged
	case parseReport(line, e):
		e.Form = FormReport
	default:
		e.reset()
		e.Msg = line
		return false
	}
	return true
}

func (e *Envelope) reset() {
	times, report := e.times, e.report
	*e = Envelope{TID: -1, times: times, report: report}
}

// parseKernel reads the host kernel log form.
func parseKernel(line []byte, e *Envelope) bool {
	if len(line) < 30 || line[0] != '[' || line[27] != ']' {
		return false
	}
	t := kernelTime(line[1:27])
	if t == 0 {
		return false
	}
	e.reset()
	e.Time = t
	p := bytes.TrimLeft(line[28:], " ")
	// Bracket groups: [ascend] [MODULE] [LEVEL] [func line].
	var groups [][]byte
	for len(p) > 0 && p[0] == '[' && len(groups) < 6 {
		rb := bytes.IndexByte(p, ']')
		if rb < 0 {
			break
		}
		groups = append(groups, p[1:rb])
		p = bytes.TrimLeft(p[rb+1:], " ")
	}
	lv := -1
	for i, g := range groups {
		if isLevelWord(g) {
			lv = i
			break
		}
	}
	if lv < 0 {
		return false
	}
	e.Level = groups[lv]
	if lv > 0 {
		e.Module = groups[lv-1]
	}
	if lv+1 < len(groups) {
		fn := groups[lv+1]
		if sp := bytes.LastIndexByte(fn, ' '); sp > 0 {
			if n, ok := atoi(fn[sp+1:]); ok {
				e.FileNo = int(n)
				fn = fn[:sp]
			}
		}
		e.Func = fn
	}
	// <pname:pid,tid>
	if len(p) > 0 && p[0] == '<' {
		if gt := bytes.IndexByte(p, '>'); gt > 0 {
			in := p[1:gt]
			if c := bytes.LastIndexByte(in, ':'); c >= 0 {
				ids := in[c+1:]
				if comma := bytes.IndexByte(ids, ','); comma > 0 {
					pid, ok1 := atoi(ids[:comma])
					tid, ok2 := atoi(ids[comma+1:])
					if ok1 && ok2 {
						e.PName, e.PID, e.TID = in[:c], pid, tid
					}
				}
			}
			p = bytes.TrimLeft(p[gt+1:], " ")
		}
	}
	e.Msg = p
	return true
}

// kernelTime reads "YYYY-MM-DD-hh:mm:ss.uuuuuu"; 0 when malformed.
func kernelTime(b []byte) int64 {
	if len(b) != 26 || b[19] != '.' {
		return 0
	}
	// Rewrite as the plog form "YYYY-MM-DD-hh:mm:ss.mmm.uuu".
	var t [27]byte
	copy(t[:20], b[:20])
	copy(t[20:23], b[20:23])
	t[23] = '.'
	copy(t[24:27], b[23:26])
	var c timeCache
	return c.parse(t[:])
}

var levelWords = []string{"INFO", "DEBUG", "WARNING", "WARN", "ERROR", "EVENT", "TRACE", "NOTICE", "ERR", "CRIT", "ALERT", "EMERG"}

func isLevelWord(b []byte) bool {
	for _, w := range levelWords {
		if string(b) == w {
			return true
		}
	}
	return false
}

// parseDDK reads "[LEVEL] MODULE:YYYY-MM-DD-hh:mm:ss.mmm.uuu rest".
func parseDDK(line []byte, e *Envelope) bool {
	start := 0
	if !isLevelAt(line, 0) {
		if start = findLevel(line); start < 0 {
			return false
		}
	}
	p := line[start+1:]
	rb := bytes.IndexByte(p, ']')
	if rb < 0 || rb+1 >= len(p) || p[rb+1] != ' ' {
		return false
	}
	level := p[:rb]
	p = p[rb+2:]
	c := bytes.IndexByte(p, ':')
	if c <= 0 || c > 32 || !isIdent(p[:c]) {
		return false
	}
	module := p[:c]
	p = p[c+1:]
	if len(p) < 27 {
		return false
	}
	var tc timeCache
	t := tc.parse(p[:27])
	if t == 0 {
		return false
	}
	e.reset()
	e.Level, e.Module, e.Time = level, module, t
	p = bytes.TrimLeft(p[27:], " ")
	// Optional thread number.
	i := 0
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		i++
	}
	if i > 0 && i < len(p) && p[i] == ' ' {
		e.TID, _ = atoi(p[:i])
		p = p[i+1:]
	}
	// Optional "path/file.cc:line ".
	if sp := bytes.IndexByte(p, ' '); sp > 0 {
		tok := p[:sp]
		if c := bytes.LastIndexByte(tok, ':'); c > 0 && bytes.IndexByte(tok, '.') > 0 {
			if n, ok := atoi(tok[c+1:]); ok {
				e.File, e.FileNo = tok[:c], int(n)
				p = p[sp+1:]
			}
		}
	}
	if fn, msg, ok := splitFunc(p); ok {
		e.Func, e.Msg = fn, msg
	} else {
		e.Msg = p
	}
	return true
}

// parseDamaged finds "MODULE(pid,pname)" followed by an optional space, a
// colon and a time in the first 512 bytes, whatever precedes it (a level
// tag a copy mangled), and reads the rest as a plog line.
func parseDamaged(line []byte, e *Envelope) bool {
	lim := line
	if len(lim) > 512 {
		lim = lim[:512]
	}
	for off := 0; off < len(lim); {
		i := bytes.IndexByte(lim[off:], '(')
		if i < 0 {
			return false
		}
		lp := off + i
		off = lp + 1
		ms := lp
		for ms > 0 && isUpperIdentByte(line[ms-1]) {
			ms--
		}
		if lp-ms < 2 || lp-ms > 32 || (ms > 0 && line[ms-1] != ' ' && line[ms-1] != ']') {
			continue
		}
		p := line[lp+1:]
		comma := bytes.IndexByte(p, ',')
		if comma <= 0 {
			continue
		}
		pid, ok := atoi(p[:comma])
		if !ok {
			continue
		}
		p = p[comma+1:]
		rp := bytes.IndexByte(p, ')')
		if rp < 0 {
			continue
		}
		pname := p[:rp]
		q := p[rp+1:]
		if len(q) > 0 && q[0] == ' ' {
			q = q[1:]
		}
		if len(q) < 2 || q[0] != ':' || q[1] < '0' || q[1] > '9' {
			continue
		}
		e.reset()
		e.Level = bytes.Trim(line[:ms], "[] ")
		e.Module, e.PID, e.PName = line[ms:lp], pid, pname
		return e.parseBody(line, q[1:])
	}
	return false
}

func isUpperIdentByte(c byte) bool {
	return c == '_' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parseReport reads a line of an error report: a header that names the
// process and time ("[PID: n] YYYY-MM-DD-hh:mm:ss.mmm.uuu message"), or a
// traceback line ending in GE's "[FUNC:f][FILE:file][LINE:n]" trailer,
// which takes the process and time of the header before it. A framework
// prefix "(name pid=n)" names the process of every line.
func parseReport(line []byte, e *Envelope) bool {
	header := bytes.Index(line, []byte("[PID: "))
	trailer := bytes.LastIndex(line, []byte("[FUNC:"))
	if header < 0 && trailer < 0 {
		return false
	}
	e.reset()
	e.Level = []byte("ERROR")
	if header >= 0 {
		p := line[header+len("[PID: "):]
		rb := bytes.IndexByte(p, ']')
		if rb <= 0 {
			return false
		}
		pid, ok := atoi(p[:rb])
		if !ok {
			return false
		}
		p = bytes.TrimLeft(p[rb+1:], " ")
		var tc timeCache
		t := int64(0)
		if len(p) >= 27 {
			t = tc.parse(p[:27])
		}
		e.PID, e.Time = pid, t
		e.report = reportState{pid: pid, time: t}
		// The message keeps the error code, which frameworks print before
		// or after "[PID: p] time": it starts after the logger's own
		// "[file:line]".
		e.Msg = line[header:]
		if rb := bytes.IndexByte(line[:header], ']'); rb >= 0 {
			e.Msg = bytes.TrimLeft(line[rb+1:], " \t")
		}
		e.readFrameworkPrefix(line)
		return true
	}
	tail := line[trailer:]
	if !bytes.Contains(tail, []byte("[FILE:")) || !bytes.Contains(tail, []byte("[LINE:")) {
		return false
	}
	e.Func = bracketValue(tail, "[FUNC:")
	e.File = bracketValue(tail, "[FILE:")
	if n, ok := atoi(bracketValue(tail, "[LINE:")); ok {
		e.FileNo = int(n)
	}
	// The message follows the logger's own "[file:line]" and its indent.
	body := line[:trailer]
	if rb := bytes.IndexByte(body, ']'); rb >= 0 {
		body = body[rb+1:]
	}
	e.Msg = bytes.TrimLeft(body, " \t")
	e.PID, e.Time = e.report.pid, e.report.time
	e.readFrameworkPrefix(line)
	return true
}

// readFrameworkPrefix reads vllm's "(Name pid=n) " line prefix.
func (e *Envelope) readFrameworkPrefix(line []byte) {
	if len(line) == 0 || line[0] != '(' {
		return
	}
	rp := bytes.IndexByte(line, ')')
	if rp < 0 {
		return
	}
	in := line[1:rp]
	i := bytes.Index(in, []byte(" pid="))
	if i < 0 {
		return
	}
	if pid, ok := atoi(in[i+len(" pid="):]); ok {
		e.PName, e.PID = in[:i], pid
	}
}

// bracketValue returns v of the first "<key>v]" in b.
func bracketValue(b []byte, key string) []byte {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return nil
	}
	v := b[i+len(key):]
	if rb := bytes.IndexByte(v, ']'); rb >= 0 {
		return v[:rb]
	}
	return v
}
