package gelog

import (
	"bytes"
	"strings"

	"imas/core/diag"
	"imas/core/plog"
)

// Device memory actually malloc'ed (docs/log-formats.md#device-mallocs): the
// GE_PRINT_DYNAMIC_MEMORY lines, MemoryAllocator and ActiveMemoryAllocator
// lines, the expandable allocators' physical pages, and the process facts
// "imas total" prints (static memory policy, device total).

// DeviceMalloc is one "MallocMemory, func=<f>, size=<n>, purpose=<p>[, ptr=..,
// device_id=.., module_id=..]" line.
type DeviceMalloc struct {
	Meta
	Source  string // the log module that printed it: GE, CCECPU (AICPU), ...
	Func    string // func=: aclrtMalloc, rtMalloc, AllocatorMalloc, malloc, new
	Caller  string // the function token; MallocPhysicalPage marks an expandable page
	Size    int64
	Purpose string
	Ptr     uint64
	HasPtr  bool
	Device  int64 // -1 when not printed (formats before ToMallocMemInfo)
	Module  int64 // -1 when not printed
	// Category is the "imas total" category (MallocCategory); Counted is
	// false for lines that are not device mallocs.
	Category string
	Counted  bool
}

// Physical reports whether the malloc is one physical page of an
// expandable (virtual-memory) allocator.
func (d *DeviceMalloc) Physical() bool { return strings.HasSuffix(d.Caller, "MallocPhysicalPage") }

// AllocatorCall is a MemoryAllocator / ActiveMemoryAllocator line: a malloc
// (size known), a free (no address, no size), or a failed malloc.
type AllocatorCall struct {
	Meta
	Class  string // MemoryAllocator, ActiveMemoryAllocator
	Op     string // malloc, free, failed, physical, recycle, kept
	Device int64  // -1 when not printed
	Size   int64
	Used   int64 // used_count of ActiveMemoryAllocator; -1 when not printed
}

// PhysicalPage is a PhysicalMemoryAllocator page event: "rtMallocPhysical
// success pa_index:<i>, current physical memory size:<total> reuse:<0|1>,
// memory_type:<mt>, pg_type:<2M|1G>." or the aclrtFreePhysical form.
type PhysicalPage struct {
	Meta
	Free     bool
	Index    int64
	Current  int64 // running physical total of the allocator after the event
	Reuse    bool
	MemType  int64 // -1 when not printed (free lines)
	PageType string
}

// DeviceFree is "RtMemAllocator::free device_id:<d> ,size:<n>, mem_addr:<p>"
// (2023: "addr:<p>"): the RT2 L1 pool giving a "page caching" malloc back.
type DeviceFree struct {
	Meta
	Device int64
	Size   int64
	Addr   uint64
}

// PageAddress is "DeviceAllocator::Alloc device_id:<d>, size:<n>, addr:<p>"
// (2023): the address of the page-caching malloc the thread just printed
// without its pointer.
type PageAddress struct {
	Meta
	Device int64
	Size   int64
	Addr   uint64
}

// ProcessFact is a per-process fact: "Final StaticMemoryPolicy is set to
// <n>." (What = static-memory-policy) or "Total memory size is <n>"
// (What = device-total).
type ProcessFact struct {
	Meta
	What  string
	Value int64
}

// Device malloc categories of "imas total" (docs/runtime.md, "Device
// mallocs by category").
const (
	CatStaticGraph = "StaticGraph"
	CatMemoryPool  = "MemoryPool"
	CatVariable    = "Variable"
	CatWeights     = "Weights"
	CatModelLoad   = "davinci_model_load"
	CatOther       = "Other"
	// Not device mallocs: host memory (malloc/new), and sub-allocations from
	// a pool (AllocatorMalloc, the RT2 "rt2 memory pool" L2 spans).
	CatHost   = "host"
	CatPooled = "sub-allocation"
)

