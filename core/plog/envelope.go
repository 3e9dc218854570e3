// Package plog parses the envelope of one CANN plog line, for every GE log
// generation (docs/log-formats.md#envelope):
//
//	[LEVEL] MODULE(pid,pname):YYYY-MM-DD-hh:mm:ss.mmm.uuu [file:line][kv]...tid [allocator_N] Func:msg
//
// It never allocates: every field is a sub-slice of the line.
package plog

import "bytes"

// Envelope is the parsed header of one line. Byte slices alias the line.
type Envelope struct {
	Level  []byte // INFO, DEBUG, EVENT, ...
	Module []byte // GE, RUNTIME, DRV, ...
	PID    int64
	PName  []byte
	Time   int64 // microseconds since 2000-01-01 (monotone, comparable); 0 if absent
	File   []byte
	FileNo int
	KV     []byte // raw "[status:INIT]" groups, if any
	Event  bool   // run-log GEEVENT: "[EVENT]" after [file:line], or level EVENT
	TID    int64  // -1 when absent (GE before 2020-11, executor_c)
	Alloc  []byte // "allocator_2" / "rts_allocator_1" tag (E3), without brackets
	Func   []byte // function token, may contain "::"
	Msg    []byte // message after "Func:"; for lines without a function token, the body
	// Form is the envelope reader that read the line: FormPlog for plog
	// lines, another Form for the non-plog forms of other.go.
	Form Form

	// times is kept from one Parse to the next: the lines of a log share
	// their date, hour and minute for long runs.
	times timeCache
	// report is kept from one ParseAny to the next: the process and time
	// of the latest error-report header, for the report's later lines.
	report reportState
}

// levels known to the CANN logger; the prefix search uses them to tolerate
// grep prefixes ("path:123:[INFO] ...").
var levels = [][]byte{[]byte("[INFO] "), []byte("[DEBUG] "), []byte("[WARNING] "),
	[]byte("[ERROR] "), []byte("[EVENT] "), []byte("[TRACE] "), []byte("[WARN] ")}

// Parse fills e from line and reports whether the line has a plog envelope.
// A line whose header is damaged still yields as much as could be read; the
// message is then the rest of the line after the last header field read.
func Parse(line []byte, e *Envelope) bool {
	times, report := e.times, e.report
	*e = Envelope{TID: -1, times: times, report: report}
	start := 0
	if len(line) == 0 || line[0] != '[' || !isLevelAt(line, 0) {
		// Tolerate a prefix such as grep's "file:line:" within the first 512 bytes.
		start = findLevel(line)
		if start < 0 {
			e.Msg = line
			return false
		}
	}
	p := line[start+1:]
	rb := bytes.IndexByte(p, ']')
	if rb < 0 {
		e.Msg = line
		return false
	}
	e.Level = p[:rb]
	p = p[rb+1:]
	if len(p) == 0 || p[0] != ' ' {
		e.Msg = line
		return false
	}
	p = p[1:]
	// MODULE(pid,pname):
	lp := bytes.IndexByte(p, '(')
	if lp <= 0 || lp > 32 {
		e.Msg = line
		return false
	}
	e.Module = p[:lp]
	p = p[lp+1:]
	comma := bytes.IndexByte(p, ',')
	if comma <= 0 {
		e.Msg = line
		return false
	}
	pid, ok := atoi(p[:comma])
	if !ok {
		e.Msg = line
		return false
	}
	e.PID = pid
	p = p[comma+1:]
	// Process names may contain ')' in theory; the header ends at "):<digit>".
	end := headerEnd(p)
	if end < 0 {
		e.Msg = line
		return false
	}
	e.PName = p[:end]
	return e.parseBody(line, p[end+2:])
}

// parseBody reads what follows "MODULE(pid,pname):" in a plog line: the
// time, [file:line], key/value groups, the tid, the allocator tag and
// "Func:msg".
func (e *Envelope) parseBody(line, p []byte) bool {
	// Timestamp up to the next space.
	sp := bytes.IndexByte(p, ' ')
	if sp < 0 {
		e.Time = e.times.parse(p)
		e.Msg = nil
		return true
	}
	e.Time = e.times.parse(p[:sp])
	p = p[sp+1:]
	kvFrom := -1 // offset of the first [key:value] group in line
	// GELOGT lines of 2020-2023 put their "[status:INIT] " group before
	// [file:line]; later ones after it (below).
	for len(p) > 0 && p[0] == '[' {
		rb := bytes.IndexByte(p, ']')
		if rb < 0 || rb+2 >= len(p) || p[rb+1] != ' ' || p[rb+2] != '[' {
			break
		}
		inner := p[1:rb]
		c := bytes.IndexByte(inner, ':')
		if c <= 0 || !isIdent(inner[:c]) {
			break
		}
		if _, isLine := atoi(inner[c+1:]); isLine {
			break // [file:line] itself
		}
		at := len(line) - len(p)
		if kvFrom < 0 {
			kvFrom = at
		}
		e.KV = line[kvFrom : at+rb+1]
		p = p[rb+2:]
	}
	// [file:line] (optional: old DRV lines go straight to "[ascend]").
	if len(p) > 0 && p[0] == '[' {
		rb := bytes.IndexByte(p, ']')
		if rb > 0 {
			inner := p[1:rb]
			if c := bytes.LastIndexByte(inner, ':'); c > 0 {
				if n, ok := atoi(inner[c+1:]); ok {
					e.File = inner[:c]
					e.FileNo = int(n)
					p = p[rb+1:]
				}
			}
		}
	}
	// Optional [key:value] groups and [EVENT].
	for len(p) > 0 && p[0] == '[' {
		rb := bytes.IndexByte(p, ']')
		if rb < 0 {
			break
		}
		inner := p[1:rb]
		if bytes.Equal(inner, []byte("EVENT")) {
			e.Event = true
		} else if c := bytes.IndexByte(inner, ':'); c > 0 && isIdent(inner[:c]) && e.File != nil {
			// "[status:INIT]" style key/value groups (GELOGT); KV spans all.
			at := len(line) - len(p)
			if kvFrom < 0 {
				kvFrom = at
			}
			e.KV = line[kvFrom : at+rb+1]
		} else {
			break // a message that starts with '[' (DRV "[ascend]...", executor_c)
		}
		p = p[rb+1:]
	}
	if bytes.Equal(e.Level, []byte("EVENT")) {
		e.Event = true
	}
	// RUNTIME 2026 lines put a space before the tid.
	q := p
	if len(q) > 0 && q[0] == ' ' {
		q = q[1:]
	}
	// tid: digits followed by a space (at most 18, as atoi reads).
	i := 0
	var tid int64
	for i < len(q) && q[i] >= '0' && q[i] <= '9' {
		tid = tid*10 + int64(q[i]-'0')
		i++
	}
	if i > 0 && i < len(q) && q[i] == ' ' {
		if i <= 18 {
			e.TID = tid
			q = q[i+1:]
			// Optional [allocator_N] / [rts_allocator_N] tag.
			if len(q) > 0 && q[0] == '[' {
				if rb := bytes.IndexByte(q, ']'); rb > 0 && rb < 48 && bytes.Contains(q[1:rb], []byte("allocator_")) && rb+1 < len(q) && q[rb+1] == ' ' {
					e.Alloc = q[1:rb]
					q = q[rb+2:]
				}
			}
			p = q
		}
	}
	// Function token: up to the first ':' that is not part of "::".
	if fn, msg, ok := splitFunc(p); ok {
		e.Func = fn
		e.Msg = msg
	} else {
		e.Msg = p
	}
	return true
}

