package gelog

import (
	"bytes"
	"slices"
	"strings"
	"unsafe"

	"imas/core/diag"
)

// Static-graph statements (docs/log-formats.md#set-rows to #append-ws). Each parser receives the
// text after its marker and returns a record or a *Reject.

// parseSet reads "[IMAS]Set <graph> name[..] ..." (block and buffer-pool
// assigners, every generation since 2020-05) into dst. With dst nil the row
// is a new SetRow that owns its strings; a caller's dst gets its node name
// borrowed from line (see ParseInto).
func parseSet(rest []byte, m Meta, line []byte, dst *SetRow) Record {
	borrow := dst != nil
	if dst == nil {
		dst = new(SetRow)
	}
	rec := parseSetRow(dst, rest, m, line, borrow)
	if rj, ok := rec.(*Reject); ok {
		// Keep the graph so that cut rows can be counted per graph.
		if ni := bytes.Index(rest, []byte(" name[")); ni > 0 {
			rj.Graph = string(bytes.TrimSpace(rest[:ni]))
		} else if sp := bytes.IndexByte(rest, ' '); sp > 0 {
			rj.Graph = string(rest[:sp])
		}
		rj.MemType = 2
		if v, ok, closed := field(rest, "memtype"); ok && closed {
			if n, e := parseInt(v); e == numOK {
				rj.MemType = n
			}
		}
	}
	return rec
}

// setMissingOrCut names what is wrong with a Set row that lacks a field it
// needs: like missingOrCut, but a row that reached its end (isref[..], or
// the closing "]." of the 2020-05..06 templates) is never cut
// (docs/figures.md#truncated-lines).
func setMissingOrCut(m Meta, line []byte) string {
	if bytes.Contains(line, []byte(" isref[")) {
		return diag.MissingField
	}
	if !atLimit(line) && bytes.HasSuffix(bytes.TrimRight(line, " \t\r\n"), []byte("].")) {
		return diag.MissingField
	}
	return missingOrCut(m, line, "")
}

