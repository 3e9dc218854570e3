// Package model is the report model: everything imas knows after reading a
// set of logs — inputs and diagnostics, static graphs with their rows and
// figures, variables, device mallocs, regions and address checks, RT2 pools
// and devmm statistics. Its JSON form is report.json (schema imas.report/v1,
// docs/figures.md#report-json). Builders fill it from gelog records; analyses add the
// figures; writers only read it.
package model

// Schema is the report.json schema identifier.
const Schema = "imas.report/v1"

// Report is one analysis of a set of logs.
type Report struct {
	Schema        string           `json:"schema"`
	Tool          string           `json:"tool,omitempty"`
	Inputs        Inputs           `json:"inputs"`
	MemoryErrors  []*MemoryError   `json:"memory_errors"`
	Diagnostics   []Diagnostic     `json:"diagnostics"`
	Sanity        *Sanity          `json:"sanity,omitempty"`
	Graphs        []*Graph         `json:"graphs"`
	Variables     []*VarSession    `json:"variables"`
	DeviceMalloc  []MallocTotal    `json:"device_malloc"`
	Regions       []Region         `json:"regions"`
	AddressChecks []AddressCheck   `json:"address_checks"`
	Pools         []*Pool          `json:"pools"`
	Devmm         []Devmm          `json:"devmm"`
	Extra         map[string]any   `json:"extra,omitempty"`
	DiagSummary   map[string]int64 `json:"diagnostic_counts,omitempty"`

	// Mallocs lists every GE_PRINT_DYNAMIC_MEMORY line (counted or not), so
	// that the device_malloc categories can be traced back to purposes.
	Mallocs []Malloc `json:"mallocs"`
	// Devices holds per-process device facts for "imas total".
	Devices []DeviceInfo `json:"devices"`

	// done: the graphs a build kept as GraphDone (Builder.OnFinished);
	// Graphs holds the others. WalkGraphs and AllGraphs list both.
	done doneGraphs

	// Spilled, when set, holds the rows of graphs finished during the
	// build (RowStore); readers of rows go through WithRows.
	Spilled RowStore `json:"-"`
}

// Inputs accounts for every byte and line read: Candidates = Records + Rejected.
type Inputs struct {
	Files      []FileInfo `json:"files"`
	Duplicates []string   `json:"duplicates"`
	Lines      int64      `json:"lines"`
	Candidates int64      `json:"candidates"`
	Records    int64      `json:"records"`
	Rejected   int64      `json:"rejected"`
}

// FileInfo is one leaf input (a file or an archive member).
type FileInfo struct {
	Path       string `json:"path"`
	Bytes      int64  `json:"bytes"`
	Lines      int64  `json:"lines"`
	Candidates int64  `json:"candidates"`
	Records    int64  `json:"records"`
	Rejected   int64  `json:"rejected"`
	Error      string `json:"error,omitempty"` // read stopped early (truncated gzip, ...)
}

