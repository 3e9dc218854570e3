package gelog

import (
	"bytes"
	"unsafe"

	"imas/core/diag"
	"imas/core/plog"
)

// Load-time memory regions and operator device addresses
// (docs/log-formats.md#regions, #addresses; ReserveVirtualMemory).

// Region is a memory area GE allocated for a model: feature map (F, also
// per extra memory type), weights (W), the old variable area (V), or the
// virtual range of an expandable allocator (V, ReserveVirtualMemory).
type Region struct {
	Meta
	Statement string // InitFeatureMapAndP2PMem, InitFeatureMap, MallocExMem, InitWeightMem, InitModelMem, InitVariableMem, ReserveVirtualMemory
	GraphID   int64  // -1 when the line names no graph
	Type      string // F, W, V
	MemType   int64  // mem_type[..] / memory_type:..; -1 when not printed
	Base      uint64
	Size      int64
	Release   bool  // ReserveVirtualMemory's release line
	Device    int64 // -1 when not printed
}

// OpAddress is one operator address (or constant/input copy) line.
type OpAddress struct {
	Meta
	// Statement: graph (HEAD "[IMAS]graph_<id> ..."), GetInputDataAddrs,
	// GetOutputDataAddrs, GetWorkspaceDataAddrs, GetInputConstAddrOffset,
	// get failed, InitConstant, Init FileConstant, CopyPlainData,
	// CopyTransData, ffts.
	Statement string
	GraphID   int64  // -1 when the line names no graph
	Type      string // F, P, H, S, C, V, L1 ("" for FFTS lines)
	Name      string
	OpType    string // FFTS lines only
	Kind      string // input, output, workspace
	Variant   string // aicpu, p2p, l1 (workspace forms)
	Index     int64  // -1 when not printed
	Offset    int64  // logical offset (offset[..] or data_offset[..]); -1 when not printed
	Size      int64  // size[..] / bytes[..] / mem_size[..]; -1 when not printed
	DataSize  int64  // datasize[..] of copies; -1 when not printed
	Addr      uint64
	HasAddr   bool
	Src       uint64 // CopyPlainData src[..] (2020)
	Null      bool   // "Null addr"
	Failed    bool   // "[IMAS]get failed for ..."
	OM2       bool   // "[OM2][IMAS]..." offline-model copy of the line
}

// address statement kinds, keyed on the text after "[IMAS]".
const (
	stNone = iota
	stRegion
	stOp
	stCopy
	stFFTS
	stIgnore
)

// imasStatement classifies the text after "[IMAS]".
func imasStatement(s []byte) (kind int, name string) {
	for _, p := range []struct {
		prefix string
		kind   int
		name   string
	}{
		{"InitFeatureMapAndP2PMem ", stRegion, "InitFeatureMapAndP2PMem"},
		{"InitFeatureMap ", stRegion, "InitFeatureMap"},
		{"InitWeightMem ", stRegion, "InitWeightMem"},
		{"InitModelMem ", stRegion, "InitModelMem"},
		{"InitVariableMem ", stRegion, "InitVariableMem"},
		{"graph_", stOp, "graph"},
		{"GetInputDataAddrs ", stOp, "GetInputDataAddrs"},
		{"GetOutputDataAddrs ", stOp, "GetOutputDataAddrs"},
		{"GetWorkspaceDataAddrs ", stOp, "GetWorkspaceDataAddrs"},
		{"GetInputConstAddrOffset ", stOp, "GetInputConstAddrOffset"},
		{"get failed for ", stOp, "get failed"},
		{"InitConstant memcpy ", stCopy, "InitConstant"},
		{"Init FileConstant memcpy ", stCopy, "Init FileConstant"},
		{"CopyPlainData memcpy ", stCopy, "CopyPlainData"},
		{"CopyTransData memcpy ", stCopy, "CopyTransData"},
		// Informational forms that carry no address imas checks.
		{" Find addr ", stIgnore, diag.IgnoreDirectCopyAddr},
		{"refresh in/out addr", stIgnore, diag.IgnoreRefreshAddr},
		{"GetInputSize ", stIgnore, diag.IgnoreIOSize},
		{"GetOutputSize ", stIgnore, diag.IgnoreIOSize},
		{"model_name:", stIgnore, diag.IgnoreFixedFeatureMemory},
	} {
		if bytes.HasPrefix(s, []byte(p.prefix)) {
			return p.kind, p.name
		}
	}
	if len(s) > 0 && s[0] == ' ' && bytes.Contains(s, []byte(" get real ")) {
		return stFFTS, "ffts"
	}
	return stNone, ""
}