func parseSetRow(r *SetRow, rest []byte, m Meta, line []byte, borrow bool) Record {
	// Rows come in runs of one graph, and a node's rows share an op type:
	// the names of the row this one overwrites are reused when equal,
	// which saves an intern lookup each.
	prev := names{r.Graph, r.OpType, r.BlockType, r.graphID, r.opTypeID, r.blockTypeID}
	*r = SetRow{Meta: m, MemType: 2}
	ni := bytes.Index(rest, []byte(" name["))
	if ni < 0 {
		return reject(m, line, setMissingOrCut(m, line), "name[...] missing")
	}
	r.Graph, r.graphID = prev.graph(bytes.TrimSpace(rest[:ni]))
	if r.Graph == "" {
		return reject(m, line, diag.MissingField, "graph name missing")
	}
	msg := rest[ni+1:]
	name, after, ok, closed := nameField(msg)
	if !ok || !closed {
		return reject(m, line, diag.Truncated, "cut inside name[...]")
	}
	if borrow && len(name) > 0 {
		r.Node = unsafe.String(&name[0], len(name)) // valid while line is
	} else {
		r.Node = string(name)
	}
	var f setFields
	f.scan(msg[after:])
	if v, ok, _ := f.field(kOptype); ok {
		r.OpType, r.opTypeID = prev.opType(v)
	}
	if f.kind == "" || !f.kindClosed {
		return reject(m, line, setMissingOrCut(m, line), "tensor kind[index] missing")
	}
	kind, idx := f.kind, f.kindVal
	r.Kind = kind
	var e numErr
	if r.Index, e = parseInt(idx); e != numOK {
		return badNum(m, line, kind, e)
	}
	need := [...]struct {
		key string
		k   int
		dst *int64
	}{{"offset to", kOffset, &r.Offset}, {"size", kSize, &r.Size}, {"realsize", kRealSize, &r.RealSize}}
	for _, nf := range need {
		v, ok, closed := f.field(nf.k)
		if !ok || !closed {
			return reject(m, line, setMissingOrCut(m, line), nf.key+"[...] missing")
		}
		if *nf.dst, e = parseInt(v); e != numOK {
			return badNum(m, line, nf.key, e)
		}
	}
	if r.Offset < 0 || r.Size < 0 || r.RealSize < 0 {
		return reject(m, line, diag.NegativeValue, "negative offset or size")
	}
	if v, ok, closed := f.field(kStreamID); ok && closed {
		if r.Stream, e = streamID(v); e != numOK {
			return badNum(m, line, "streamid", e)
		}
		if !isDigits(v) {
			r.StreamDesc = string(v) // keep "5--2" forms; plain numbers print from Stream
		}
	}
	if v, ok, closed := f.field(kMemType); ok && closed {
		if r.MemType, e = parseInt(v); e != numOK {
			return badNum(m, line, "memtype", e)
		}
	}
	if v, ok, closed := f.field(kNoAlign); ok && closed {
		if r.NoAlign, e = parseInt(v); e != numOK {
			return badNum(m, line, "noalignsize", e)
		}
	}
	if v, ok, closed := f.field(kLifeBegin); ok {
		if !closed {
			return reject(m, line, diag.Truncated, "cut inside life time begin[...]")
		}
		r.HasLife = true
		if r.LifeBegin, _, e = lifeRange(v); e != numOK {
			return badNum(m, line, "life time begin", e)
		}
		if !isDigits(v) {
			r.LifeDesc[0] = string(v)
		}
		v, ok, closed = f.field(kLifeEnd)
		if !ok || !closed {
			return reject(m, line, diag.Truncated, "life time end[...] missing")
		}
		if _, r.LifeEnd, e = lifeRange(v); e != numOK {
			return badNum(m, line, "life time end", e)
		}
		if !isDigits(v) {
			r.LifeDesc[1] = string(v)
		}
	}
	if v, ok, closed := f.field(kChild); ok && closed {
		n := 0
		for len(v) > 0 {
			if n == 5 {
				return reject(m, line, diag.BadField, "child[...] has more than 5 parts")
			}
			p := v
			c := 0 // parts are a digit or two: a loop beats IndexByte
			for c < len(v) && v[c] != ':' {
				c++
			}
			if c < len(v) {
				p, v = v[:c], v[c+1:]
			} else {
				v = nil
			}
			if r.Child[n], e = parseInt(p); e != numOK {
				return badNum(m, line, "child", e)
			}
			n++
		}
		r.ChildParts = n
	}
	v, ok, closed := f.field(kIsRef)
	switch {
	case ok && closed:
		n, e := parseInt(v)
		if e != numOK {
			return badNum(m, line, "isref", e)
		}
		r.IsRef = n != 0
	case ok && !closed:
		return reject(m, line, diag.Truncated, "cut inside isref[...]")
	default:
		// Templates of 2020-05..2020-06 end without isref, with a period
		// after the last field. Anything else was cut by the logger.
		t := bytes.TrimRight(msg, " \r")
		if !bytes.HasSuffix(t, []byte("].")) || r.OpType != "" {
			return reject(m, line, missingOrCut(m, line, "isref"), "isref[...] missing")
		}
	}
	if v, ok, _ := f.field(kBatch); ok && len(v) > 0 {
		r.Batch = string(v)
	}
	if v, ok, _ := f.field(kBlockType); ok && len(v) > 0 {
		r.BlockType, r.blockTypeID = prev.blockType(v)
	}
	return r
}

// names are the interned names of the previous row parsed into a SetRow.
type names struct {
	g, op, bt       string
	gID, opID, btID uint32
}

func (p *names) graph(b []byte) (string, uint32) {
	if p.g != "" && string(b) == p.g {
		return p.g, p.gID
	}
	return internName(b)
}

func (p *names) opType(b []byte) (string, uint32) {
	if p.op != "" && string(b) == p.op {
		return p.op, p.opID
	}
	return internName(b)
}

func (p *names) blockType(b []byte) (string, uint32) {
	if p.bt != "" && string(b) == p.bt {
		return p.bt, p.btID
	}
	return internName(b)
}

func isDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseCont reads continuous-memory reassign lines. rest starts after the
// "<...> : " of the marker; dir is input/output.
func parseCont(rest []byte, m Meta, line []byte, dir, variant string) Record {
	r := &ContRow{Meta: m, MemType: 2, Dir: dir, Variant: variant}
	// "Set <graph> name[" / "set <graph> name["
	t := rest
	if len(t) >= 4 && (bytes.HasPrefix(t, []byte("Set ")) || bytes.HasPrefix(t, []byte("set "))) {
		t = t[4:]
	}
	ni := bytes.Index(t, []byte(" name["))
	if ni < 0 {
		return reject(m, line, missingOrCut(m, line, "name"), "name[...] missing")
	}
	r.Graph = string(bytes.TrimSpace(t[:ni]))
	msg := t[ni+1:]
	name, after, ok, closed := nameField(msg)
	if !ok || !closed {
		return reject(m, line, diag.Truncated, "cut inside name[...]")
	}
	r.Node = string(name)
	if v, ok, _ := fieldAfter(msg, after, "optype"); ok {
		r.OpType = string(v)
	}
	kind, idx, ok := kindIndex(msg, after)
	if !ok {
		return reject(m, line, missingOrCut(m, line, "index"), "output[...] missing")
	}
	r.Kind = kind
	var e numErr
	if r.Index, e = parseInt(idx); e != numOK {
		return badNum(m, line, kind, e)
	}
	v, ok, closed := fieldAfter(msg, after, "offset to ")
	if !ok || !closed {
		return reject(m, line, missingOrCut(m, line, "offset"), "offset to [...] missing")
	}
	if r.Offset, e = parseInt(v); e != numOK {
		return badNum(m, line, "offset", e)
	}
	if v, ok, closed := fieldAfter(msg, after, "stream_id"); ok && closed {
		if r.Stream, e = streamID(v); e != numOK {
			return badNum(m, line, "stream_id", e)
		}
	}
	if v, ok, closed := fieldAfter(msg, after, "memtype"); ok && closed {
		if r.MemType, e = parseInt(v); e != numOK {
			return badNum(m, line, "memtype", e)
		}
	}
	if v, ok, closed := fieldAfter(msg, after, "size"); ok && closed {
		if r.Size, e = parseInt(v); e != numOK {
			return badNum(m, line, "size", e)
		}
	}
	rv, ok, closed := fieldAfter(msg, after, "realsize")
	if !ok {
		rv, ok, closed = fieldAfter(msg, after, "real_size")
	}
	if !ok || !closed {
		return reject(m, line, diag.Truncated, "realsize[...] missing")
	}
	if r.RealSize, e = parseInt(rv); e != numOK {
		return badNum(m, line, "realsize", e)
	}
	if r.Offset < 0 || r.RealSize < 0 || r.Size < 0 {
		return reject(m, line, diag.NegativeValue, "negative offset or size")
	}
	np, ok, _ := fieldAfter(msg, after, "nopadding size")
	if !ok {
		np, ok, _ = fieldAfter(msg, after, "nopadding")
	}
	if ok {
		n, _ := parseInt(np)
		r.NoPadding = n != 0
	}
	return r
}

// parseAtomic reads "[IMAS]Atomic output|ordinary workspace|fusion workspace : Set ...".
func parseAtomic(rest []byte, m Meta, line []byte, what string) Record {
	r := &AtomicPiece{Meta: m, MemType: 2, What: what}
	t := rest
	if bytes.HasPrefix(t, []byte("Set ")) {
		t = t[4:]
	}
	ni := bytes.Index(t, []byte(" name["))
	if ni < 0 {
		return reject(m, line, missingOrCut(m, line, "name"), "name[...] missing")
	}
	r.Graph = string(bytes.TrimSpace(t[:ni]))
	msg := t[ni+1:]
	name, after, ok, closed := nameField(msg)
	if !ok || !closed {
		return reject(m, line, diag.Truncated, "cut inside name[...]")
	}
	r.Node = string(name)
	if v, ok, _ := fieldAfter(msg, after, "optype"); ok {
		r.OpType = string(v)
	}
	var e numErr
	if kind, idx, ok := kindIndex(msg, after); ok {
		r.Kind = kind
		if r.Index, e = parseInt(idx); e != numOK {
			return badNum(m, line, kind, e)
		}
	}
	v, ok, closed := fieldAfter(msg, after, "offset to ")
	if !ok || !closed {
		return reject(m, line, missingOrCut(m, line, "offset"), "offset to [...] missing")
	}
	if r.Offset, e = parseInt(v); e != numOK {
		return badNum(m, line, "offset", e)
	}
	if v, ok, closed := fieldAfter(msg, after, "stream_id"); ok && closed {
		if r.Stream, e = streamID(v); e != numOK {
			return badNum(m, line, "stream_id", e)
		}
	}
	if v, ok, closed := fieldAfter(msg, after, "memtype"); ok && closed {
		if r.MemType, e = parseInt(v); e != numOK {
			return badNum(m, line, "memtype", e)
		}
	}
	if v, ok, closed := fieldAfter(msg, after, "size"); ok && closed {
		if r.Size, e = parseInt(v); e != numOK {
			return badNum(m, line, "size", e)
		}
	}
	var rs []byte
	if v, ok, closed := fieldAfter(msg, after, "real_size"); ok && closed {
		rs = v
	} else if v, ok, closed := fieldAfter(msg, after, "ssize"); ok && closed {
		rs = v
	} else if ok && !closed {
		return reject(m, line, diag.Truncated, "cut inside real_size[...]")
	}
	if rs == nil {
		// 2020 "Atomic output" lines always carry real_size; without it the
		// line was cut.
		return reject(m, line, diag.Truncated, "real_size[...] missing")
	}
	if r.RealSize, e = parseInt(rs); e != numOK {
		return badNum(m, line, "real_size", e)
	}
	if r.RealSize < 0 || r.Size < 0 || r.Offset < 0 {
		return reject(m, line, diag.NegativeValue, "negative offset or size")
	}
	if v, ok, _ := fieldAfter(msg, after, "batch"); ok {
		r.Batch = string(v)
	}
	return r
}