// Categories lists the counted categories in "imas total" order.
var Categories = []string{CatStaticGraph, CatMemoryPool, CatVariable, CatWeights, CatModelLoad, CatOther}

var purposeCategory = map[string]string{
	"feature map,used for op input and output":                             CatStaticGraph,
	"p2p memory, used for some op related to hcom or session scope memory": CatStaticGraph,
	"Memory for session scope":                                             CatStaticGraph,
	"fixed_base_expandable_memory":                                         CatStaticGraph,
	"page caching":                                                         CatMemoryPool,
	"Memory for caching":                                                   CatMemoryPool,
	"Auto malloc var and constant op memory":                               CatVariable,
	"variables and constant op memory in training network":                 CatVariable,
	"Memory for rdma pool":                                                 CatVariable,
	"weights memory in inference network":                                  CatWeights,
	"fileconstant memory in inference network":                             CatWeights,
	"malloc weights memory on model execute":                               CatWeights,
	"davinci_model_load":                                                   CatModelLoad,
	"platform info memory, used for tiling sink":                           CatModelLoad,
	"cust platform info memory, used for tiling sink":                      CatModelLoad,
	"rt2 memory pool":                                                      CatPooled,
}

// MallocCategory maps a GE_PRINT func and purpose to its category; counted
// is false for lines that are not device mallocs. Old GE ended purposes
// with a period; unknown purposes are Other.
func MallocCategory(fn, purpose string) (category string, counted bool) {
	switch fn {
	case "malloc", "new":
		return CatHost, false
	case "AllocatorMalloc":
		return CatPooled, false
	}
	p := strings.TrimRight(strings.TrimSpace(purpose), ".")
	if c, ok := purposeCategory[p]; ok {
		return c, c != CatPooled
	}
	switch {
	case strings.HasPrefix(p, "RT_MEMORY_") && !strings.Contains(p, " "): // MallocExMem
		return CatStaticGraph, true
	case strings.HasSuffix(p, " fixed feature base"):
		return CatStaticGraph, true
	}
	return CatOther, true
}

func init() {
	Register(Family{Name: "device-malloc", Match: matchMalloc, Parse: parseMalloc, ParseInto: parseMallocInto})
}

const printMarker = "MallocMemory, func="

func matchMalloc(_ *plog.Envelope, msg []byte) bool {
	for _, k := range mallocKeys {
		if containsText(msg, k) {
			return true
		}
	}
	return false
}

var mallocKeys = []string{printMarker, "DeviceAllocator::", "MemoryAllocator::", "[Malloc][Memory] failed",
	"rtMallocPhysical success", "aclrtFreePhysical success", "RtMemAllocator::free",
	"Final StaticMemoryPolicy is set to", "Total memory size is"}

func parseMalloc(env *plog.Envelope, msg []byte, m Meta, line []byte) Record {
	return parseMallocInto(env, msg, m, line, nil)
}

// parseMallocInto is parseMalloc that parses GE_PRINT mallocs into sc
// when sc is not nil (see Scratch).
func parseMallocInto(env *plog.Envelope, msg []byte, m Meta, line []byte, sc *Scratch) Record {
	switch {
	case bytes.Contains(msg, []byte(printMarker)):
		var dst *DeviceMalloc
		if sc != nil {
			dst = &sc.Malloc
		}
		return parsePrint(env, msg, m, line, dst)
	case bytes.Contains(msg, []byte("rtMallocPhysical success")), bytes.Contains(msg, []byte("aclrtFreePhysical success")):
		return parsePhysical(msg, m, line)
	case bytes.Contains(msg, []byte("RtMemAllocator::free")):
		return parseDeviceFree(msg, m, line)
	case bytes.Contains(msg, []byte("DeviceAllocator::")):
		return parseDeviceAllocator(msg, m, line)
	case bytes.Contains(msg, []byte("Final StaticMemoryPolicy is set to")):
		return parseFact(msg, "Final StaticMemoryPolicy is set to", "static-memory-policy", m, line)
	case bytes.Contains(msg, []byte("Total memory size is")):
		m.EventKey = EventKey(msg)
		return parseFact(msg, "Total memory size is", "device-total", m, line)
	}
	return parseAllocatorCall(msg, m, line)
}