// Diagnostic is a line or input imas could not use, or a finding about the
// data (logged-mismatch). Line is 0 for whole-input problems.
type Diagnostic struct {
	Path   string `json:"path"`
	Line   int64  `json:"line"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
	Text   string `json:"text"`
	// Rejected is true for candidate lines that count in Inputs.Rejected.
	Rejected bool `json:"rejected,omitempty"`
}

// Sanity says which marker families were present, so users know what the
// report can and cannot say.
type Sanity struct {
	Families map[string]int64 `json:"families"`
	Notes    []string         `json:"notes"`
	// InfoLevel is true when GE's INFO statements were found (a debug plog
	// with INFO enabled; CPU-side "MallocMemory, func=new/malloc" lines
	// alone do not count); RunLog when run-plog lines were found (devmm
	// statistics in a plog form, not the kernel log's table, or
	// [EVENT] copies in a .../run/... file).
	InfoLevel bool `json:"info_level"`
	RunLog    bool `json:"run_log"`
	// Truncated counts candidate lines that were cut before a needed field:
	// by the logger's 1024-character limit, or where a file ends mid-line.
	Truncated int64 `json:"truncated"`
}

// Graph is one static graph compilation for one memory type, identified by
// (PID, Graph, MemType). Graph is the name as GE printed it; a recompilation
// of the same name gets a "#2", "#3"... suffix.
type Graph struct {
	PID     string `json:"pid"`
	Graph   string `json:"graph"`
	MemType int64  `json:"memtype"`
	Figures
	Logged       Logged         `json:"logged"`
	Conflicts    []Conflict     `json:"conflicts"`
	Waste        *Waste         `json:"waste,omitempty"`
	Peak         *Peak          `json:"peak,omitempty"`
	Live         *LiveCurve     `json:"live,omitempty"`
	Rows         []Row          `json:"rows"`
	Reassign     []Reassign     `json:"reassign"`
	AtomicPieces []AtomicPiece  `json:"atomic_pieces"`
	AtomicClean  []AtomicClean  `json:"atomic_clean,omitempty"`
	AppendWs     *AppendWsTotal `json:"append_ws,omitempty"`

	// Truncated counts [IMAS]Set lines of this graph cut by the logger.
	Truncated int64 `json:"truncated_rows"`
	// HasSummary is true when GE printed AfterAssignMemory for this memtype.
	HasSummary bool `json:"has_summary"`
	// Where that line is, for the diagnostics that compare with it.
	SummaryPath string `json:"-"`
	SummaryLine int64  `json:"-"`
	// Line of the first record (for ordering and diagnostics).
	File int32 `json:"-"`
	Line int64 `json:"-"`
	Seq  int   `json:"-"`
}

// LiveCurve is a graph's live bytes over its steps (analyze.Live): from
// Steps[i] until Steps[i+1], Counted[i] bytes of counted tensors are live
// (align512 of their real size, as theory_min counts them), Reusable[i]
// of them with reuse flag 1 (the curve whose peak + no_reuse + atomic is
// theory_min).
type LiveCurve struct {
	Steps    []int64 `json:"steps"`
	Reusable []int64 `json:"reusable"`
	Counted  []int64 `json:"counted"`
}

// Figures are the figures of one graph and memory type (docs/figures.md#figures).
type Figures struct {
	MemorySize      int64   `json:"memory_size"`
	AfterReuse      int64   `json:"after_reuse"`
	Total           int64   `json:"total"`
	GETotal         int64   `json:"ge_total"`
	TheoryMin       int64   `json:"theory_min"`
	NoReuse         int64   `json:"no_reuse"`
	Atomic          int64   `json:"atomic"`
	ZeroCopy        int64   `json:"zero_copy"`
	Continuous      int64   `json:"continuous"`
	Streams         int64   `json:"streams"`
	Topo            string  `json:"topo"`
	Tensors         int64   `json:"tensors"`
	ReuseRate       float64 `json:"reuse_rate"`
	ReachTheoryRate float64 `json:"reach_theory_rate"`
}

// Logged keeps GE's own summary fields verbatim, in print order. Keys use the
// report's figure names where one exists (memory_size, ge_total, topo, ...),
// GE's names otherwise (mop, io_reuse, alloc_mode, smp).
type Logged []LoggedField

// LoggedField is one key and the text GE printed for it.
type LoggedField struct {
	Key   string
	Value string
}

// Get returns the value of key.
func (l Logged) Get(key string) (string, bool) {
	for _, f := range l {
		if f.Key == key {
			return f.Value, true
		}
	}
	return "", false
}

// Row is one [IMAS]Set placement.
type Row struct {
	Node       string     `json:"node"`
	OpType     string     `json:"optype"`
	Kind       string     `json:"kind"`
	Index      int64      `json:"index"`
	Offset     int64      `json:"offset"`
	Stream     int64      `json:"stream"`
	StreamDesc string     `json:"stream_desc,omitempty"`
	MemType    int64      `json:"memtype"`
	Size       int64      `json:"size"`
	RealSize   int64      `json:"realsize"`
	NoAlign    int64      `json:"noalignsize"`
	LifeBegin  int64      `json:"life_begin"`
	LifeEnd    int64      `json:"life_end"`
	LifeDesc   *[2]string `json:"life_desc,omitempty"` // lifetimes as printed when not plain numbers ("1-4"); nil mostly
	Child      int64      `json:"child"`
	Reuse      int8       `json:"reuse"`
	Continuous int8       `json:"continuous"`
	ZeroCopy   int8       `json:"zero_copy"`
	SameStream int8       `json:"same_stream"`
	IsRef      int8       `json:"isref"`
	Batch      string     `json:"batch"`
	BlockType  string     `json:"block_type,omitempty"`
	Pool       bool       `json:"buffer_pool,omitempty"`
	// Counted is true for the row that counts its (node, kind, index) tensor.
	Counted bool `json:"counted"`
	// ChildParts is how many child numbers GE printed (1, 4 or 5).
	ChildParts int8  `json:"-"`
	File       int32 `json:"-"`
	Line       int64 `json:"line"`
}

// LifeText returns the lifetimes as printed when they were not plain
// numbers, "" otherwise.
func (r *Row) LifeText() (begin, end string) {
	if r.LifeDesc == nil {
		return "", ""
	}
	return r.LifeDesc[0], r.LifeDesc[1]
}

// Key is the "<node>:<kind>:<index>" tensor key of report.json.
func (r *Row) Key() string { return TensorKey(r.Node, r.Kind, r.Index) }

// Reassign is a continuous-memory line (imas "reassign" row).
type Reassign struct {
	Node      string `json:"node"`
	OpType    string `json:"optype"`
	Dir       string `json:"dir"` // input / output
	Kind      string `json:"kind"`
	Index     int64  `json:"index"`
	Offset    int64  `json:"offset"`
	Stream    int64  `json:"stream"`
	MemType   int64  `json:"memtype"`
	Size      int64  `json:"size"`
	RealSize  int64  `json:"realsize"`
	NoPadding bool   `json:"nopadding"`
	Variant   string `json:"variant"`
	Line      int64  `json:"line"`
}

// AtomicPiece is one atomic-clean area piece (never reused).
type AtomicPiece struct {
	Node     string `json:"node"`
	OpType   string `json:"optype"`
	What     string `json:"what"`
	Kind     string `json:"kind"`
	Index    int64  `json:"index"`
	Offset   int64  `json:"offset"`
	Stream   int64  `json:"stream"`
	Size     int64  `json:"size"`
	RealSize int64  `json:"realsize"`
	Line     int64  `json:"line"`
}

// AtomicClean is a memset node and the offsets it clears.
type AtomicClean struct {
	Node    string  `json:"node"`
	OpType  string  `json:"optype"`
	Offsets []int64 `json:"offsets"`
	Sizes   []int64 `json:"sizes"`
	Line    int64   `json:"line"`
}

// AppendWsTotal records workspace appended after task generation
// (docs/log-formats.md#append-ws).
type AppendWsTotal struct {
	Refreshed  int   `json:"refreshed"`
	OriginSize int64 `json:"origin_size,omitempty"`
	LastSize   int64 `json:"last_size,omitempty"`
}

// Conflict is a pair of rows whose address ranges and lifetimes intersect.
type Conflict struct {
	A        string   `json:"a"`
	B        string   `json:"b"`
	Offset   int64    `json:"offset"`
	Size     int64    `json:"size"`
	Lifetime [2]int64 `json:"lifetime"`
	Stream   string   `json:"stream"`
	StreamA  int64    `json:"stream_a"`
	StreamB  int64    `json:"stream_b"`
}

// Waste decomposes after_reuse − theory_min (docs/analyses.md).
type Waste struct {
	Gap   int64          `json:"gap"`
	Parts []WastePart    `json:"parts"`
	Holes []Hole         `json:"holes,omitempty"`
	Extra map[string]any `json:"extra,omitempty"`
	// Step is the time step of Holes (the peak step); ReuseTop is the end
	// of the reuse region (below the atomic and zero-copy areas).
	Step     int64 `json:"step"`
	ReuseTop int64 `json:"reuse_top"`
}

// WastePart is one cause and its bytes.
type WastePart struct {
	Cause string `json:"cause"`
	Bytes int64  `json:"bytes"`
	Note  string `json:"note,omitempty"`
}

// Hole is free address space at the peak.
type Hole struct {
	Offset int64 `json:"offset"`
	Size   int64 `json:"size"`
}

// Peak is the time step of peak live memory and what is live there.
type Peak struct {
	Step    int64      `json:"step"`
	Live    int64      `json:"live"`
	Tensors []PeakItem `json:"tensors"`
	// Theory is theory_min's live reusable bytes at Step; Blocks is how
	// many blocks are live there (Tensors keeps the largest).
	Theory int64 `json:"theory_live"`
	Blocks int   `json:"blocks"`
}

// PeakItem is one tensor live at the peak.
type PeakItem struct {
	Key     string `json:"key"`
	OpType  string `json:"optype"`
	Offset  int64  `json:"offset"`
	Size    int64  `json:"size"`
	Life    string `json:"life"`
	AliasOf string `json:"alias_of,omitempty"`
	Shared  int    `json:"shared,omitempty"`
	Flags   string `json:"flags"` // r:c:z:s of child[...]
}

// VarSession is the variable memory of one (pid, session).
type VarSession struct {
	PID     string   `json:"pid"`
	Session string   `json:"session"`
	Count   int64    `json:"count"`
	SizeSum int64    `json:"size_sum"`
	AreaEnd int64    `json:"area_end"`
	Rows    []VarRow `json:"rows"`

	// ReuseCount is the number of reuse rows ("reuse address of node"):
	// they share another variable's memory and count in neither Count nor
	// SizeSum.
	ReuseCount int64 `json:"reuse_count"`
	// RdmaSize and HostSize are the parts of SizeSum outside the session's
	// HBM area.
	RdmaSize int64 `json:"rdma_size,omitempty"`
	HostSize int64 `json:"host_size,omitempty"`
}

// VarRow is one AssignVarMem line.
type VarRow struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"` // hbm, rdma, host, reuse
	Index    int64  `json:"index"`
	Offset   int64  `json:"offset"`
	Addr     string `json:"addr,omitempty"`
	Size     int64  `json:"size"`
	RealSize int64  `json:"realsize"`
	ReuseOf  string `json:"reuse_of,omitempty"`
	Line     int64  `json:"line"`
	File     int32  `json:"-"`
}

