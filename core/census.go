package core

import (
	"bytes"

	"imas/core/diag"
	"imas/core/plog"
)

// notRecordForm is one form of line that mentions memory but is not a
// memory record. A line has the form when its module is one of modules
// (any module when empty) and, when funcs or phrases are given, its
// function token is one of funcs or its message holds one of phrases.
// A level, when given, must match too; a line holding one of unless never
// has the form.
type notRecordForm struct {
	rule    string
	level   string
	modules []string
	funcs   []string
	phrases []string
	unless  []string
}

// outOfMemory are the phrases of a failure for want of memory: an ERROR
// line holding one is a memory error or names one, so the ERROR-level
// form does not explain it away (a new memory-error form is left over).
var outOfMemory = []string{"out of memory", "Out of memory", "insufficient", "OOM"}

// notRecordForms are tried in order: forms naming a function or a phrase
// come before the forms that take a whole module or level, so the most
// specific explanation wins.
var notRecordForms = []notRecordForm{
	{rule: diag.NotRecordRuntimeAlloc, modules: []string{"RUNTIME"},
		funcs: []string{"DevMalloc", "DevFree", "DevMemAllocOnline", "DevMemFree", "ManagedMemAlloc", "ManagedMemFree", "HostMalloc", "HostFree"}},
	{rule: diag.NotRecordRuntimeAlloc, modules: []string{"ASCENDCL"},
		funcs: []string{"aclrtMalloc", "aclrtFree", "aclrtMallocHost", "aclrtFreeHost"}},
	{rule: diag.NotRecordACLStatistics, modules: []string{"ASCENDCL"}, funcs: []string{"TraverseStatistics"}},
	{rule: diag.NotRecordACLCall, modules: []string{"ASCENDCL"}, funcs: []string{"aclrtMemcpy", "aclmdlQuerySize"}},
	{rule: diag.NotRecordTiming, phrases: []string{"The time cost of ", "[GEPERFTRACE]", "[FE_PERFORMANCE]"}},
	{rule: diag.NotRecordRuntimeObject, modules: []string{"RUNTIME"}, phrases: []string{"Runtime_alloc_size "}},
	{rule: diag.NotRecordRuntimeResource, modules: []string{"RUNTIME"},
		funcs: []string{"StreamIdAlloc", "StreamIdFree", "FreeStreamId", "Setup", "NormalSqCqAllocate", "NormalSqCqFree",
			"LogicCqAllocate", "LogicCqFree", "FreeLogicCq", "VirtualCqAllocate", "VirtualCqFree", "CtrlSqCqFree",
			"DeAllocStreamSqCq", "EventIdAlloc", "TryFreeEventIdAndCheckCanBeDelete", "ModelIdAlloc", "ModelIdFree",
			"AllocTaskId", "RecycleTaskWithCtrlsq", "Init", "DestoryStreamPool", "~StreamResEntry", "~CtrlResEntry", "~LiteLaunchRes"}},
	{rule: diag.NotRecordRuntimeTask, modules: []string{"RUNTIME"},
		funcs: []string{"AddTaskToList", "SubmitTask", "TaskFinished", "ToCommandBody", "ConvertCpyType", "LaunchKernel",
			"GetTaskMaxSize", "MemSetSync", "Load",
			"H2DCopyMgr", "PointerGetAttributes", "SupportNumaTsMemCtrl"}},
	{rule: diag.NotRecordCapacity, modules: []string{"RUNTIME"}, funcs: []string{"MemGetInfoEx"}},
	{rule: diag.NotRecordCapacity, modules: []string{"GE"},
		funcs: []string{"GetMemoryInfo", "CheckAndReleaseMemory", "CheckFreeMemory", "GetPlatformInfo", "GetHardwareInfo",
			"ScalableConfig", "SetAllMemoryMaxValue", "SetMemoryMallocSize"}},
	{rule: diag.NotRecordOption, modules: []string{"GE"}, funcs: []string{"GEInitializeImpl", "InitGraphOptimizers"}},
	{rule: diag.NotRecordOption, modules: []string{"HCCL"}, phrases: []string{"FUSION_TENSOR_SIZE"}},
	{rule: diag.NotRecordOpRegistry, modules: []string{"GE"},
		funcs: []string{"RegisterInferShapeFunc", "RegisterInferAxisTypeInfoFunc", "RegisterInferValueRangeFunc",
			"RegisterScopeFusionPass", "OpTilingFuncRegistry", "OpTilingRegistryInterf", "LoadCustomOpLib",
			"ParserInitialize", "InitOpsKernelInfo", "CreateOperator", "GetDNNEngineObjs"}},
	{rule: diag.NotRecordGraphBuild, modules: []string{"GE"},
		funcs: []string{"PreRun", "RunGraphAsync", "ParseProto", "ParseMemType", "OptimizeConstNodes4CustomOp",
			"MarkRefRelations", "MarkClusters", "PartitionSubGraph", "Run", "RunPasses", "AddNetOutputNodeToGraph",
			"GetOutputNode", "SaveAndRemoveTargets", "GetFuseConstNodes", "SameTensorDesc", "CalcElementCntOfFixedDims",
			"InsertMemAddrAsyncNodeBeforeNetoutput", "GetInputIrIndexes2InstanceIndexesPairMap", "CalcOpParam",
			"UpdateParentNodeOutputSize", "UpdateDataInputSize", "StreamAllocator", "AssignLogicalStreams", "Assign",
			"DoAssign", "AssignNewStream", "UpdateAssignedSubgraphs", "UpdateReusedSubgraphs", "GetSingleInoutStream",
			"RefreshRealStream", "RefreshRealStreamWithoutNotify", "RefreshEventsAndNotifiesWithReuse",
			"ReuseEventForMultiDims", "DumpEvents", "GetMaxStreamAndTask", "AssignFunctionalLabels", "GenerateTask",
			"GetTaskInfo"}},
	{rule: diag.NotRecordGraphBuild, modules: []string{"RUNTIME"},
		funcs: []string{"CalcOpRunningParam", "GenerateTask", "PorcMemtypeRange"}},
	{rule: diag.NotRecordAssignerTrace, modules: []string{"GE"},
		funcs: []string{"AssignMemoryWithReuse", "AssignOutputMemoryWithReuse", "GetNodeWorkSpaceSize",
			"GetMaxBatchAllMemorySize", "GetOutAndWorkSpaceMem", "GetMemoryRanges", "ReleaseMemory", "IsDirectOutputNode",
			"ApplyOutMemory", "ReleaseInputNodeOutMemory", "ReAssignContinuousMemory", "ReAssignVirtualNodesMemory",
			"ReAssignAtomicMemory", "AssignReferenceMemory", "UpdateOpInputOffset", "UpdateRefOpOutputOffset",
			"AssignZeroCopyMemory", "AssignMemory", "AssignVarMem", "SetVarAddr", "AssignData2VarRef",
			"SetOutVariableAttr", "AssignBufferPoolMemory", "CreateRunContext", "CalcOpRunningParam"}},
	{rule: diag.NotRecordLoadTrace, modules: []string{"GE"}, phrases: []string{"[ZCPY]"}},
	{rule: diag.NotRecordLoadTrace, modules: []string{"GE"},
		funcs: []string{"Init", "InitModelMem", "InitWeightMem", "InitVariableMem", "EnsureModelVarMemoryMalloced",
			"GetAutoMallocVarAddr", "SetMemManager", "InitTaskInfo", "MallocKnownArgs", "GetInputSize", "GetOutputSize",
			"InitOutputDataInfo", "InitOutputTensorInfo", "GenOutputTensorInfo", "GetMemAndWeightSize", "Build",
			"BuildBinData", "SinkNodeBinWithoutHandle", "GetMemAllocShape", "IsStaticCompiledGraphHasTaskToLaunch"}},
	{rule: diag.NotRecordAllocatorCare, modules: []string{"GE"},
		funcs: []string{"InitAllocator", "Initialize", "Finalize", "FreeBlocks", "FreeCachedBlocks", "FreeAllMemory",
			"Free", "GetAllocator", "ClearStream", "PrintCount", "PrintStatics", "FreeFileConstantMem", "FreeInOutBuffer"}},
	{rule: diag.NotRecordPoolRequest, modules: []string{"GE"}, funcs: []string{"Malloc"}, phrases: []string{"Malloc size:"}},
	{rule: diag.NotRecordDump, modules: []string{"IDEDD", "PROFILING"}},
	{rule: diag.NotRecordDump, modules: []string{"GE"},
		funcs: []string{"SaveDumpOpInfo", "SaveDumpTask", "DumpExceptionInfo", "SetDumpData", "ExecuteLoadDumpInfo",
			"ExecuteUnLoadDumpInfo"}},
	{rule: diag.NotRecordErrorText, phrases: []string{"Possible Cause: ", "Solution: "}},
	// The runtime's reason line repeats the failure of the line before it
	// ("rtMallocPhysical execute failed, reason=[driver error:out of
	// memory]"), which the memory errors read.
	{rule: diag.NotRecordFailure, level: "ERROR", modules: []string{"RUNTIME"}, funcs: []string{"FuncErrorReason"}},
	{rule: diag.NotRecordFailure, level: "ERROR", unless: outOfMemory},
	{rule: diag.NotRecordAICPU, modules: []string{"AICPU", "CCECPU"}},
	{rule: diag.NotRecordOpCompiler, modules: []string{"FE", "TEFUSION"}},
	{rule: diag.NotRecordFramework, modules: []string{"FMK"}},
	{rule: diag.NotRecordDriver, modules: []string{"DRV", "KERNEL"}},
	{rule: diag.NotRecordTransport, modules: []string{"TDT", "HCCL"}},
}