func init() {
	Register(Family{Name: "addresses", Match: matchAddress, Parse: parseAddress, ParseInto: parseAddressInto})
}

func matchAddress(_ *plog.Envelope, msg []byte) bool {
	if i := bytes.Index(msg, []byte("[IMAS]")); i >= 0 {
		k, _ := imasStatement(msg[i+len("[IMAS]"):])
		return k != stNone
	}
	// 2021 MallocExMem region without [IMAS], and the expandable allocators'
	// virtual range.
	return bytes.HasPrefix(msg, []byte("InitFeatureMapAndP2PMem graph_")) ||
		bytes.Contains(msg, []byte("virtual_active_addr_base:"))
}

func parseAddress(env *plog.Envelope, msg []byte, m Meta, line []byte) Record {
	return parseAddressInto(env, msg, m, line, nil)
}

// parseAddressInto is parseAddress that parses operator addresses into
// sc.Addr when sc is not nil, the operator name borrowed from line (see
// Scratch).
func parseAddressInto(_ *plog.Envelope, msg []byte, m Meta, line []byte, sc *Scratch) Record {
	i := bytes.Index(msg, []byte("[IMAS]"))
	if i < 0 {
		if bytes.Contains(msg, []byte("virtual_active_addr_base:")) {
			m.EventKey = EventKey(msg)
			return parseVirtualRange(msg, m, line)
		}
		m.EventKey = EventKey(msg)
		return parseRegion(msg[len("InitFeatureMapAndP2PMem "):], "MallocExMem", m, line)
	}
	s := msg[i+len("[IMAS]"):]
	kind, name := imasStatement(s)
	switch kind {
	case stRegion:
		m.EventKey = EventKey(msg) // GEEVENT in most generations
		return parseRegion(s[len(name)+1:], name, m, line)
	case stFFTS:
		return parseFFTS(s[1:], m, line)
	case stIgnore:
		return &Ignored{Meta: m, What: name}
	}
	var r *OpAddress
	if sc != nil {
		r = &sc.Addr
	} else {
		r = new(OpAddress)
	}
	*r = OpAddress{Meta: m, Statement: name, GraphID: -1, Index: -1, Offset: -1, Size: -1, DataSize: -1,
		OM2: bytes.Contains(msg[:i], []byte("[OM2]"))}
	var rec Record
	if kind == stCopy {
		rec = parseCopy(s[len(name)+len(" memcpy "):], r, line)
	} else {
		rec = parseOpAddress(s, r, line, sc != nil)
	}
	if rec == r && (r.Size < -1 || r.DataSize < -1 || r.Offset < -1) { // -1 is "not printed"
		return reject(m, line, diag.NegativeValue, "negative offset or size")
	}
	return rec
}

// graphID reads "graph_<id>" at the start of b (after optional spaces) and
// returns the id and the rest; ok is false when b does not start with it.
func graphID(b []byte) (id int64, rest []byte, ok bool) {
	b = bytes.TrimLeft(b, " ")
	if !bytes.HasPrefix(b, []byte("graph_")) {
		return -1, b, false
	}
	b = b[len("graph_"):]
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	v, e := parseInt(b[:n])
	if e != numOK {
		return -1, b, false
	}
	return v, b[n:], true
}