// MallocTotal is the device memory of one category in one process.
type MallocTotal struct {
	PID      string `json:"pid"`
	DeviceID int64  `json:"device_id"`
	Category string `json:"category"`
	Bytes    int64  `json:"bytes"`
	Count    int64  `json:"count"`
	// DeviceID above is -1 when the logs do not say.
	// PhysicalPeak is the part of Bytes that is the peak of live physical
	// pages of expandable allocators (pages are recycled, so their sum
	// would overstate the memory held).
	PhysicalPeak int64 `json:"physical_peak,omitempty"`
	// Freed is what RtMemAllocator::free gave back (page caching only).
	Freed int64 `json:"freed,omitempty"`
}

// Malloc is one GE_PRINT_DYNAMIC_MEMORY line.
type Malloc struct {
	PID      string `json:"pid"`
	DeviceID int64  `json:"device_id"`
	Func     string `json:"func"`
	Caller   string `json:"caller"`
	Purpose  string `json:"purpose"`
	Category string `json:"category"`
	Counted  bool   `json:"counted"`
	Physical bool   `json:"physical_page,omitempty"`
	Size     int64  `json:"size"`
	Ptr      string `json:"ptr,omitempty"`
	Time     int64  `json:"time_us"`
	Line     int64  `json:"line"`
	File     int32  `json:"-"`
}