// parsePrint reads a GE_PRINT_DYNAMIC_MEMORY line into dst (a new record
// when nil). Purposes may contain ", ": the ToMallocMemInfo tail (ptr,
// device_id, module_id) is split off from the right. Functions, modules
// and purposes are few texts printed again and again: they are interned.
func parsePrint(env *plog.Envelope, msg []byte, m Meta, line []byte, dst *DeviceMalloc) Record {
	s := msg[bytes.Index(msg, []byte(printMarker))+len(printMarker):]
	r := dst
	if r == nil {
		r = new(DeviceMalloc)
	}
	*r = DeviceMalloc{Meta: m, Device: -1, Module: -1}
	r.Caller, _ = internName(env.Func)
	r.Source, _ = internName(env.Module)
	c := bytes.Index(s, []byte(", size="))
	if c < 0 {
		return reject(m, line, missingOrCut(m, line, "size"), "size= missing")
	}
	r.Func, _ = internName(s[:c])
	s = s[c+len(", size="):]
	p := bytes.Index(s, []byte(", purpose="))
	if p < 0 {
		return reject(m, line, missingOrCut(m, line, "purpose"), "purpose= missing")
	}
	var e numErr
	if r.Size, e = parseInt(s[:p]); e != numOK {
		return badNum(m, line, "size", e)
	}
	purpose := s[p+len(", purpose="):]
	if t := bytes.LastIndex(purpose, []byte(", ptr=")); t >= 0 {
		tail := purpose[t+len(", "):]
		purpose = purpose[:t]
		for more := true; more; {
			var kv []byte
			kv, tail, more = bytes.Cut(tail, []byte(", "))
			k, v, _ := bytes.Cut(kv, []byte("="))
			switch string(k) {
			case "ptr":
				r.Ptr, r.HasPtr = parseAddr(v)
			case "device_id":
				if n, e := parseInt(v); e == numOK {
					r.Device = n
				}
			case "module_id":
				if n, e := parseInt(v); e == numOK {
					r.Module = n
				}
			}
		}
	}
	r.Purpose, _ = internName(bytes.TrimSpace(purpose))
	if r.Size < 0 {
		return reject(m, line, diag.NegativeValue, "negative size")
	}
	r.Category, r.Counted = MallocCategory(r.Func, r.Purpose)
	return r
}

