package gelog

import (
	"bytes"
	"hash/maphash"
	"slices"
	"strings"
	"unicode/utf8"

	"imas/core/diag"
	"imas/core/plog"
)

// Markers are the substrings that make a line a candidate
// (docs/figures.md#candidates): a line containing one of them is either parsed into a record or
// rejected with a reason. Keep in sync with the dispatch below.
var Markers = []string{
	"[IMAS]",
	"MallocMemory",
	"MemoryAllocator::",
	"[KernelTrace][",
	"Malloc block ",
	"Free block ",
	"Device memory   : [",
	"svm_mem_stats_show",   // _svm_mem_stats_show, svm_mem_stats_show_device_proc_mem
	"devmm_mem_stats_show", // 2023 plog "_devmm_mem_stats_show", the kernel log's "[devmm_mem_stats_show"
	"create caching memory allocator",
	"virtual_active_addr_base:",
	"InitFeatureMapAndP2PMem",
	"rtMallocPhysical success",
	"aclrtFreePhysical success",
	"Reuse result:",
	"after append ws, origin memory size",
	"Final StaticMemoryPolicy",
	"Total memory size is",
	"RtMemAllocator::free",
	"DeviceAllocator::",
	"PrintDetails:",
	"zero_copy_mem", // zero_copy_memory is <n>, zero_copy_mem_size
	// memory errors (memerr.go)
	"Mem create failed",
	"halMemCreate failed",
	"halMemAlloc failed",
	"207001", // ErrCode=207001, runtime result = 207001: the driver's out of memory
	"InitRuntimeParams",
	"Call rtMalloc fail",
	"Mem_remote_map ioctl error",
	"dev memory alloc",
	"EL0004",
	// models loaded into user memory (loadmem.go)
	"WithMem",
}

// IsCandidate reports whether line carries one of the Markers.
func IsCandidate(line []byte) bool {
	for _, mk := range Markers {
		if containsText(line, mk) {
			return true
		}
	}
	return false
}

// A Family parses one kind of statement that is not a static-graph [IMAS]
// line (variables, mallocs, addresses, pools, devmm; docs/log-formats.md
// from #variables on). Match reports whether the message belongs to the family; Parse
// returns a record (possibly *Ignored) or a *Reject built with Rejectf.
type Family struct {
	Name  string
	Match func(env *plog.Envelope, msg []byte) bool
	Parse func(env *plog.Envelope, msg []byte, m Meta, line []byte) Record
	// ParseInto, when set, is Parse for ParseScratch: it may parse into
	// the caller's Scratch (sc is never nil).
	ParseInto func(env *plog.Envelope, msg []byte, m Meta, line []byte, sc *Scratch) Record
	// Rare families are tried after the others: their lines are few,
	// and every line of a frequent family would pay for their Match.
	Rare bool
}

// families is filled by the init functions of the family files.
var families []Family

// Register adds a statement family; families are tried in registration
// order after the static-graph statements, the Rare ones last.
func Register(f Family) {
	i := len(families)
	for !f.Rare && i > 0 && families[i-1].Rare {
		i--
	}
	families = slices.Insert(families, i, f)
}

var eventSeed = maphash.MakeSeed()

// EventKey hashes a message for run-log/debug-log duplicate detection.
func EventKey(msg []byte) uint64 { return maphash.Bytes(eventSeed, msg) }

// Parse turns one candidate line into a record. env must be the line's
// parsed envelope (ok = whether plog.Parse succeeded). Parse never returns
// nil for a candidate line.
func Parse(env *plog.Envelope, envOK bool, line []byte, m Meta) Record {
	return ParseInto(env, envOK, line, m, nil)
}

// ParseInto is Parse that, when the line is an "[IMAS]Set" row, parses it
// into *set and returns set, so that a caller that keeps rows in its own
// form (the row tape) allocates nothing per row. set's node name then
// points into line: it is valid only as long as line is. set may be nil.
func ParseInto(env *plog.Envelope, envOK bool, line []byte, m Meta, set *SetRow) Record {
	return parse(env, envOK, line, m, set, nil)
}

// Scratch holds the records a caller lends ParseScratch: the statements
// that make up the bulk of a log ("[IMAS]Set" rows, RT2 pool allocations
// and frees, "Malloc block" and "Free block" lines) are parsed into them
// instead of new records. Their strings may point into the line (Set
// rows' node names, the kernel names of pool traces, operator and
// variable names): a caller that keeps
// such a record past the line copies it, and those strings with it.
type Scratch struct {
	Set    SetRow
	Alloc  PoolAlloc
	Free   PoolFree
	Block  PoolBlock
	Addr   OpAddress
	Malloc DeviceMalloc
	Var    VarAssign
	Devmm  DevmmStat
}