// DeviceInfo is what the logs say about one process and device.
type DeviceInfo struct {
	PID      string `json:"pid"`
	DeviceID int64  `json:"device_id"` // -1 when unknown
	// StaticMemoryPolicy is from "Final StaticMemoryPolicy is set to N.",
	// else the smp[] of the graph summaries; -1 when unknown.
	StaticMemoryPolicy int64 `json:"static_memory_policy"`
	// DeviceTotal is "Total memory size is N" (0 when not logged).
	DeviceTotal int64 `json:"device_total"`
	// Used is what the process used on the device (analyze.DeviceUsage);
	// nil when neither a malloc nor a devmm peak of another module was
	// logged for it.
	Used *DeviceUsed `json:"used,omitempty"`
}

// DeviceUsed is the memory one process used on one device: GE's mallocs
// (device_malloc) plus the devmm peaks of the other modules. Peaks of
// different modules need not coincide, so Total is an upper bound.
type DeviceUsed struct {
	Total int64 `json:"total"` // GE + the modules' peaks
	GE    int64 `json:"ge"`    // Σ device_malloc of the process and device
	// Modules are the devmm peaks of the modules other than GE (APP, HCCL,
	// RUNTIME, ...), in log order; host memory types are left out.
	Modules []ModulePeak `json:"modules"`
	// DevmmGE is GE's own devmm peak, to cross-check GE: a large gap is
	// an allocation path imas cannot see.
	DevmmGE int64 `json:"devmm_ge"`
}

