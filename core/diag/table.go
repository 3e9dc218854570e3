package diag

// The names, as used in report.json ("reason") and diagnostic_counts.
const (
	// Rejected candidate lines.
	Truncated      = "truncated"
	MissingField   = "missing-field"
	BadNumber      = "bad-number"
	NumberOverflow = "number-overflow"
	NegativeValue  = "negative-value"
	BadField       = "bad-field"
	BadEnvelope    = "bad-envelope"
	Unrecognised   = "unrecognised"
	InternalError  = "internal-error"
	LineTooLong    = "line-too-long"

	// Whole inputs.
	NotFound       = "not-found"
	Unreadable     = "unreadable"
	CorruptArchive = "corrupt-archive"
	TruncatedInput = "truncated-input"
	UnsafeMember   = "unsafe-member"
	BombLimit      = "bomb-limit"
	NestingLimit   = "nesting-limit"
	DuplicateInput = "duplicate-input"
	LinkSkipped    = "link-skipped"
	BrokenLink     = "broken-link"

	// Findings of the model and the analyses.
	UnhandledRecord       = "unhandled-record"
	OrphanRecord          = "orphan-record"
	FinishedGraphEdited   = "finished-graph-edited"
	MemoryExceeded        = "memory-exceeded"
	DeviceMallocFailed    = "device-malloc-failed"
	SummaryOnly           = "summary-only"
	LoggedMismatch        = "logged-mismatch"
	InvalidAddress        = "invalid-address"
	AddressOffsetMismatch = "address-offset-mismatch"
	DiagnosticsTruncated  = "diagnostics-truncated"
	DuplicateEvent        = "duplicate-event"
	DuplicateUnchecked    = "duplicate-unchecked"
	MemoryError           = "memory-error"

	// Ignore rules (counted as "ignored:NAME").
	IgnoreReuseResult        = "reuse-result"
	IgnoreAtomicNote         = "atomic-note"
	IgnoreAtomicNoAssign     = "atomic-no-assign"
	IgnoreCachingAllocatorV1 = "caching-allocator-v1"
	IgnoreKernelTrace        = "kernel-trace"
	IgnoreEnvelopeMarker     = "envelope-marker"
	IgnorePoolRecycle        = "pool-recycle"
	IgnorePoolWandering      = "pool-wandering"
	IgnorePoolEvent          = "pool-event"
	IgnoreFixedFeatureMemory = "fixed-feature-memory"
	IgnoreAllocatorSetup     = "allocator-setup"
	IgnoreDirectCopyAddr     = "direct-copy-addr"
	IgnoreRefreshAddr        = "refresh-addr"
	IgnoreIOSize             = "io-size"
	IgnoreAllocatorLifecycle = "allocator-lifecycle"
	IgnoreMemoryKeyMiss      = "memory-key-miss"
	IgnoreCachingBins        = "caching-allocator-bins"
	IgnoreRuntimeParams      = "runtime-params"
	IgnoreErrorPropagation   = "error-propagation"
	IgnoreModelLoadTrace     = "model-load-trace"
	IgnoreErrorCodeList      = "error-code-list"
	IgnoreRuntimeMallocOK    = "runtime-malloc-ok"

	// Why an operator address was not checked (address_checks[].unchecked).
	UncheckedNoRegion     = "no-region-logged"
	UncheckedUserMemory   = "user-memory"
	UncheckedOnChip       = "on-chip-buffer"
	UncheckedNoAddress    = "no-address"
	IgnorePoolBreakdown   = "pool-breakdown"
	IgnoreDeviceAllocFree = "device-allocator-free"

	// Lines that mention memory but are not memory records (not
	// candidates; core.NotRecordRule names the rule for a line).
	NotRecordRuntimeAlloc    = "runtime-allocation"
	NotRecordACLStatistics   = "acl-statistics"
	NotRecordACLCall         = "acl-call"
	NotRecordRuntimeObject   = "runtime-object-size"
	NotRecordRuntimeResource = "runtime-resource"
	NotRecordRuntimeTask     = "runtime-task"
	NotRecordCapacity        = "memory-capacity"
	NotRecordOption          = "memory-option"
	NotRecordTiming          = "timing-trace"
	NotRecordOpRegistry      = "op-registry"
	NotRecordGraphBuild      = "graph-build-trace"
	NotRecordAssignerTrace   = "assigner-trace"
	NotRecordLoadTrace       = "load-trace"
	NotRecordAllocatorCare   = "allocator-housekeeping"
	NotRecordPoolRequest     = "pool-request"
	NotRecordDump            = "dump-trace"
	NotRecordFailure         = "failure-line"
	NotRecordErrorText       = "error-report-text"
	NotRecordAICPU           = "aicpu-engine"
	NotRecordOpCompiler      = "op-compiler"
	NotRecordFramework       = "framework-adapter"
	NotRecordDriver          = "driver-trace"
	NotRecordTransport       = "transport"
)