// ParseScratch is Parse that parses the frequent statements into sc (see
// Scratch) and returns a pointer into it for them; other statements get a
// record of their own. It allocates nothing for a statement it parses
// into sc.
func ParseScratch(env *plog.Envelope, envOK bool, line []byte, m Meta, sc *Scratch) Record {
	return parse(env, envOK, line, m, &sc.Set, sc)
}

func parse(env *plog.Envelope, envOK bool, line []byte, m Meta, set *SetRow, sc *Scratch) Record {
	m.PID, m.TID, m.Time, m.Event = env.PID, env.TID, env.Time, env.Event
	msg := env.Msg
	if !envOK {
		return reject(m, line, diag.BadEnvelope, "no plog header ([LEVEL] MODULE(pid,name):time)")
	}
	if i := indexIMAS(msg); i >= 0 {
		if r := parseIMAS(env, msg, i, m, line, set); r != nil {
			return r
		}
	}
	if poolStatement(env, msg) {
		return parsePoolInto(env, msg, m, line, sc)
	}
	for i := range families {
		f := &families[i]
		if f.Match(env, msg) {
			if sc != nil && f.ParseInto != nil {
				return f.ParseInto(env, msg, m, line, sc)
			}
			return f.Parse(env, msg, m, line)
		}
	}
	if bytes.Contains(msg, []byte("Reuse result:")) || bytes.Contains(msg, []byte("mem_offset exclude zero_copy_memory")) {
		return &Ignored{Meta: m, What: diag.IgnoreReuseResult}
	}
	if bytes.Contains(msg, []byte("after append ws, origin memory size")) {
		return parseAppendWsSize(msg, m, line)
	}
	return reject(m, line, diag.Unrecognised, "marker present but statement unknown")
}

// indexIMAS is bytes.Index(msg, "[IMAS]") searched by its 'I': pool
// lines, the most frequent after Set rows, hold several '[' and rarely an
// 'I'.
func indexIMAS(msg []byte) int {
	for from := 0; ; {
		i := bytes.Index(msg[from:], []byte("IMAS]"))
		if i < 0 {
			return -1
		}
		if i += from; i > 0 && msg[i-1] == '[' {
			return i - 1
		}
		from = i + 1
	}
}

// static-graph [IMAS] statements, keyed on the text after "[IMAS]".
func parseIMAS(env *plog.Envelope, msg []byte, at int, m Meta, line []byte, set *SetRow) Record {
	s := msg[at+len("[IMAS]"):]
	has := func(p string) ([]byte, bool) {
		if bytes.HasPrefix(s, []byte(p)) {
			return s[len(p):], true
		}
		return nil, false
	}
	if r, ok := has("SetAtomicCleanAttr : "); ok {
		return parseAtomicClean(r, m, line)
	}
	if r, ok := has("AppendAttrsToMemSetOp : "); ok {
		return parseAtomicClean(r, m, line)
	}
	if r, ok := has("Set "); ok {
		return parseSet(r, m, line, set)
	}
	if r, ok := has("Continuous input : "); ok {
		variant := "graph"
		if at > 0 && bytes.Contains(msg[:at], []byte("[ContinuousMem]")) {
			variant = "block"
		}
		return parseCont(r, m, line, "input", variant)
	}
	if r, ok := has("Continuous output : "); ok {
		return parseCont(r, m, line, "output", "graph")
	}
	if r, ok := has("Check Continuous input : "); ok {
		return parseCont(r, m, line, "input", "check")
	}
	if bytes.HasPrefix(s, []byte("Virtual node optimize")) {
		r := s[len("Virtual node optimize"):]
		r = bytes.TrimLeft(r, " :")
		return parseCont(r, m, line, "output", "virtual")
	}
	if r, ok := has("ReAssignMergeMemory : "); ok {
		return parseCont(r, m, line, "output", "merge")
	}
	if bytes.HasPrefix(s, []byte("Atomic output : we have assigned")) {
		return &Ignored{Meta: m, What: diag.IgnoreAtomicNote}
	}
	if r, ok := has("Atomic output : "); ok {
		return parseAtomic(r, m, line, "output")
	}
	if r, ok := has("Atomic ordinary workspace : "); ok {
		return parseAtomic(r, m, line, "ordinary workspace")
	}
	if r, ok := has("Atomic fusion workspace : "); ok {
		return parseAtomic(r, m, line, "fusion workspace")
	}
	if bytes.HasPrefix(s, []byte("Atomic no assign")) {
		return &Ignored{Meta: m, What: diag.IgnoreAtomicNoAssign}
	}
	if r, ok := has("AfterAssignMemory : "); ok {
		m.EventKey = EventKey(msg)
		return parseAfterAssign(r, m, line)
	}
	if r, ok := has("after append ws, "); ok {
		return parseAppendWs(r, m, line)
	}
	return nil // not a static statement: other families may know it
}