// ModulePeak is one module's devmm peak on a device.
type ModulePeak struct {
	Module string `json:"module"`
	Peak   int64  `json:"peak"`
}

// Region is a load-time memory region (feature map, weights, ...).
type Region struct {
	PID     string `json:"pid"`
	GraphID int64  `json:"graph_id"`
	Type    string `json:"type"`
	MemType int64  `json:"memtype,omitempty"`
	Base    string `json:"base"`
	Size    int64  `json:"size"`
	Line    int64  `json:"line"`
	// Statement is the GE statement that logged it (InitFeatureMapAndP2PMem,
	// InitWeightMem, ReserveVirtualMemory, ...).
	Statement string `json:"statement"`
	Released  bool   `json:"released,omitempty"`
	// GraphID above is -1 for ranges tied to no graph (ReserveVirtualMemory).
	// Graph is the static graph (as in graphs[].graph) whose compile-time
	// offsets this region holds, when imas could tell.
	Graph string `json:"graph,omitempty"`
	// Hint is the static graph most recently compiled in the process when
	// the region was logged (used to map old graph names to graph ids).
	Hint string `json:"-"`
	File int32  `json:"-"`
	Addr uint64 `json:"-"`
}

// AddressCheck is the validity check of one graph's operator addresses.
type AddressCheck struct {
	PID        string        `json:"pid"`
	GraphID    int64         `json:"graph_id"`
	Checked    int64         `json:"checked"`
	Invalid    []BadAddress  `json:"invalid"`
	Mismatches []OffsetCheck `json:"offset_mismatches,omitempty"`
	// GraphID above is -1 for lines that name no graph (FFTS).
	// Graph is the static graph the addresses were reconciled with, and
	// Reconciled how many addresses had a compile-time offset to compare.
	Graph      string `json:"graph,omitempty"`
	Reconciled int64  `json:"reconciled"`
	// Unchecked counts the addresses that could not be checked, by
	// reason (diag.Unchecked*: no-region-logged, user-memory, ...).
	Unchecked map[string]int64 `json:"unchecked"`
	// UserMemory: the process loaded a model into memory it allocated
	// itself (aclmdlLoadFromFileWithMem), whose base GE does not print.
	UserMemory bool      `json:"user_memory,omitempty"`
	Rows       []AddrRow `json:"rows"`
}

// AddrRow is one operator address, constant copy or input copy line.
type AddrRow struct {
	Statement string `json:"statement"`
	Type      string `json:"type"`
	Name      string `json:"name"`
	OpType    string `json:"optype,omitempty"`
	Kind      string `json:"kind"`
	Variant   string `json:"variant,omitempty"` // aicpu, p2p, l1
	Index     int64  `json:"index"`             // -1 when not printed
	Offset    int64  `json:"offset"`            // printed logical offset; -1 when not printed
	Size      int64  `json:"size"`              // -1 when not printed
	DataSize  int64  `json:"datasize,omitempty"`
	MemAddr   string `json:"memaddr"` // "" for Null addr and failed lines
	// Status: ok, invalid (outside its region), mismatch (inside, but not
	// at the compile-time offset), unchecked (no region), null, failed.
	Status string `json:"status"`
	// Why an unchecked address was not checked (diag.Unchecked*).
	Why  string `json:"why,omitempty"`
	OM2  bool   `json:"om2,omitempty"`
	Line int64  `json:"line"`
	File int32  `json:"-"`
	Path string `json:"-"`
	Addr uint64 `json:"-"`
	// Region is 1 + the index in Report.Regions of the region the address
	// belongs to (0: none).
	Region int `json:"-"`
}

