package gelog

import (
	"bytes"
	"strconv"
	"strings"
	"unsafe"

	"imas/core/diag"
	"imas/core/plog"
)

// RT2 dynamic memory pool (docs/log-formats.md#rt2-pools): allocator creation, the
// [KernelTrace] memory kernels, the ScalableAllocator "Malloc block" /
// "Free block" / PrintDetails lines.

// PoolCreate is "create caching memory allocator, [allocator_<N>]".
type PoolCreate struct {
	Meta
	Allocator string // allocator_<N>
}

// PoolAlloc is "[KernelTrace][<kernel>][MEM]Alloc memory at stream <s>,
// block <p>, address <p>, size <n>[, tensor size <n>][, index <i>]...",
// or the 2023 phrasing "Alloc memory block <p>, address[ =] <p>, size =
// <n>[, as model out memory]".
type PoolAlloc struct {
	Meta
	Kernel     string // kernel node name, e.g. AllocMemHbm_Add_1_325
	KernelType string // AllocMemHbm, AllocBatchHbm, ...
	Node       string // compute node name derived from the kernel name
	Stream     int64  // -1 when not printed (2023)
	ModelOut   bool   // "as model out memory" (2023): a graph output
	Block      uint64
	Addr       uint64
	Size       int64 // block size; the requested size for AllocBatchHbm/AllocCopyFlowHbm
	TensorSize int64 // -1 when not printed
	Index      int64 // -1 when not printed
}

// Requested reports whether Size is the requested size rather than the
// pool block size (the batch kernels print it so).
func (a *PoolAlloc) Requested() bool {
	return a.KernelType == "AllocBatchHbm" || a.KernelType == "AllocCopyFlowHbm"
}

// PoolFree is "[KernelTrace][<kernel>][MEM]Free memory at stream <s>,
// address <p>[, tensor <p>][, index <i>]", or the 2023 phrasing "Free
// memory, address <p>".
type PoolFree struct {
	Meta
	Kernel     string
	KernelType string
	Node       string
	Stream     int64 // -1 when not printed (2023)
	Addr       uint64
}

// PoolBlock is a ScalableAllocator "Malloc block ..." or "Free block ..."
// line. Allocator is the [allocator_N] tag of the envelope ("" without).
type PoolBlock struct {
	Meta
	Allocator  string
	Free       bool
	Device     int64
	Size       int64 // requested size (Malloc block)
	AllocSize  int64 // span size: allocate_size / allock_size
	Addr       uint64
	TheorySize int64 // Free block: live span bytes after the free
	TheoryMin  int64 // Free block: peak span bytes
}

// PoolDetails is PrintDetails' "Device memory   : [...]" line. The 2023
// form stops after total size: the later fields are then -1.
type PoolDetails struct {
	Meta
	Allocator     string
	AllocCount    int64
	FreeCount     int64
	TotalSize     int64 // bytes the pool holds from the level below
	NewVASize     int64
	RealTheoryMin int64 // peak of live requested bytes
	TheoryMin     int64 // peak of live span bytes
	Rate          string
}

func init() {
	Register(Family{Name: "pool", Match: matchPool, Parse: parsePool, ParseInto: parsePoolInto})
}

var poolKeys = []string{"[KernelTrace][", "create caching memory allocator", "Malloc block ", "Free block ", "Device memory   : ["}

func matchPool(env *plog.Envelope, msg []byte) bool {
	if bytes.Equal(env.Func, []byte("PrintDetails")) {
		return true
	}
	for _, k := range poolKeys {
		if containsText(msg, k) {
			return true
		}
	}
	return false
}

// poolStatement reports whether msg begins with the words of a kernel
// trace or of a "Malloc block" / "Free block" line. Such a message is a
// pool statement whatever else it says, so it goes to the pool family
// without asking the families registered before it, whose Match would
// search all of it for their phrases (most of a pool line's cost).
func poolStatement(env *plog.Envelope, msg []byte) bool {
	return env.Form != plog.FormKernel && (bytes.HasPrefix(msg, []byte("[KernelTrace][")) ||
		bytes.HasPrefix(msg, []byte("Malloc block ")) || bytes.HasPrefix(msg, []byte("Free block ")))
}

func parsePool(env *plog.Envelope, msg []byte, m Meta, line []byte) Record {
	return parsePoolInto(env, msg, m, line, nil)
}

// parsePoolInto is parsePool that parses allocations, frees and blocks
// into sc when sc is not nil (see Scratch).
func parsePoolInto(env *plog.Envelope, msg []byte, m Meta, line []byte, sc *Scratch) Record {
	if r := parseBlockWords(env, msg, m, sc); r != nil {
		return r
	}
	return parsePoolPhrases(env, msg, m, line, sc)
}