func parseAppendWsSize(msg []byte, m Meta, line []byte) Record {
	r := &AppendWsSize{Meta: m}
	i := bytes.Index(msg, []byte("origin memory size "))
	j := bytes.Index(msg, []byte("last memory size "))
	if i < 0 || j < 0 {
		return reject(m, line, diag.Truncated, "memory sizes missing")
	}
	o := msg[i+len("origin memory size "):]
	if c := bytes.IndexByte(o, ','); c >= 0 {
		o = o[:c]
	}
	l := bytes.TrimRight(msg[j+len("last memory size "):], ". \r")
	var e numErr
	if r.Origin, e = parseInt(o); e != numOK {
		return badNum(m, line, "origin memory size", e)
	}
	if r.Last, e = parseInt(l); e != numOK {
		return badNum(m, line, "last memory size", e)
	}
	if r.Origin < 0 || r.Last < 0 {
		return reject(m, line, diag.NegativeValue, "negative memory size")
	}
	return r
}

// MaxText is how much of a rejected line a diagnostic keeps.
const MaxText = 300

// Rejectf builds a *Reject for a family parser.
func Rejectf(m Meta, line []byte, reason, detail string) *Reject {
	return reject(m, line, reason, detail)
}

func reject(m Meta, line []byte, reason, detail string) *Reject {
	return &Reject{Meta: m, Reason: reason, Detail: detail, Text: Excerpt(line),
		AtLimit: reason == diag.Truncated && atLimit(line)}
}

// Excerpt returns a printable, valid UTF-8 prefix of line for diagnostics.
func Excerpt(line []byte) string {
	if len(line) > MaxText {
		line = line[:MaxText]
	}
	printable := true
	for _, c := range line {
		if c < 0x20 || c >= 0x7f {
			printable = false
			break
		}
	}
	if printable {
		return string(line)
	}
	var b strings.Builder
	for len(line) > 0 {
		r, n := utf8.DecodeRune(line)
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString("\\x")
			b.WriteByte("0123456789abcdef"[line[0]>>4])
			b.WriteByte("0123456789abcdef"[line[0]&15])
		case r < 0x20 || r == 0x7f:
			b.WriteString("\\x")
			b.WriteByte("0123456789abcdef"[byte(r)>>4])
			b.WriteByte("0123456789abcdef"[byte(r)&15])
		default:
			b.WriteRune(r)
		}
		line = line[n:]
	}
	return b.String()
}

// truncatedAt is GE's logger limit: MSG_LENGTH 1024 counted from [file:line].
const truncatedAt = 1000

// atLimit reports whether line reaches GE's logger limit, counted from
// the envelope's [file:line] on (or from the line's start without one).
func atLimit(line []byte) bool {
	if len(line) >= truncatedAt {
		if j := bytes.Index(line, []byte(" [")); j >= 0 {
			return len(line)-j >= truncatedAt
		}
		return true
	}
	return false
}

// missingOrCut names what is wrong with a line that lacks a field its
// statement needs. Only two things cut a GE line: the logger, at its
// limit, and the end of a file written or copied mid-line
// (m.Unterminated). Any other line is complete: the field is missing.
func missingOrCut(m Meta, line []byte, _ string) string {
	if m.Unterminated || atLimit(line) {
		return diag.Truncated
	}
	return diag.MissingField
}

func badNum(m Meta, line []byte, fieldName string, e numErr) *Reject {
	switch e {
	case numOverflow:
		return reject(m, line, diag.NumberOverflow, fieldName+" does not fit in int64")
	case numEmpty:
		return reject(m, line, diag.MissingField, fieldName+" is empty")
	}
	return reject(m, line, diag.BadNumber, fieldName+" is not a number")
}