// parseAllocatorCall reads MemoryAllocator / ActiveMemoryAllocator lines:
//
//	MemoryAllocator::MallocMemory device_id = <d>, size= <n>[.]
//	MemoryAllocator::FreeMemory device_id = <d>[.]
//	MemoryAllocator::FreeMemory memory_key[<k>] should not be released, reference count <n>
//	ActiveMemoryAllocator::MallocMemory device_id = <d>, size = <n> used_count = <u>.
//	ActiveMemoryAllocator::MallocPhysicalMemory memory_size:<n> device_id = <d> memory_type = <t>
//	ActiveMemoryAllocator::FreeMemory used_count = <u> device_id = <d>[ memory_type = <t>]
//	ActiveMemoryAllocator::Recycle ...
//	[Malloc][Memory] failed, device_id = <d>, size= <n>
//	MemoryAllocator::Initialize[.] / MemoryAllocator::Finalize[.]  (ignored)
//	MemoryAllocator::GetMemoryAddr failed, memory_key[<k>] was not exist, device_id = <d>.  (ignored)
func parseAllocatorCall(msg []byte, m Meta, line []byte) Record {
	r := &AllocatorCall{Meta: m, Device: -1, Used: -1}
	var rest []byte
	if i := bytes.Index(msg, []byte("[Malloc][Memory] failed")); i >= 0 {
		r.Class, r.Op, rest = "MemoryAllocator", "failed", msg[i:]
	} else {
		i := bytes.Index(msg, []byte("MemoryAllocator::"))
		cls := msg[:i+len("MemoryAllocator")]
		if j := bytes.LastIndexAny(cls, " :"); j >= 0 {
			cls = cls[j+1:]
		}
		r.Class = string(cls)
		rest = msg[i+len("MemoryAllocator::"):]
		fn := rest
		if sp := bytes.IndexByte(fn, ' '); sp >= 0 {
			fn = fn[:sp]
		}
		switch string(fn) {
		case "MallocMemory":
			r.Op = "malloc"
		case "MallocPhysicalMemory":
			r.Op = "physical"
		case "FreeMemory":
			r.Op = "free"
			if bytes.Contains(rest, []byte("should not be released")) {
				r.Op = "kept"
			}
		case "Recycle":
			r.Op = "recycle"
		case "Initialize", "Initialize.", "Finalize", "Finalize.":
			return &Ignored{Meta: m, What: diag.IgnoreAllocatorLifecycle}
		case "GetMemoryAddr":
			if bytes.Contains(rest, []byte(" failed")) {
				return &Ignored{Meta: m, What: diag.IgnoreMemoryKeyMiss}
			}
			fallthrough
		default:
			return reject(m, line, diag.Unrecognised, "unknown "+r.Class+" statement")
		}
	}
	if v, ok := eqField(rest, "device_id"); ok {
		n, e := parseInt(leadingDigits(v))
		if e != numOK {
			return badNum(m, line, "device_id", e)
		}
		r.Device = n
	}
	size, ok := eqField(rest, "size")
	if !ok {
		size, ok = colonField(rest, "memory_size")
	}
	if ok {
		n, e := parseInt(leadingDigits(size))
		if e != numOK {
			return badNum(m, line, "size", e)
		}
		r.Size = n
	} else if r.Op == "malloc" || r.Op == "failed" {
		return reject(m, line, missingOrCut(m, line, "size"), "size= missing")
	}
	if v, ok := eqField(rest, "used_count"); ok {
		r.Used, _ = parseInt(leadingDigits(v))
	}
	if (r.Op == "malloc" || r.Op == "free") && r.Class == "MemoryAllocator" && r.Device < 0 {
		return reject(m, line, missingOrCut(m, line, "device_id"), "device_id missing")
	}
	return r
}

// eqField reads "key = value" or "key= value" (the MemoryAllocator lines
// space their '=' inconsistently); the value runs to the next space or ','.
func eqField(s []byte, key string) ([]byte, bool) {
	from := 0
	for {
		i := indexFrom(s, key, from)
		if i < 0 {
			return nil, false
		}
		j := i + len(key)
		from = i + 1
		if i > 0 && s[i-1] != ' ' && s[i-1] != ',' {
			continue
		}
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j >= len(s) || s[j] != '=' {
			continue
		}
		j++
		for j < len(s) && s[j] == ' ' {
			j++
		}
		k := j
		for k < len(s) && s[k] != ' ' && s[k] != ',' {
			k++
		}
		if k == j {
			return nil, false
		}
		return s[j:k], true
	}
}