func parseRegion(s []byte, stmt string, m Meta, line []byte) Record {
	r := &Region{Meta: m, Statement: stmt, MemType: -1, Device: -1}
	id, rest, ok := graphID(s)
	if !ok {
		return reject(m, line, missingOrCut(m, line, "graph"), "graph_<id> missing")
	}
	r.GraphID = id
	t, ok, closed := field(rest, "type")
	if !ok || !closed {
		return reject(m, line, missingOrCut(m, line, "type"), "type[...] missing")
	}
	r.Type = string(t)
	a, ok, closed := field(rest, "memaddr")
	if !ok {
		a, ok, closed = field(rest, "mem_addr")
	}
	if !ok || !closed {
		return reject(m, line, missingOrCut(m, line, "memaddr"), "memaddr[...] missing")
	}
	if r.Base, ok = parseAddr(a); !ok {
		return reject(m, line, diag.BadNumber, "memaddr[...] is not an address")
	}
	sz, ok, closed := field(rest, "mem_size")
	if !ok {
		sz, ok, closed = field(rest, "size")
	}
	if !ok || !closed {
		return reject(m, line, missingOrCut(m, line, "mem_size"), "mem_size[...] missing")
	}
	var e numErr
	if r.Size, e = parseInt(sz); e != numOK {
		return badNum(m, line, "mem_size", e)
	}
	if v, ok, closed := field(rest, "mem_type"); ok && closed {
		if r.MemType, e = parseInt(v); e != numOK {
			return badNum(m, line, "mem_type", e)
		}
	}
	if r.Size < 0 {
		return reject(m, line, diag.NegativeValue, "negative mem_size")
	}
	return r
}

// parseVirtualRange reads ReserveVirtualMemory's
// "virtual_active_addr_base:<p> virtual_memory_size:<SizeToString> device_id:<d>, memory_type:<mt>, share_phy_allocator:<0|1>."
// and the release form without memory_type.
func parseVirtualRange(msg []byte, m Meta, line []byte) Record {
	r := &Region{Meta: m, Statement: "ReserveVirtualMemory", GraphID: -1, Type: "V", MemType: -1, Device: -1}
	a, ok := colonField(msg, "virtual_active_addr_base")
	if !ok {
		return reject(m, line, diag.Truncated, "virtual_active_addr_base cut")
	}
	if r.Base, ok = parseAddr(a); !ok {
		return reject(m, line, diag.BadNumber, "virtual_active_addr_base is not an address")
	}
	sz, ok := colonField(msg, "virtual_memory_size")
	if !ok {
		return reject(m, line, missingOrCut(m, line, "virtual_memory_size"), "virtual_memory_size missing")
	}
	var e numErr
	if r.Size, e = parseInt(leadingDigits(sz)); e != numOK {
		return badNum(m, line, "virtual_memory_size", e)
	}
	if v, ok := colonField(msg, "device_id"); ok {
		r.Device, _ = parseInt(leadingDigits(v))
	}
	if v, ok := colonField(msg, "memory_type"); ok {
		r.MemType, _ = parseInt(leadingDigits(v))
	}
	r.Release = !bytes.Contains(msg, []byte("share_phy_allocator"))
	return r
}