// BadAddress is an operator address outside its region.
type BadAddress struct {
	GraphID int64  `json:"graph_id"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Index   int64  `json:"index"`
	MemAddr string `json:"memaddr"`
	Line    int64  `json:"line"`
}

// OffsetCheck is an address whose (address − base) differs from the
// compile-time offset of the same tensor.
type OffsetCheck struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Index    int64  `json:"index"`
	Address  int64  `json:"address_offset"`
	Compiled int64  `json:"compiled_offset"`
	// From says where the compiled offset came from: static (the graph's
	// [IMAS]Set or continuous rows) or printed (offset[..] of the line).
	From    string `json:"from"`
	MemAddr string `json:"memaddr"`
	Line    int64  `json:"line"`
}

// Pool is one RT2 dynamic memory allocator.
type Pool struct {
	PID       string         `json:"pid"`
	Allocator string         `json:"allocator"`
	Allocs    int64          `json:"allocs"`
	Frees     int64          `json:"frees"`
	Total     int64          `json:"total"`
	PeakLive  int64          `json:"peak_live"`
	Leaked    int64          `json:"leaked"`
	Extra     map[string]any `json:"extra,omitempty"`

	Device int64 `json:"device_id"` // -1 when unknown
	// Requested is Σ requested (tensor) bytes; PeakRequested the peak of
	// live requested bytes (GE's real_theory_min).
	Requested     int64 `json:"requested"`
	PeakRequested int64 `json:"peak_requested"`
	// Addresses is the number of distinct block addresses: the real
	// footprint in blocks (many allocations on few addresses = reuse).
	Addresses int64 `json:"addresses"`
	// Physical is what the pool held from the device (0 = unknown), from
	// PhysicalFrom: print-details (PrintDetails "total size"), page-caching
	// (its aclrtMalloc calls) or physical-pages (expandable allocator peak).
	Physical     int64  `json:"physical"`
	PhysicalFrom string `json:"physical_from,omitempty"`
	// Unit is the allocation unit of Physical (page size); Step is
	// PeakLive rounded up to it. Physical − Step is fragmentation, Step −
	// PeakLive is granularity.
	Unit            int64   `json:"unit"`
	Step            int64   `json:"granularity_step"`
	ReuseRate       float64 `json:"reuse_rate"`
	ReachTheoryRate float64 `json:"reach_theory_rate"`
	// UnmatchedFrees are Free traces with no live allocation at the address
	// (counted in Frees).
	UnmatchedFrees int64        `json:"unmatched_frees"`
	Details        *PoolDetails `json:"logged,omitempty"`
	TopAddresses   []PoolAddr   `json:"top_addresses"`
	Rows           []PoolRow    `json:"rows"`
	// Streamed, when set, holds what a summary build (Builder.SummaryOnly)
	// kept of the allocations instead of Rows: Allocs, Total, Requested,
	// PeakLive and PeakRequested are then already counted.
	Streamed *PoolStream `json:"-"`
	// moved, when set, holds what the build moved of Rows to a store
	// (Builder.PoolRows): Rows is then the pool's latest rows only, and
	// RowReader reads them all.
	moved *poolMoved
}

// PoolStream is a pool aggregated while its lines stream: the live set,
// the frees seen and the per-address sums, not one row per allocation.
type PoolStream struct {
	Live, LiveRequested int64
	KernelFrees         int64
	Addresses           []PoolAddr     // by first allocation; Address unset (HexAddr(Addr))
	addrIndex           map[uint64]int // address → Addresses index
}

// PoolRow is one allocation of a pool. Begin and End are the pool's
// allocation clock: Begin is the 0-based allocation ordinal, End the
// ordinal of the first allocation after the free (LifeMax: never freed),
// so replaying rows in Begin order and freeing End == Begin first
// reproduces the log's event order.
type PoolRow struct {
	Kernel     string `json:"kernel"`
	Node       string `json:"node"`
	Stream     int64  `json:"stream"`
	Address    string `json:"address"`
	Size       int64  `json:"size"`     // block size
	RealSize   int64  `json:"realsize"` // requested size
	Begin      int64  `json:"begin"`
	End        int64  `json:"end"`
	Cached     int64  `json:"cached_size"` // device malloc (page) holding the block; 0 unknown
	Theory     int64  `json:"theory_size"` // live block bytes just after this allocation
	KernelFree bool   `json:"kernel_free"`
	PoolFree   bool   `json:"pool_free"`
	Time       int64  `json:"time_us"`
	FreeTime   int64  `json:"free_time_us,omitempty"`
	Line       int64  `json:"line"`
	Addr       uint64 `json:"-"`
}

// PoolAddr aggregates a pool's allocations by block address.
type PoolAddr struct {
	Address string `json:"address"` // "" in PoolStream.Addresses: see Addr
	Addr    uint64 `json:"-"`
	Allocs  int64  `json:"allocs"`
	MaxSize int64  `json:"max_size"`
	Bytes   int64  `json:"bytes"`
}

// PoolDetails is the pool's own PrintDetails summary (largest total size seen).
type PoolDetails struct {
	AllocCount    int64  `json:"alloc_count"`
	FreeCount     int64  `json:"free_count"`
	TotalSize     int64  `json:"total_size"`
	NewVASize     int64  `json:"new_va_size"`
	RealTheoryMin int64  `json:"real_theory_min"`
	TheoryMin     int64  `json:"theory_min"`
	Rate          string `json:"reach_theory_rate"`
}

// Devmm is one driver memory statistics line.
type Devmm struct {
	PID      string `json:"pid"`
	MemType  string `json:"memtype"`
	Module   string `json:"module"`
	Peak     int64  `json:"peak"`
	Current  int64  `json:"current"`
	AllocCnt int64  `json:"alloc_cnt"`
	FreeCnt  int64  `json:"free_cnt"`
	Cached   int64  `json:"cached,omitempty"`

	// Device is the dev<N> of the line, -1 for host memory types. Module
	// is "" for a memory type's Cached_size entry; AllocCnt and FreeCnt are
	// -1 when the line was cut before them.
	Device   int64 `json:"device"`
	ModuleID int64 `json:"module_id,omitempty"`
	Total    int64 `json:"total_size,omitempty"` // DEV_PROC_MEM lines
	// LeakHint: memory still allocated when the driver printed the stats
	// at exit (current ≠ 0, or alloc_cnt ≠ free_cnt).
	LeakHint bool `json:"leak_hint"`
	// Periodic: from the kernel log's table, printed while the process
	// runs; no leak hint then.
	Periodic bool  `json:"periodic,omitempty"`
	Line     int64 `json:"line"`
}

// TensorKey formats "<node>:<kind>:<index>".
func TensorKey(node, kind string, index int64) string {
	return node + ":" + kind + ":" + itoa(index)
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [24]byte
	i := len(b)
	neg := n < 0
	u := uint64(n)
	if neg {
		u = uint64(-n)
	}
	for u > 0 {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// RowStore holds the per-row data of graphs moved out of memory while the
// model is built (a spill store, core/spill): a finished graph keeps its
// figures and analyses in the report, its rows, continuous lines, atomic
// pieces and live curve go to the store. Load returns a copy of g with
// them back (g itself when they were never moved); it is safe for
// concurrent use. Rows is g's row count either way.
type RowStore interface {
	Load(g *Graph) (*Graph, error)
	Rows(g *Graph) int
}

// WithRows returns g with its rows, loaded from r.Spilled when they were
// moved there.
func (r *Report) WithRows(g *Graph) (*Graph, error) {
	if r.Spilled == nil {
		return g, nil
	}
	return r.Spilled.Load(g)
}

// RowCount is len(g.Rows) of the graph with its rows (WithRows).
func (r *Report) RowCount(g *Graph) int {
	if r.Spilled == nil {
		return len(g.Rows)
	}
	return r.Spilled.Rows(g)
}