// parsePoolPhrases tells the pool statements apart by their phrases.
func parsePoolPhrases(env *plog.Envelope, msg []byte, m Meta, line []byte, sc *Scratch) Record {
	if i := bytes.Index(msg, []byte("[KernelTrace][")); i >= 0 {
		return parseKernelTrace(msg[i+len("[KernelTrace]["):], m, line, sc)
	}
	if i := bytes.Index(msg, []byte("create caching memory allocator")); i >= 0 {
		s := msg[i:]
		a := bytes.IndexByte(s, '[')
		b := bytes.IndexByte(s, ']')
		if a < 0 || b < a {
			return reject(m, line, missingOrCut(m, line, "allocator"), "[allocator_N] missing")
		}
		return &PoolCreate{Meta: m, Allocator: string(s[a+1 : b])}
	}
	if i := bytes.Index(msg, []byte("Device memory   : [")); i >= 0 {
		m.EventKey = EventKey(msg) // EVENT at Finalize
		return parseDetails(msg[i+len("Device memory   : ["):], allocatorTag(env.Alloc), m, line)
	}
	if bytes.Contains(msg, []byte("Free block bins")) {
		return &Ignored{Meta: m, What: diag.IgnoreCachingBins}
	}
	if bytes.Equal(env.Func, []byte("PrintDetails")) {
		return &Ignored{Meta: m, What: diag.IgnorePoolBreakdown} // Allocator memory, Using, spans, Freed
	}
	free := !bytes.Contains(msg, []byte("Malloc block "))
	if free && bytes.Contains(msg, []byte("Free block size =")) {
		return &Ignored{Meta: m, What: diag.IgnoreCachingAllocatorV1} // pre-RT2 caching allocator
	}
	var dst *PoolBlock
	if sc != nil {
		dst = &sc.Block
	}
	return parseBlock(msg, allocatorTag(env.Alloc), free, m, line, dst)
}

func parseKernelTrace(s []byte, m Meta, line []byte, sc *Scratch) Record {
	e := bytes.IndexByte(s, ']')
	if e < 0 {
		return reject(m, line, diag.Truncated, "cut inside the kernel name")
	}
	kernel, body := s[:e], s[e+1:]
	if !bytes.HasPrefix(body, []byte("[MEM]")) {
		return &Ignored{Meta: m, What: diag.IgnoreKernelTrace} // launch, shape, tiling traces
	}
	body = bytes.TrimLeft(body[len("[MEM]"):], " ")
	switch {
	case bytes.HasPrefix(body, []byte("Alloc memory at stream ")):
		return parseTraceAlloc(kernel, body[len("Alloc memory at stream "):], m, line, sc)
	case bytes.HasPrefix(body, []byte("Free memory at stream ")):
		return parseTraceFree(kernel, body[len("Free memory at stream "):], m, line, sc)
	case bytes.HasPrefix(body, []byte("Alloc memory block ")):
		return parseTraceAlloc(kernel, body[len("Alloc memory "):], m, line, sc)
	case bytes.HasPrefix(body, []byte("Free memory, ")):
		return parseTraceFree(kernel, body[len("Free memory"):], m, line, sc)
	}
	for _, k := range []struct{ prefix, what string }{
		{"Recycle memory", diag.IgnorePoolRecycle}, {"Borrow-recycle memory", diag.IgnorePoolRecycle}, {"Local-recycle memory", diag.IgnorePoolRecycle},
		{"Memory wandering", diag.IgnorePoolWandering}, {"Send ", diag.IgnorePoolEvent}, {"Wait ", diag.IgnorePoolEvent},
		{"alloc fixed_feature_memory", diag.IgnoreFixedFeatureMemory}, {"free fixed_feature_memory", diag.IgnoreFixedFeatureMemory},
		{"create l1 allocators", diag.IgnoreAllocatorSetup}, {"create l2 allocators", diag.IgnoreAllocatorSetup}, {"select l2 allocator", diag.IgnoreAllocatorSetup},
	} {
		if bytes.HasPrefix(body, []byte(k.prefix)) {
			return &Ignored{Meta: m, What: k.what}
		}
	}
	return reject(m, line, diag.Unrecognised, "unknown [KernelTrace][MEM] statement")
}