// NotRecordRule names the rule (a row of class diag.NotRecord) that
// explains a line which mentions memory but is not a candidate line, or ""
// when no rule does. The accounting over real logs asks it of every such
// line; the scan never does, so these forms cost the candidate scan
// nothing.
func NotRecordRule(line []byte) string {
	var env plog.Envelope
	plog.ParseAny(line, &env)
	msg := env.Msg
	if len(msg) == 0 {
		msg = line
	}
	for i := range notRecordForms {
		f := &notRecordForms[i]
		if f.level != "" && string(env.Level) != f.level {
			continue
		}
		if len(f.modules) > 0 && !oneOf(env.Module, f.modules) {
			continue
		}
		if len(f.unless) > 0 && holdsOne(line, f.unless) {
			continue
		}
		if len(f.funcs) == 0 && len(f.phrases) == 0 {
			return f.rule
		}
		if len(f.funcs) > 0 && oneOf(env.Func, f.funcs) {
			if len(f.phrases) == 0 || holdsOne(msg, f.phrases) {
				return f.rule
			}
			continue
		}
		if len(f.funcs) == 0 && holdsOne(line, f.phrases) {
			return f.rule
		}
	}
	return ""
}

func oneOf(b []byte, set []string) bool {
	for _, s := range set {
		if string(b) == s {
			return true
		}
	}
	return false
}

func holdsOne(b []byte, phrases []string) bool {
	for _, p := range phrases {
		if bytes.Contains(b, []byte(p)) {
			return true
		}
	}
	return false
}