// parseOpAddress reads the operator address forms of model_utils.cc.
// parseOpAddress reads an operator's address into r; with borrow, the
// operator name points into line (see Scratch).
func parseOpAddress(s []byte, r *OpAddress, line []byte, borrow bool) Record {
	m := r.Meta
	if r.Statement == "get failed" {
		r.Failed = true
		s = s[len("get failed for "):]
	} else if r.Statement != "graph" {
		s = s[len(r.Statement)+1:]
	}
	if id, rest, ok := graphID(s); ok {
		r.GraphID, s = id, rest
	} else if r.Statement == "graph" || r.Failed {
		return reject(m, line, missingOrCut(m, line, "graph"), "graph_<id> missing")
	}
	t, ok, closed := field(s, "type")
	if !ok || !closed {
		return reject(m, line, missingOrCut(m, line, "type"), "type[...] missing")
	}
	r.Type = string(t)
	var e numErr
	if r.Statement == "GetInputConstAddrOffset" { // preload: type[C] size[n]
		if v, ok, closed := field(s, "size"); ok && closed {
			if r.Size, e = parseInt(v); e != numOK {
				return badNum(m, line, "size", e)
			}
		}
		r.Kind = "input"
		return r
	}
	name, after, ok, closed := nameField(s)
	if !ok || !closed {
		return reject(m, line, missingOrCut(m, line, "name"), "name[...] missing or cut")
	}
	if borrow && len(name) > 0 {
		r.Name = unsafe.String(&name[0], len(name))
	} else {
		r.Name = string(name)
	}
	if r.Type == "L1" { // "name[..], mem_addr[workspace index <i>]:0x<hex>"
		return parseL1(s[after:], r, line)
	}
	kind, idx, ok := kindIndex(s, after)
	if !ok {
		return reject(m, line, missingOrCut(m, line, "index"), "input/output/workspace[...] missing")
	}
	r.Kind = kind
	if kind == "workspace" {
		at := indexFieldFrom(s, "workspace", after)
		switch {
		case at >= 6 && bytes.HasSuffix(s[:at], []byte("aicpu ")):
			r.Variant = "aicpu"
		case at >= 4 && bytes.HasSuffix(s[:at], []byte("p2p ")):
			r.Variant = "p2p"
		}
	}
	if r.Index, e = parseInt(idx); e != numOK {
		return badNum(m, line, kind, e)
	}
	for _, f := range []struct {
		key string
		dst *int64
	}{{"offset", &r.Offset}, {"data_offset", &r.Offset}, {"size", &r.Size}, {"bytes", &r.Size}} {
		if v, ok, closed := fieldAfter(s, after, f.key); ok && closed {
			if *f.dst, e = parseInt(v); e != numOK {
				return badNum(m, line, f.key, e)
			}
		}
	}
	switch {
	case r.Failed:
		return r
	case bytes.Contains(s[after:], []byte("Null addr")):
		r.Null = true
		return r
	case r.Statement == "GetInputDataAddrs" && r.GraphID < 0 && r.Offset >= 0:
		return r // preload: data_offset instead of an address
	}
	a, ok, closed := fieldAfter(s, after, "memaddr")
	if !ok || !closed {
		return reject(m, line, missingOrCut(m, line, "memaddr"), "memaddr[...] missing")
	}
	if r.Addr, ok = parseAddr(a); !ok {
		return reject(m, line, diag.BadNumber, "memaddr[...] is not an address")
	}
	r.HasAddr = true
	return r
}

// parseL1 reads the old L1 workspace form "mem_addr[workspace index <i>]:0x<hex>".
func parseL1(s []byte, r *OpAddress, line []byte) Record {
	r.Kind, r.Variant = "workspace", "l1"
	i := bytes.Index(s, []byte("workspace index "))
	j := -1
	if i >= 0 {
		j = indexFrom(s, "]:", i+len("workspace index "))
	}
	if j < 0 {
		return reject(r.Meta, line, missingOrCut(r.Meta, line, "mem_addr"), "mem_addr[workspace index ..]:addr missing")
	}
	var e numErr
	if r.Index, e = parseInt(s[i+len("workspace index ") : j]); e != numOK {
		return badNum(r.Meta, line, "workspace index", e)
	}
	var ok bool
	if r.Addr, ok = parseAddr(bytes.TrimSpace(s[j+2:])); !ok {
		return reject(r.Meta, line, missingOrCut(r.Meta, line, "addr"), "L1 address missing")
	}
	r.HasAddr = true
	return r
}