// parseAtomicClean reads SetAtomicCleanAttr (all 2020-2023 forms) and
// AppendAttrsToMemSetOp.
func parseAtomicClean(rest []byte, m Meta, line []byte) Record {
	r := &AtomicClean{Meta: m, MemType: 2}
	t := rest
	if bytes.HasPrefix(t, []byte("Set ")) {
		t = t[4:]
	}
	// 2020-08 form: "Set graph[%s] atomic_node[%s] output offset [%s] size[%s] streamid[%ld]"
	if v, ok, closed := field(t, "graph"); ok && closed && bytes.HasPrefix(t, []byte("graph[")) {
		r.Graph = string(v)
		if n, ok, _ := field(t, "atomic_node"); ok {
			r.Node = string(n)
		}
		if o, ok, closed := field(t, "output offset "); ok && closed {
			r.Offsets, _ = splitList(o)
		}
	} else {
		sp := bytes.IndexByte(t, ' ')
		if sp <= 0 {
			return reject(m, line, diag.Truncated, "graph missing")
		}
		r.Graph = string(t[:sp])
		name, _, ok, closed := nameField(t)
		if !ok || !closed {
			return reject(m, line, missingOrCut(m, line, "name"), "name[...] missing")
		}
		r.Node = string(name)
		if v, ok, _ := field(t, "optype"); ok {
			r.OpType = string(v)
		}
		v, ok, closed := field(t, "offset to ")
		if !ok || !closed {
			return reject(m, line, missingOrCut(m, line, "offset"), "offset to [...] missing")
		}
		var e numErr
		if r.Offsets, e = splitList(v); e != numOK {
			return badNum(m, line, "offset", e)
		}
	}
	var e numErr
	if v, ok, closed := field(t, "size"); ok && closed {
		if r.Sizes, e = splitList(v); e != numOK {
			return badNum(m, line, "size", e)
		}
	}
	if v, ok, closed := field(t, "streamid"); ok && closed {
		r.Stream, _ = streamID(v)
	}
	if v, ok, closed := field(t, "memtype"); ok && closed {
		r.MemType, _ = parseInt(v)
	}
	return r
}

// afterAssignNames maps GE's AfterAssignMemory keys to report figure names.
var afterAssignNames = map[string]string{
	"total_size": "ge_total",
	"topo_mode":  "topo",
}