// KernelName splits a kernel name "<Type>_<node>_<id>" (kernel types
// have no '_') as PoolAlloc and PoolFree do. Both parts are substrings of
// k: they cost no allocation of their own.
func KernelName(k string) (typ, node string) {
	t, rest, ok := strings.Cut(k, "_")
	if !ok {
		return k, ""
	}
	if i := strings.LastIndexByte(rest, '_'); i >= 0 && allDigits(rest[i+1:]) && i+1 < len(rest) {
		rest = rest[:i]
	} else if allDigits(rest) {
		rest = "" // "<Type>_<id>": no compute node
	}
	return t, rest
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// traceFields splits ", "-separated "key value" (or "key = value") pairs
// after the stream id, in place. The 2023 phrasing has no stream: s then
// starts with ", " or with the "block <p>" pair, and stream is nil.
func traceFields(s []byte, f func(key, val []byte)) (stream []byte) {
	head, rest, more := cutComma(s)
	first := bytes.TrimSpace(head)
	if len(first) == 0 || bytes.HasPrefix(first, []byte("block ")) {
		traceField(first, f)
		first = nil
	}
	for more {
		var p []byte
		p, rest, more = cutComma(rest)
		traceField(p, f)
	}
	return first
}

// cutComma is bytes.Cut(s, ", ") for the short fields of a trace: a
// search for ',' and a look at the byte after it, without the general
// substring search.
func cutComma(s []byte) (before, after []byte, found bool) {
	for i := 0; ; i++ {
		c := bytes.IndexByte(s[i:], ',')
		if c < 0 {
			return s, nil, false
		}
		i += c
		if i+1 < len(s) && s[i+1] == ' ' {
			return s[:i], s[i+2:], true
		}
	}
}

// traceField hands one "key value" pair to f. Only the rare 2023 lines
// spell "key = value", so only they pay for a copy.
func traceField(p []byte, f func(key, val []byte)) {
	if len(p) == 0 {
		return
	}
	if eq := []byte(" = "); bytes.IndexByte(p, '=') >= 0 && bytes.Contains(p, eq) {
		p = bytes.ReplaceAll(p, eq, []byte(" "))
	}
	if sp := bytes.LastIndexByte(p, ' '); sp > 0 {
		f(p[:sp], p[sp+1:])
	} else {
		f(p, nil)
	}
}

// traceStream reads the stream id of a trace; -1 when the phrasing has none.
func traceStream(st []byte) (int64, numErr) {
	if st == nil {
		return -1, numOK
	}
	return parseInt(st)
}

// allocatorTag is the [allocator_N] tag of a line as a string; the tags of
// the first allocators are shared strings instead of one copy per line.
func allocatorTag(tag []byte) string {
	const prefix = "allocator_"
	if len(tag) > len(prefix) && len(tag) <= len(prefix)+2 && string(tag[:len(prefix)]) == prefix {
		n := 0
		for _, c := range tag[len(prefix):] {
			if c < '0' || c > '9' {
				return string(tag)
			}
			n = n*10 + int(c-'0')
		}
		if n < len(allocatorTags) && len(tag) == len(allocatorTags[n]) {
			return allocatorTags[n]
		}
	}
	return string(tag)
}

var allocatorTags = func() []string {
	t := make([]string, 100)
	for i := range t {
		t[i] = "allocator_" + strconv.Itoa(i)
	}
	return t
}()

// kernelText is the kernel name of a trace: a string of its own, or one
// that borrows the line's bytes when the record is the caller's (Scratch).
func kernelText(kernel []byte, borrow bool) string {
	if borrow && len(kernel) > 0 {
		return unsafe.String(&kernel[0], len(kernel))
	}
	return string(kernel)
}

func parseTraceAlloc(kernel, s []byte, m Meta, line []byte, sc *Scratch) Record {
	var r *PoolAlloc
	if sc != nil {
		r = &sc.Alloc
	} else {
		r = new(PoolAlloc)
	}
	*r = PoolAlloc{Meta: m, Kernel: kernelText(kernel, sc != nil), Size: -1, TensorSize: -1, Index: -1}
	r.KernelType, r.Node = KernelName(r.Kernel)
	var hasAddr bool
	var bad string
	st := traceFields(s, func(k, v []byte) {
		var e numErr
		switch string(k) {
		case "block":
			r.Block, _ = parseAddr(v)
		case "address":
			r.Addr, hasAddr = parseAddr(v)
		case "size":
			r.Size, e = parseInt(v)
		case "tensor size":
			r.TensorSize, e = parseInt(v)
		case "index":
			r.Index, e = parseInt(v)
		case "as model out":
			r.ModelOut = bytes.Equal(v, []byte("memory"))
		}
		if e != numOK && bad == "" {
			bad = string(k)
		}
	})
	var e numErr
	if r.Stream, e = traceStream(st); e != numOK {
		return badNum(m, line, "stream", e)
	}
	if bad != "" {
		return reject(m, line, missingOrCut(m, line, bad), bad+" is not a number")
	}
	if !hasAddr || r.Size < 0 {
		return reject(m, line, missingOrCut(m, line, "size"), "address or size missing")
	}
	if r.TensorSize < -1 { // -1 is "not printed"
		return reject(m, line, diag.NegativeValue, "negative tensor size")
	}
	return r
}

func parseTraceFree(kernel, s []byte, m Meta, line []byte, sc *Scratch) Record {
	var r *PoolFree
	if sc != nil {
		r = &sc.Free
	} else {
		r = new(PoolFree)
	}
	*r = PoolFree{Meta: m, Kernel: kernelText(kernel, sc != nil)}
	r.KernelType, r.Node = KernelName(r.Kernel)
	var hasAddr bool
	st := traceFields(s, func(k, v []byte) {
		if string(k) == "address" {
			r.Addr, hasAddr = parseAddr(v)
		}
	})
	var e numErr
	if r.Stream, e = traceStream(st); e != numOK {
		return badNum(m, line, "stream", e)
	}
	if !hasAddr {
		return reject(m, line, missingOrCut(m, line, "address"), "address missing")
	}
	return r
}

// parseBlock reads
//
//	Malloc block device_id:<d> size:<n> allocate_size:<n> mem_addr:<p>. span addr <p>
//	Free block device_id:<d> theory_size_:<n> theory_min_size_:<n> allock_size:<n> mem_addr:<p>.
func parseBlock(msg []byte, tag string, free bool, m Meta, line []byte, dst *PoolBlock) Record {
	r := dst
	if r == nil {
		r = new(PoolBlock)
	}
	*r = PoolBlock{Meta: m, Allocator: tag, Free: free, Device: -1}
	if v, ok := colonField(msg, "device_id"); ok {
		r.Device, _ = parseInt(leadingDigits(v))
	}
	a, ok := colonField(msg, "mem_addr")
	if !ok {
		return reject(m, line, missingOrCut(m, line, "mem_addr"), "mem_addr missing")
	}
	if r.Addr, ok = parseAddr(trimAddr(a)); !ok {
		return reject(m, line, diag.BadNumber, "mem_addr is not an address")
	}
	num := func(key string, dst *int64) bool {
		v, ok := colonField(msg, key)
		if !ok {
			return false
		}
		n, e := parseInt(leadingDigits(v))
		*dst = n
		return e == numOK
	}
	if free {
		if !num("allock_size", &r.AllocSize) {
			num("alloc_size", &r.AllocSize)
		}
		num("theory_size_", &r.TheorySize)
		num("theory_min_size_", &r.TheoryMin)
		return r
	}
	if !num("size", &r.Size) || !num("allocate_size", &r.AllocSize) {
		return reject(m, line, missingOrCut(m, line, "size"), "size or allocate_size missing")
	}
	return r
}

// blockWords holds the values of a block line's "key:value" words, each
// the first of its key.
type blockWords struct {
	device, size, allocateSize, allockSize, allocSize, addr, theorySize, theoryMin []byte
}

// parseBlockWords is parseBlock for a block line of the usual form: the
// message is "Malloc block " or "Free block " and then only "key:value"
// words of the block keys, numbers in decimal, mem_addr in hex (with the
// sentence period), and for a Malloc block optionally " span addr 0x...".
// One pass over the words replaces the phrase searches of parsePoolInto
// and the key searches of parseBlock: in a message of that form none of
// the phrases can occur and each key's first word is the one colonField
// finds, so the record is the one they give. It returns nil for any other
// message, which then takes the general path (also to be rejected).
func parseBlockWords(env *plog.Envelope, msg []byte, m Meta, sc *Scratch) Record {
	var free bool
	switch {
	case bytes.HasPrefix(msg, []byte("Malloc block ")):
		msg = msg[len("Malloc block "):]
	case bytes.HasPrefix(msg, []byte("Free block ")):
		msg, free = msg[len("Free block "):], true
	default:
		return nil
	}
	if bytes.Equal(env.Func, []byte("PrintDetails")) {
		return nil
	}
	var w blockWords
	var addr uint64 // w.addr's
	for len(msg) > 0 {
		word := msg
		if sp := bytes.IndexByte(msg, ' '); sp >= 0 {
			word, msg = msg[:sp], msg[sp+1:]
		} else {
			msg = nil
		}
		if !free && string(word) == "span" {
			// "span addr 0x...", the end of a Malloc block line.
			if !bytes.HasPrefix(msg, []byte("addr 0x")) || !isHex(msg[len("addr 0x"):]) {
				return nil
			}
			break
		}
		c := bytes.IndexByte(word, ':')
		if c < 0 {
			return nil
		}
		key, val := word[:c], word[c+1:]
		var dst *[]byte
		switch string(key) {
		case "mem_addr":
			if !bytes.HasPrefix(val, []byte("0x")) {
				return nil
			}
			a, ok := parseHex(bytes.TrimSuffix(val[2:], []byte(".")))
			if !ok {
				return nil
			}
			if w.addr == nil {
				addr = a
			}
			dst = &w.addr
		case "device_id":
			dst = &w.device
		case "size":
			dst = &w.size
		case "allocate_size":
			dst = &w.allocateSize
		case "allock_size":
			dst = &w.allockSize
		case "alloc_size":
			dst = &w.allocSize
		case "theory_size_":
			dst = &w.theorySize
		case "theory_min_size_":
			dst = &w.theoryMin
		default:
			return nil
		}
		if dst != &w.addr {
			if _, ok := plainDigits(val); !ok {
				return nil
			}
		}
		if *dst == nil {
			*dst = val
		}
	}
	if w.addr == nil || !free && (w.size == nil || w.allocateSize == nil) {
		return nil // parseBlock rejects it
	}
	var r *PoolBlock
	if sc != nil {
		r = &sc.Block
	} else {
		r = new(PoolBlock)
	}
	*r = PoolBlock{Meta: m, Allocator: allocatorTag(env.Alloc), Free: free, Device: -1}
	num := func(v []byte) int64 {
		n, _ := plainDigits(v)
		return n
	}
	if w.device != nil {
		r.Device = num(w.device)
	}
	r.Addr = addr
	if !free {
		r.Size, r.AllocSize = num(w.size), num(w.allocateSize)
		return r
	}
	if w.allockSize != nil {
		r.AllocSize = num(w.allockSize)
	} else {
		r.AllocSize = num(w.allocSize)
	}
	r.TheorySize, r.TheoryMin = num(w.theorySize), num(w.theoryMin)
	return r
}

// isHex reports whether b is 1 to 16 hex digits (parseHex reads them).
func isHex(b []byte) bool {
	_, ok := parseHex(b)
	return ok
}

func parseDetails(s []byte, tag string, m Meta, line []byte) Record {
	r := &PoolDetails{Meta: m, Allocator: tag, NewVASize: -1, RealTheoryMin: -1, TheoryMin: -1}
	for i, f := range []struct {
		key string
		dst *int64
	}{{"alloc count", &r.AllocCount}, {"free count", &r.FreeCount}, {"total size", &r.TotalSize},
		{"new_va_size", &r.NewVASize}, {"real_theory_min", &r.RealTheoryMin}, {"theory_min", &r.TheoryMin}} {
		v, ok := colonField(s, f.key)
		if !ok && i >= 3 && bytes.HasSuffix(bytes.TrimRight(s, " \r"), []byte("]")) {
			break // the 2023 form ends after total size
		}
		if !ok {
			return reject(m, line, missingOrCut(m, line, f.key), f.key+" missing")
		}
		n, e := parseInt(leadingDigits(v))
		if e != numOK {
			return badNum(m, line, f.key, e)
		}
		*f.dst = n
	}
	if v, ok := colonField(s, "reach theory rate"); ok {
		r.Rate = string(bytes.TrimRight(v, "]"))
	}
	return r
}

// colonField returns the value of "key:value" where key starts at a word
// boundary; the value runs to the next ' ', ',' or ';'.
func colonField(s []byte, key string) ([]byte, bool) {
	from := 0
	for {
		i := indexFrom(s, key, from)
		if i < 0 {
			return nil, false
		}
		from = i + 1
		j := i + len(key)
		if j >= len(s) || s[j] != ':' || (i > 0 && !isKeyBoundary(s[i-1])) {
			continue
		}
		j++
		for j < len(s) && s[j] == ' ' {
			j++ // "curpid: 4176893" style
		}
		k := j
		for k < len(s) && s[k] != ' ' && s[k] != ',' && s[k] != ';' {
			k++
		}
		return s[j:k], true
	}
}

func isKeyBoundary(c byte) bool { return c == ' ' || c == '[' || c == ',' || c == '(' || c == ';' }

// trimAddr drops the sentence period GE prints after "mem_addr:0x..".
func trimAddr(b []byte) []byte { return bytes.TrimRight(b, ".,") }