const checkLevel = "If the lines come from a GE build imas does not know, please report the line."

var table = []Reason{
	{Truncated, Line, Warning,
		"The line stops before a field imas needs: the logger cut it (GE's messages are cut at 1024 characters) or the file ends mid-line.",
		"Nothing to do for cut lines; the figures of the graph it belongs to may be low. A file that ends mid-line was copied while still being written."},
	{MissingField, Line, Warning,
		"The line is complete but lacks a field its statement needs.", checkLevel},
	{BadNumber, Line, Warning, "A field that must be a number is not one.", checkLevel},
	{NumberOverflow, Line, Warning, "A number does not fit in 64 bits.", checkLevel},
	{NegativeValue, Line, Warning, "A size or offset is negative.", checkLevel},
	{BadField, Line, Warning, "A field has a shape no known GE version prints.", checkLevel},
	{BadEnvelope, Line, Warning,
		"A memory statement without any envelope imas reads (a plog header [LEVEL] MODULE(pid,name):time, the driver's kernel log, the DDK logger, CANN's error report): often the tail of a line a copy wrapped.",
		"Pass the plog files as GE wrote them, not text copied out of them."},
	{Unrecognised, Line, Warning,
		"The line carries a memory marker but its statement is not one imas knows.", checkLevel},
	{InternalError, Line, Error, "imas failed on this line.", "Please report the line: this is a bug in imas."},
	{LineTooLong, Line, Warning,
		"A line longer than imas's line limit; only its start was read.",
		"Check that the file is a text log."},

	{NotFound, Input, Error, "A path named on the command line does not exist.", "Check the path."},
	{Unreadable, Input, Error, "A file or folder could not be read (permissions, I/O error, not a regular file).", "Check the file's permissions and type."},
	{CorruptArchive, Input, Error, "An archive (gzip, tar, zip) is damaged; what could be read was used.", "Copy the archive again."},
	{TruncatedInput, Input, Error, "An input ends early (an archive cut short); the part before the cut was used.", "Copy the input again."},
	{UnsafeMember, Input, Warning, "An archive member with an unsafe name or type (absolute path, .., link, device) was skipped.", ""},
	{BombLimit, Input, Error,
		"Reading stopped at the expansion limit (-max-expand / -max-ratio); the rest of the input is not read.",
		"If the archive is genuine, raise the limits with -max-expand / -max-ratio or IMAS_MAX_EXPAND / IMAS_MAX_RATIO."},
	{NestingLimit, Input, Warning, "Archives nested too deeply; the innermost was read as text.", ""},
	{DuplicateInput, Input, Info, "The same text was given twice (e.g. a file and its .gz); the copy was skipped.", ""},
	{LinkSkipped, Input, Info, "A symbolic link inside a folder leads to a folder that is being read (a loop) or was read already; it was not followed again.", ""},
	{BrokenLink, Input, Warning, "A symbolic link inside a folder points to nothing (or to something imas may not read); skipped.", "Check the link's target."},

	{UnhandledRecord, Finding, Error, "A parsed record the model has no place for.", "Please report it: this is a bug in imas."},
	{OrphanRecord, Finding, Warning, "A statement that belongs to a graph came before any graph was started.", "Pass the plog files from the process's start."},
	{FinishedGraphEdited, Finding, Warning,
		"imas total, and imas report with its spill store (the default): a statement that can change a graph's rows or zero-copy figure (after append ws, a zero-copy size, an HBM summary) came after the process had moved on to another graph, whose figures were by then computed and its rows let go (or moved to disk) to keep memory small; the figures and rows written do not include it.",
		"Run imas report -spill=false on the same logs: it keeps every graph's rows in memory to the end."},
	{MemoryExceeded, Finding, Error, "GE reported that a graph's memory exceeds the device's.", "Reduce the model's memory (batch size, recompute) or see the graph's figures."},
	{DeviceMallocFailed, Finding, Error, "A device memory allocation failed.", "See memory errors: the device was out of memory at that moment."},
	{SummaryOnly, Finding, Info, "A graph has GE's summary line but no placement rows: only its logged size is known.", "Pass the debug plog of the graph's build (INFO level) to see its tensors."},
	{LoggedMismatch, Finding, Warning, "GE's logged memory size differs from the one the rows give.", ""},
	{InvalidAddress, Finding, Error, "An operator address lies outside the region it must be in.", "Check the model load; this can corrupt data."},
	{AddressOffsetMismatch, Finding, Warning, "An operator's address minus its region base differs from its planned offset.", ""},
	{UncheckedNoRegion, Finding, Info,
		"Operator addresses of a graph whose region (feature map, weights, variables) the logs do not give: they cannot be checked. One diagnostic per graph says how many.",
		"Pass the debug plog of the model load (INFO level): GE prints the region bases there."},
	{UncheckedUserMemory, Finding, Info,
		"Operator addresses of a model loaded into user memory (aclmdlLoadFromFileWithMem and the like): GE prints no base for that memory, so they cannot be checked.", ""},
	{UncheckedOnChip, Finding, Info, "L1 (on-chip buffer) addresses: they lie in no device memory region.", ""},
	{UncheckedNoAddress, Finding, Info, "Address lines that print no address (the 2020 CopyTransData form).", ""},
	{DiagnosticsTruncated, Finding, Info, "More diagnostics than the report keeps; the counts are complete, the list is not.", ""},
	{DuplicateEvent, Finding, Info, "A statement printed in both the run and the debug plog was counted once.", ""},
	{DuplicateUnchecked, Finding, Warning,
		"imas total only: a statement GE prints in both the run and the debug plog came more than 10 minutes (of log time) behind the latest line read; imas total keeps the statements of the last 10 minutes only, to keep memory small, so whether it was a copy of one counted already could not be checked, and it was counted.",
		"Run imas report on the same logs: it checks every copy."},
	{MemoryError, Finding, Error, "A memory request was refused (out of memory, a driver mapping error, or GE's load-time size check); memory_errors has what was asked, by whom, when, and the device memory before it.",
		"Free device memory (other processes, smaller batch or model), or check the size GE asked for against the device's."},

	{IgnoreReuseResult, Ignored, Info, "Reuse summaries of assigners GE did not choose.", ""},
	{IgnoreAtomicNote, Ignored, Info, "Notes on atomic-clean nodes that carry no size.", ""},
	{IgnoreAtomicNoAssign, Ignored, Info, "Atomic-clean nodes that were not assigned memory.", ""},
	{IgnoreCachingAllocatorV1, Ignored, Info, "The pre-RT2 caching allocator's creation line.", ""},
	{IgnoreKernelTrace, Ignored, Info, "Kernel launch, shape and tiling traces that share the [KernelTrace] marker.", ""},
	{IgnoreEnvelopeMarker, Ignored, Info, "A marker found only in the plog header, not in the message.", ""},
	{IgnorePoolRecycle, Ignored, Info, "Pool blocks recycled between streams: no memory is allocated or freed.", ""},
	{IgnorePoolWandering, Ignored, Info, "Pool blocks moving between streams: no memory is allocated or freed.", ""},
	{IgnorePoolEvent, Ignored, Info, "Pool stream synchronisation events.", ""},
	{IgnoreFixedFeatureMemory, Ignored, Info, "Fixed feature memory handed to a model; counted by its malloc line.", ""},
	{IgnoreAllocatorSetup, Ignored, Info, "Allocator set-up lines that allocate nothing.", ""},
	{IgnoreDirectCopyAddr, Ignored, Info, "Notes on addresses a copy operator reads directly; no address to check.", ""},
	{IgnoreRefreshAddr, Ignored, Info, "Notes that input/output addresses were refreshed; no address to check.", ""},
	{IgnoreIOSize, Ignored, Info, "Model input/output sizes (GetInputSize/GetOutputSize); the addresses come from other lines.", ""},
	{IgnoreAllocatorLifecycle, Ignored, Info, "MemoryAllocator::Initialize and ::Finalize: an allocator starts or stops; nothing is allocated or freed.", ""},
	{IgnoreMemoryKeyMiss, Ignored, Info, "MemoryAllocator::GetMemoryAddr found no block for a memory key; GE then allocates one, which its own malloc line records.", ""},
	{IgnorePoolBreakdown, Ignored, Info, "PrintDetails lines other than \"Device memory\" (allocator counts, spans in use, freed spans): GE's breakdown of the pool, whose total imas reads from the Device memory line.", ""},
	{IgnoreDeviceAllocFree, Ignored, Info, "DeviceAllocator::free: the pool's lower allocator giving a page back, printed with the RtMemAllocator::free line of the same page.", ""},
	{IgnoreCachingBins, Ignored, Info, "The caching allocator giving its cached free blocks back (\"Free block bins.\"); the line names no block and no size.", ""},
	{IgnoreRuntimeParams, Ignored, Info, "GE's InitRuntimeParams trace of a model being loaded (its sizes, no allocation).", ""},
	{IgnoreRuntimeMallocOK, Ignored, Info, "The runtime's \"dev memory alloc ok\" after its request line: the request succeeded.", ""},
	{IgnoreErrorCodeList, Ignored, Info, "GE's error manager naming an error code it knows (\"add error_code EL0004 success\"): nothing failed.", ""},
	{IgnoreModelLoadTrace, Ignored, Info, "ACL's trace of a model load into user memory that carries no size.", ""},
	{IgnoreErrorPropagation, Ignored, Info, "An assert that only passes a memory error up (\"Assert ((...) == ge::SUCCESS) failed\"); the error is reported from the line that says what failed.", ""},

	{NotRecordRuntimeAlloc, NotRecord, Info, "The runtime's (and ACL's) own allocation and free lines: device, managed and host memory below GE (DevMalloc, DevMemAllocOnline, DevFree, ManagedMemAlloc/Free, HostMalloc/Free, aclrtMalloc/Free). They include GE's memory and the application's.", "imas does not read runtime-layer allocations yet; its figures are GE's. Read these lines with grep when the application allocates memory outside GE."},
	{NotRecordACLStatistics, NotRecord, Info, "ACL's count of malloc and free calls per resource type (TraverseStatistics): call counts, not bytes.", ""},
	{NotRecordACLCall, NotRecord, Info, "ACL API traces that copy data or query a model file's sizes (aclrtMemcpy, aclmdlQuerySize); nothing is allocated.", ""},
	{NotRecordRuntimeObject, NotRecord, Info, "The runtime's \"Runtime_alloc_size N\": host heap bytes of an object it created (context, stream, task pool, program); runtime bookkeeping, not device memory.", ""},
	{NotRecordRuntimeResource, NotRecord, Info, "Runtime ids and queues allocated and freed: streams, SQ/CQ queues, events, models, task ids, resource pools, and the device's set-up (L2 buffer, PCIe support). \"Alloc\" and \"free\" here name ids, not memory.", ""},
	{NotRecordRuntimeTask, NotRecord, Info, "Runtime task and kernel traces: submitted and finished tasks (MEMCPY_ASYNC), kernel launches and argument sizes, kernel binaries loaded, memsets, pointer attributes.", ""},
	{NotRecordCapacity, NotRecord, Info, "Device capacity, free memory and configured limits, as GE and the runtime query them (GetMemoryInfo, CheckFreeMemory, MemGetInfoEx, platform memory_size, caching thresholds): facts about the device, not allocations.", ""},
	{NotRecordOption, NotRecord, Info, "Memory options as GE reads them (GE_USE_STATIC_MEMORY, ge.exec.staticMemoryPolicy) and HCCL's fusion tensor size.", ""},
	{NotRecordTiming, NotRecord, Info, "Timing traces (\"The time cost of ... is [N] micro second\"); the memory word is in a step's name (MemcpyAddrAsyncPass, AssignMemory).", ""},
	{NotRecordOpRegistry, NotRecord, Info, "Registration of op types, infer functions, tiling functions, passes and kernels, with registry counts; op names such as Size, QueueSize, ResizeBilinearV2 and MemSet carry the memory word.", ""},
	{NotRecordGraphBuild, NotRecord, Info, "GE's graph compilation steps (and those of its RTS engine, logged under RUNTIME): parsing, partitions, passes, net output, infer shape, streams, events and labels; \"size\" there counts nodes, tasks or shapes.", ""},
	{NotRecordAssignerTrace, NotRecord, Info, "GE's memory assigner narrating its work (node by node sizes, reuse decisions, ranges, offsets, variable and reference assignment, run context bases); imas reads the placements and totals from GE's [IMAS] and summary statements.", ""},
	{NotRecordLoadTrace, NotRecord, Info, "GE loading a model: weights copied, zero-copy ([ZCPY]) task arguments and user data addresses, task and kernel setup, model input/output tensor sizes; imas reads the model's regions from GE's memory statements.", ""},
	{NotRecordAllocatorCare, NotRecord, Info, "GE's allocators being created, cleared and finalized, and their end-of-run call counters (Free blocks, Free all memory, PrintCount, PrintStatics); nothing is allocated or freed by these lines.", ""},
	{NotRecordPoolRequest, NotRecord, Info, "The RT2 caching allocator's request size (\"Malloc size:N\"), logged before the \"Malloc block\" line that imas reads for the same request.", ""},
	{NotRecordDump, NotRecord, Info, "Data dump and profiling: addresses and sizes of tensors copied out for a dump, dump task sizes, profiling counters; nothing is allocated.", ""},
	{NotRecordFailure, NotRecord, Info, "An error line that mentions memory, is not one of the memory errors imas reports, and does not say that memory ran out: parameter checks, registration failures, asserts and call traces around a failure, and the runtime's reason line that repeats the failure before it.", "Read them around the memory errors imas shows first."},
	{NotRecordErrorText, NotRecord, Info, "The explanation lines of an error report (\"Possible Cause: Available memory is insufficient.\"); the failure is read from the report's own lines.", ""},
	{NotRecordAICPU, NotRecord, Info, "The AI CPU engine and scheduler (AICPU, CCECPU): op info, workspace sizes, dump mappings. Its MallocMemory lines are read as records.", ""},
	{NotRecordOpCompiler, NotRecord, Info, "The fusion engine and TBE compiler (FE, TEFUSION): op info, tensor sizes of ops being compiled, fusion passes.", ""},
	{NotRecordFramework, NotRecord, Info, "The framework adapter (FMK: the TensorFlow adapter, and the 2019 offline model generator under the same module name): its options and progress lines.", ""},
	{NotRecordDriver, NotRecord, Info, "Driver and kernel-module lines other than the devmm statistics imas reads: shared-memory handles, page statistics of a process at exit, resource recycling.", ""},
	{NotRecordTransport, NotRecord, Info, "The data tunnel (TDT) and collective communication (HCCL): message size limits, communication buffers, memory registration for transfers.", ""},
}