// parseAfterAssign reads "[IMAS]AfterAssignMemory : <graph> memoffset[..], memtype[..], ...".
func parseAfterAssign(rest []byte, m Meta, line []byte) Record {
	r := &AfterAssign{Meta: m, MemType: 2}
	mi := bytes.Index(rest, []byte(" memoffset["))
	if mi < 0 {
		// 2020-03..05: "[IMAS]AfterAssignMemory : %s" only.
		g := bytes.TrimSpace(bytes.TrimRight(rest, ". \r"))
		if len(g) == 0 || bytes.IndexByte(g, ' ') >= 0 {
			return reject(m, line, missingOrCut(m, line, "memoffset"), "memoffset[...] missing")
		}
		r.Graph = string(g)
		return r
	}
	// The graph's rows interned its name already.
	r.Graph, _ = internName(bytes.TrimSpace(rest[:mi]))
	msg := rest[mi+1:]
	// Keys and values are substrings of one copy of the fields, and the
	// list is sized once: a summary line costs three allocations, not
	// two a field.
	text := string(msg)
	r.Logged = make([][2]string, 0, bytes.Count(msg, []byte("[")))
	hasMemType := false
	// Walk every key[value] in print order; at is msg's offset in text.
	for at := 0; len(msg) > 0; {
		lb := bytes.IndexByte(msg, '[')
		if lb < 0 {
			break
		}
		key := strings.TrimSpace(strings.Trim(text[at:at+lb], ", "))
		rb := bytes.IndexByte(msg[lb:], ']')
		if rb < 0 {
			if !hasMemType {
				// The graph's key is not known yet: memtype[..] comes
				// right after memoffset[..] in every template that has it.
				return reject(m, line, diag.Truncated, "cut inside "+key+"[...]")
			}
			break // cut in GE's own figures: keep what was read
		}
		val, valText := msg[lb+1:lb+rb], text[at+lb+1:at+lb+rb]
		msg, at = msg[lb+rb+1:], at+lb+rb+1
		var e numErr
		switch key {
		case "memoffset":
			if r.MemOffset, e = parseInt(val); e != numOK {
				return badNum(m, line, "memoffset", e)
			}
			if r.MemOffset < 0 {
				return reject(m, line, diag.NegativeValue, "negative memoffset")
			}
			r.HasOffset = true
		case "memtype", "memory type":
			if r.MemType, e = parseInt(val); e != numOK {
				return badNum(m, line, "memtype", e)
			}
			hasMemType = true
		default:
			if key == "streams" && len(msg) > 0 && msg[0] == ' ' {
				r.Failure = true
			}
			if n, ok := afterAssignNames[key]; ok {
				key = n
			}
			r.Logged = append(r.Logged, [2]string{key, valText})
		}
	}
	if len(r.Logged) == 0 {
		r.Logged = nil // as when nothing was appended
	}
	if !r.HasOffset {
		return reject(m, line, diag.Truncated, "memoffset[...] missing")
	}
	// 2020-05..09 lines end at memoffset[..]; text after it without a
	// memtype[..] is the start of one, cut ("memoffset[9], mem").
	if !hasMemType && len(bytes.Trim(msg, " .\t\r\n")) > 0 {
		return reject(m, line, diag.Truncated, "cut before memtype[...]")
	}
	return r
}

// parseAppendWs reads "[IMAS]after append ws, node <n> refresh <what> from [..] to [..]".
func parseAppendWs(rest []byte, m Meta, line []byte) Record {
	t := bytes.TrimPrefix(rest, []byte("node "))
	ri := bytes.Index(t, []byte(" refresh "))
	if ri < 0 {
		return reject(m, line, diag.Unrecognised, "after append ws line without refresh")
	}
	r := &AppendWs{Meta: m, Node: string(t[:ri])}
	t = t[ri+len(" refresh "):]
	fi := bytes.Index(t, []byte(" from ["))
	if fi < 0 {
		return reject(m, line, diag.Truncated, "from [...] missing")
	}
	r.What = string(t[:fi])
	t = t[fi+len(" from ["):]
	e1 := bytes.IndexByte(t, ']')
	if e1 < 0 {
		return reject(m, line, diag.Truncated, "cut inside from [...]")
	}
	var e numErr
	if r.From, e = splitList(t[:e1]); e != numOK {
		return badNum(m, line, "from", e)
	}
	t = t[e1+1:]
	ti := bytes.Index(t, []byte("to ["))
	if ti < 0 {
		return reject(m, line, diag.Truncated, "to [...] missing")
	}
	t = t[ti+4:]
	e2 := bytes.IndexByte(t, ']')
	if e2 < 0 {
		return reject(m, line, diag.Truncated, "cut inside to [...]")
	}
	if r.To, e = splitList(t[:e2]); e != numOK {
		return badNum(m, line, "to", e)
	}
	// To replaces row offsets, which are never negative.
	neg := func(v int64) bool { return v < 0 }
	if slices.ContainsFunc(r.From, neg) || slices.ContainsFunc(r.To, neg) {
		return reject(m, line, diag.NegativeValue, "negative offset")
	}
	return r
}