// parseCopy reads constant copies (InitConstant, Init FileConstant) and
// input copies (CopyPlainData, CopyTransData) of every generation.
func parseCopy(s []byte, r *OpAddress, line []byte) Record {
	m := r.Meta
	id, rest, ok := graphID(s)
	if !ok {
		return reject(m, line, missingOrCut(m, line, "graph"), "graph_<id> missing")
	}
	r.GraphID, s = id, rest
	if t, ok, closed := field(s, "type"); ok && closed {
		r.Type = string(t)
	}
	after := 0
	if name, a, ok, closed := nameField(s); ok {
		if !closed {
			return reject(m, line, diag.Truncated, "cut inside name[...]")
		}
		r.Name, after = string(name), a
	}
	kind, idx, ok := kindIndex(s, after)
	if !ok {
		return reject(m, line, missingOrCut(m, line, "index"), "output/input[...] missing")
	}
	r.Kind = kind
	var e numErr
	if r.Index, e = parseInt(idx); e != numOK {
		return badNum(m, line, kind, e)
	}
	for _, f := range []struct {
		key string
		dst *int64
	}{{"mem_size", &r.Size}, {"datasize", &r.DataSize}} {
		if v, ok, closed := fieldAfter(s, after, f.key); ok && closed {
			if *f.dst, e = parseInt(v); e != numOK {
				return badNum(m, line, f.key, e)
			}
		}
	}
	a, ok, closed := fieldAfter(s, after, "memaddr")
	if !ok {
		a, ok, closed = fieldAfter(s, after, "dst")
	}
	if ok && closed {
		if r.Addr, ok = parseAddr(a); !ok {
			return reject(m, line, diag.BadNumber, "memaddr[...] is not an address")
		}
		r.HasAddr = true
	} else if r.Statement != "CopyTransData" { // 2020 CopyTransData had no address
		return reject(m, line, missingOrCut(m, line, "memaddr"), "memaddr[...] missing")
	}
	if v, ok, closed := fieldAfter(s, after, "src"); ok && closed {
		r.Src, _ = parseAddr(v)
	}
	if r.DataSize < 0 && r.Size < 0 {
		return reject(m, line, missingOrCut(m, line, "mem_size"), "mem_size[...] and datasize[...] missing")
	}
	return r
}

// parseFFTS reads "<op> <type> get real input data addr <decimal>" (and the
// workspace/output forms); the address is printed in decimal.
func parseFFTS(s []byte, m Meta, line []byte) Record {
	r := &OpAddress{Meta: m, Statement: "ffts", GraphID: -1, Index: -1, Offset: -1, Size: -1, DataSize: -1}
	g := bytes.Index(s, []byte(" get real "))
	if g <= 0 {
		return reject(m, line, diag.MissingField, "op name missing before \"get real\"")
	}
	head, tail := s[:g], s[g+len(" get real "):]
	if sp := bytes.LastIndexByte(head, ' '); sp > 0 {
		r.Name, r.OpType = string(head[:sp]), string(head[sp+1:])
	} else {
		r.Name = string(head)
	}
	for _, k := range []string{"input", "output", "workspace"} {
		if bytes.HasPrefix(tail, []byte(k)) {
			r.Kind = k
		}
	}
	a := bytes.LastIndex(tail, []byte("addr "))
	if r.Kind == "" || a < 0 {
		return reject(m, line, missingOrCut(m, line, "addr"), "get real <kind> addr <n> expected")
	}
	v, e := parseUint(bytes.TrimSpace(tail[a+len("addr "):]))
	if e != numOK {
		return badNum(m, line, "addr", e)
	}
	r.Addr, r.HasAddr = v, true
	return r
}

// parseAddr reads a pointer as GE prints it: %p ("0x1a2b", "(nil)"), a
// stringstream void* ("0x1a2b", or "0" for NULL), or a plain decimal.
func parseAddr(b []byte) (uint64, bool) {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("(nil)")) {
		return 0, true
	}
	if len(b) > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') {
		return parseHex(b[2:])
	}
	v, e := parseUint(b)
	return v, e == numOK
}

func parseHex(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | uint64(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// parseUint reads an unsigned decimal (addresses printed with %zu/%lu).
func parseUint(b []byte) (uint64, numErr) {
	if len(b) == 0 {
		return 0, numEmpty
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, numBad
		}
		d := uint64(c - '0')
		if v > (^uint64(0)-d)/10 {
			return 0, numOverflow
		}
		v = v*10 + d
	}
	return v, numOK
}

// leadingDigits returns the decimal digits at the start of b (GE's
// SizeToString prints "1073741824(1.00G)").
func leadingDigits(b []byte) []byte {
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	return b[:n]
}