func parsePhysical(msg []byte, m Meta, line []byte) Record {
	r := &PhysicalPage{Meta: m, MemType: -1, Free: bytes.Contains(msg, []byte("aclrtFreePhysical success"))}
	v, ok := colonField(msg, "pa_index")
	if !ok {
		return reject(m, line, missingOrCut(m, line, "pa_index"), "pa_index missing")
	}
	var e numErr
	if r.Index, e = parseInt(leadingDigits(v)); e != numOK {
		return badNum(m, line, "pa_index", e)
	}
	v, ok = colonField(msg, "current physical memory size")
	if !ok {
		return reject(m, line, missingOrCut(m, line, "current physical memory size"), "current physical memory size missing")
	}
	if r.Current, e = parseInt(leadingDigits(v)); e != numOK {
		return badNum(m, line, "current physical memory size", e)
	}
	if v, ok := colonField(msg, "reuse"); ok {
		r.Reuse = bytes.HasPrefix(v, []byte("1"))
	}
	if v, ok := colonField(msg, "memory_type"); ok {
		r.MemType, _ = parseInt(leadingDigits(v))
	}
	if v, ok := colonField(msg, "pg_type"); ok {
		r.PageType = string(bytes.TrimRight(v, ".,"))
	}
	return r
}

func parseDeviceFree(msg []byte, m Meta, line []byte) Record {
	r := &DeviceFree{Meta: m, Device: -1}
	s := msg[bytes.Index(msg, []byte("RtMemAllocator::free")):]
	if v, ok := colonField(s, "device_id"); ok {
		r.Device, _ = parseInt(leadingDigits(v))
	}
	if bad := sizeAndAddr(s, m, line, &r.Size, &r.Addr, "mem_addr", "addr"); bad != nil { // addr: 2023
		return bad
	}
	return r
}

// sizeAndAddr reads the "size:<n>" and address fields the device
// allocators print; addrKeys are the address field's names, preferred
// first. It returns the rejection, or nil.
func sizeAndAddr(s []byte, m Meta, line []byte, size *int64, addr *uint64, addrKeys ...string) Record {
	v, ok := colonField(s, "size")
	if !ok {
		return reject(m, line, missingOrCut(m, line, "size"), "size missing")
	}
	var e numErr
	if *size, e = parseInt(leadingDigits(v)); e != numOK {
		return badNum(m, line, "size", e)
	}
	var a []byte
	for _, k := range addrKeys {
		if a, ok = colonField(s, k); ok {
			break
		}
	}
	if !ok {
		return reject(m, line, missingOrCut(m, line, addrKeys[0]), addrKeys[0]+" missing")
	}
	if *addr, ok = parseAddr(trimAddr(a)); !ok {
		return reject(m, line, diag.BadNumber, addrKeys[0]+" is not an address")
	}
	return nil
}

func parseFact(msg []byte, key, what string, m Meta, line []byte) Record {
	s := bytes.TrimSpace(msg[bytes.Index(msg, []byte(key))+len(key):])
	d := leadingDigits(s)
	if len(d) == 0 {
		return reject(m, line, missingOrCut(m, line, key), "number expected after \""+key+"\"")
	}
	v, e := parseInt(d)
	if e != numOK {
		return badNum(m, line, what, e)
	}
	return &ProcessFact{Meta: m, What: what, Value: v}
}

// parseDeviceAllocator reads the RT2 pool's lower allocator (2023):
//
//	DeviceAllocator::Alloc device_id:<d>, size:<n>, addr:<p>
//	DeviceAllocator::free device_id:<d> ,size:<n>, addr:<p>   (ignored: RtMemAllocator::free says it)
func parseDeviceAllocator(msg []byte, m Meta, line []byte) Record {
	s := msg[bytes.Index(msg, []byte("DeviceAllocator::"))+len("DeviceAllocator::"):]
	switch {
	case bytes.HasPrefix(s, []byte("free")):
		return &Ignored{Meta: m, What: diag.IgnoreDeviceAllocFree}
	case !bytes.HasPrefix(s, []byte("Alloc ")):
		return reject(m, line, diag.Unrecognised, "unknown DeviceAllocator statement")
	}
	r := &PageAddress{Meta: m, Device: -1}
	if v, ok := colonField(s, "device_id"); ok {
		r.Device, _ = parseInt(leadingDigits(v))
	}
	if bad := sizeAndAddr(s, m, line, &r.Size, &r.Addr, "addr"); bad != nil {
		return bad
	}
	return r
}