func isLevelAt(line []byte, at int) bool {
	for _, l := range levels {
		if bytes.HasPrefix(line[at:], l) {
			return true
		}
	}
	return false
}

func findLevel(line []byte) int {
	lim := line
	if len(lim) > 512 {
		lim = lim[:512]
	}
	best := -1
	for _, l := range levels {
		if i := bytes.Index(lim, l); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// splitFunc splits "Func:msg". The function token is an identifier that may
// contain "::", "~", "<...>" is not expected. It must be short and contain no
// spaces; otherwise the body has no function token.
func splitFunc(p []byte) (fn, msg []byte, ok bool) {
	for i := 0; i < len(p) && i < 256; i++ {
		c := p[i]
		if funcByte[c] {
			continue
		}
		if c == ':' {
			if i+1 < len(p) && p[i+1] == ':' {
				i++
				continue
			}
			if i == 0 {
				return nil, nil, false
			}
			return p[:i], p[i+1:], true
		}
		return nil, nil, false
	}
	return nil, nil, false
}

// funcByte holds the bytes of a function token other than ':'.
var funcByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '_' || c == '~' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return t
}()

// headerEnd is the index of the first "):" in p, -1 if none.
func headerEnd(p []byte) int {
	// A process name is a few bytes: a byte loop finds its end before a
	// call to IndexByte would have started.
	for i := 0; i+1 < len(p) && i < 32; i++ {
		if p[i] == ')' && p[i+1] == ':' {
			return i
		}
	}
	for off := 0; ; {
		i := bytes.IndexByte(p[off:], ')')
		if i < 0 {
			return -1
		}
		off += i
		if off+1 < len(p) && p[off+1] == ':' {
			return off
		}
		off++
	}
}

func isIdent(b []byte) bool {
	if len(b) == 0 || len(b) > 32 {
		return false
	}
	for _, c := range b {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

func atoi(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// parseTime reads "YYYY-MM-DD-hh:mm:ss.mmm.uuu" into microseconds since
// 2000-01-01 using a proleptic day count; 0 when malformed.
func parseTime(b []byte) int64 {
	var c timeCache
	return c.parse(b)
}

// timeCache is parseTime that remembers the minute of the last time read:
// the next time in the same minute only reads its seconds.
type timeCache struct {
	minute [17]byte // "YYYY-MM-DD-hh:mm:"
	base   int64    // that minute in microseconds
	ok     bool
}

func (c *timeCache) parse(b []byte) int64 {
	if len(b) < 27 || b[4] != '-' || b[7] != '-' || b[10] != '-' || b[13] != ':' || b[16] != ':' || b[19] != '.' || b[23] != '.' {
		return 0
	}
	if !c.ok || string(b[:17]) != string(c.minute[:]) {
		y, mo, d := digits(b[0:4]), digits(b[5:7]), digits(b[8:10])
		h, mi := digits(b[11:13]), digits(b[14:16])
		if y < 2000 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || mi < 0 {
			c.ok = false
			return 0
		}
		days := daysFromCivil(y, mo, d) - daysFromCivil(2000, 1, 1)
		c.base = ((days*24+h)*60 + mi) * 60_000_000
		copy(c.minute[:], b[:17])
		c.ok = true
	}
	s, ms, us := digits(b[17:19]), digits(b[20:23]), digits(b[24:27])
	if s < 0 || ms < 0 || us < 0 {
		return 0
	}
	return c.base + s*1_000_000 + ms*1000 + us
}

// digits is atoi for the fixed-width fields of a time, -1 if not digits.
func digits(s []byte) int64 {
	if n, ok := atoi(s); ok {
		return n
	}
	return -1
}

// daysFromCivil is Howard Hinnant's algorithm.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
