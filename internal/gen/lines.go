package gen

import (
	"fmt"
	"strconv"
	"strings"
)

// Message templates of the static-graph statements, per generation
// (docs/log-formats.md#set-rows). Each function returns the message that follows
// "<Function>:" in the envelope.

func joinDesc(vals []int64, sep string) string {
	s := make([]string, len(vals))
	for i, v := range vals {
		s[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(s, sep)
}

func streamDesc(t *tensor) string {
	if len(t.sdesc) == 2 {
		return fmt.Sprintf("%d--%d", t.sdesc[0], t.sdesc[1])
	}
	return strconv.Itoa(t.stream)
}

func child(t *tensor) string {
	return fmt.Sprintf("child[0:%d:%d:%d:%d]", t.reuse, t.cont(), t.zc, t.same)
}

// setMsg is the [IMAS]Set line of a row.
func setMsg(gen Generation, g *graph, t *tensor) string {
	switch gen {
	case Gen2020:
		// 2020-12 template: no optype, no memtype; plain lifetimes.
		return fmt.Sprintf("[IMAS]Set %s name[%s] %s[%d] offset to [%d] streamid[%d] size[%d] realsize[%d] noalignsize[%d] life time begin[%d] life time end[%d] %s isref[%d] batch[]",
			g.name, t.node, t.kind, t.index, t.offset(), t.stream, t.size(), t.real, t.noalign, t.begin(), t.end(), child(t), t.isref)
	case Gen2021:
		// 2021-05..2023-03: optype, memtype, "b-id" begin, single end, scope.
		return fmt.Sprintf("[IMAS]Set %s name[%s] optype[%s] %s[%d] offset to [%d] streamid[%d] memtype[%d] size[%d] realsize[%d] noalignsize[%d] life time begin[%s] life time end[%d] %s isref[%d] batch[] scope[-1]",
			g.name, t.node, t.optype, t.kind, t.index, t.offset(), t.stream, t.mem, t.size(), t.real, t.noalign, joinDesc(t.begins, "-"), t.end(), child(t), t.isref)
	default:
		return fmt.Sprintf("[IMAS]Set %s name[%s] optype[%s] %s[%d] offset to [%d] streamid[%s] memtype[%d] size[%d] realsize[%d] noalignsize[%d] life time begin[%s] life time end[%s] %s isref[%d] batch[], block_type[%s]",
			g.name, t.node, t.optype, t.kind, t.index, t.offset(), streamDesc(t), t.mem, t.size(), t.real, t.noalign, joinDesc(t.begins, "--"), joinDesc(t.ends, "--"), child(t), t.isref, t.btype)
	}
}

// contMsg is the Continuous input line of a continuous-segment member.
func contMsg(gen Generation, g *graph, s *segment, t *tensor) (file string, line int, fn, msg string) {
	switch gen {
	case Gen2020:
		return "graph_mem_assigner.cc", 562, "AssignContinuousInputMemory",
			fmt.Sprintf("[IMAS]Continuous input : Set %s name[%s] output[%d] offset to [%d] stream_id[%d] size[%d] real_size[%d].",
				g.name, t.node, t.index, t.contOff, t.stream, align512(t.real), t.real)
	case Gen2021:
		return "graph_mem_assigner.cc", 1255, "AssignContinuousInputMemory",
			fmt.Sprintf("[IMAS]Continuous input : Set %s name[%s] optype[%s] output[%d] offset to [%d] stream_id[%d] memtype[%d] size[0] realsize[%d] nopadding size[0]",
				g.name, t.node, t.optype, t.index, t.contOff, t.stream, t.mem, t.real)
	}
	if s.style == 1 {
		return "block_mem_assigner.cc", 3034, "SetOffsetForContinuousMem",
			fmt.Sprintf("[ContinuousMem][IMAS]Continuous input : Set %s name[%s] optype[%s] output[%d] offset to [%d] stream_id[%d] memtype[%d] size[0] realsize[%d] nopadding[0], block_type[]",
				g.name, t.node, t.optype, t.index, t.contOff, t.stream, t.mem, align512(t.real))
	}
	return "graph_mem_assigner.cc", 1255, "AssignContinuousInputMemory",
		fmt.Sprintf("[IMAS]Continuous input : Set %s name[%s] optype[%s] output[%d] offset to [%d] stream_id[%d] memtype[%d] size[0] realsize[%d] nopadding[0]",
			g.name, t.node, t.optype, t.index, t.contOff, t.stream, t.mem, t.real)
}

// atomicMsg is the line of one atomic piece.
func atomicMsg(gen Generation, g *graph, a *atomicPiece) (file string, line int, fn, msg string) {
	switch gen {
	case Gen2020:
		switch a.kind {
		case atomOutput:
			return "graph_mem_assigner.cc", 1115, "AssignAtomicOutputMemory",
				fmt.Sprintf("[IMAS]Atomic output : Set %s name[%s] output[%d] offset to [%d] stream_id[%d] size[%d] real_size[%d].", g.name, a.node, a.index, a.start, a.stream, a.real, a.real)
		case atomOrdinaryWS:
			return "graph_mem_assigner.cc", 1190, "AssignOrdinaryAtomicWorkspaceMemory",
				fmt.Sprintf("[IMAS]Atomic ordinary workspace : Set %s name[%s] workspace[%d] offset to [%d] stream_id[%d] size[%d] real_size[%d].", g.name, a.node, a.index, a.start, a.stream, a.real, a.real)
		default:
			return "graph_mem_assigner.cc", 1236, "AssignFusionAtomicWorkspaceMemory",
				fmt.Sprintf("[IMAS]Atomic fusion workspace : Set %s name[%s] workspace[%d] offset to [%d] stream_id[%d] size[%d] real_size[%d].", g.name, a.node, a.index, a.start, a.stream, a.real, a.real)
		}
	case Gen2021:
		switch a.kind {
		case atomOutput:
			return "atomic_memory_assigner.cc", 789, "AssignAtomicOutputMemory",
				fmt.Sprintf("[IMAS]Atomic output : Set %s name[%s] optype[%s] output[%d] offset to [%d] stream_id[%d] memtype[2] size[%d] real_size[%d] batch[].", g.name, a.node, a.optype, a.index, a.start, a.stream, a.real, a.real)
		case atomOrdinaryWS:
			return "atomic_memory_assigner.cc", 854, "AssignOrdinaryAtomicWorkspaceMemory",
				fmt.Sprintf("[IMAS]Atomic ordinary workspace : Set %s name[%s] optype[%s] workspace[%d] offset to [%d] stream_id[%d] memtype[2] size[%d] real_size[%d] batch[].", g.name, a.node, a.optype, a.index, a.start, a.stream, a.real, a.real)
		default:
			return "atomic_memory_assigner.cc", 900, "AssignFusionAtomicWorkspaceMemory",
				fmt.Sprintf("[IMAS]Atomic fusion workspace : Set %s name[%s] optype[%s] workspace[%d] offset to [%d] stream_id[%d] memtype[2] ssize[%d] real_size[%d] batch[].", g.name, a.node, a.optype, a.index, a.start, a.stream, a.real, a.real)
		}
	}
	switch a.kind {
	case atomOutput:
		return "atomic_memory_assigner.cc", 789, "AssignAtomicOutputMemory",
			fmt.Sprintf("[IMAS]Atomic output : Set %s name[%s] optype[%s] output[%d] offset to [%d] stream_id[%d] memtype[2] size[%d] real_size[%d] batch[].", g.name, a.node, a.optype, a.index, a.start, a.stream, a.size, a.real)
	case atomOrdinaryWS:
		// HEAD prints the offset after the increment.
		return "atomic_memory_assigner.cc", 854, "AssignOrdinaryAtomicWorkspaceMemory",
			fmt.Sprintf("[IMAS]Atomic ordinary workspace : Set %s name[%s] optype[%s] workspace[%d] offset to [%d] stream_id[%d] memtype[2] size[%d] real_size[%d] batch[].", g.name, a.node, a.optype, a.index, a.start+a.size, a.stream, a.size, a.real)
	default:
		return "atomic_memory_assigner.cc", 900, "AssignFusionAtomicWorkspaceMemory",
			fmt.Sprintf("[AtomicClean][IMAS]Atomic fusion workspace : Set %s name[%s] optype[%s] workspace[%d] offset to [%d] stream_id[%d] memtype[2] ssize[%d] real_size[%d] batch[].", g.name, a.node, a.optype, a.index, a.start, a.stream, a.real, a.real)
	}
}

// memsetMsg lists all atomic pieces on the MemSet / AtomicAddrClean node
// (it repeats memory already counted: never add it again).
func memsetMsg(gen Generation, g *graph) (file string, line int, fn, msg string) {
	var offs, sizes strings.Builder
	for _, a := range g.atomics {
		fmt.Fprintf(&offs, "%d ", a.start)
		fmt.Fprintf(&sizes, "%d ", a.size)
	}
	switch gen {
	case Gen2020:
		return "graph_mem_assigner.cc", 1398, "SetAtomicCleanAttr",
			fmt.Sprintf("[IMAS]SetAtomicCleanAttr : Set graph[%s] atomic_node[atomic_addr_clean_0] output offset [%s] size[%s] streamid[0]", g.name, offs.String(), sizes.String())
	case Gen2021:
		return "graph_mem_assigner.cc", 1561, "SetAtomicCleanAttr",
			fmt.Sprintf("[IMAS]SetAtomicCleanAttr : Set %s atomic_node name[atomic_addr_clean_0] optype[AtomicAddrClean] output[0] offset to [%s] streamid[0] memtype[2] size[%s]", g.name, offs.String(), sizes.String())
	}
	return "atomic_memory_assigner.cc", 1094, "AppendAttrsToMemSetOp",
		fmt.Sprintf("[AtomicClean][IMAS]AppendAttrsToMemSetOp : Set %s atomic_node name[atomic_memset0_01] optype[MemSet] workspace[0] offset to [%s] streamid[0] size[%s]", g.name, offs.String(), sizes.String())
}

// afterMsg is the AfterAssignMemory summary of one memory type.
func afterMsg(gen Generation, g *graph, mem int, f figs) (file string, line int, fn, msg string) {
	switch gen {
	case Gen2020:
		return "graph_mem_assigner.cc", 1402, "SetInputOffset",
			fmt.Sprintf("[IMAS]AfterAssignMemory : %s memoffset[%d]", g.name, g.memoffset[mem])
	case Gen2021:
		return "graph_mem_assigner.cc", 1446, "SetInputOffset",
			fmt.Sprintf("[IMAS]AfterAssignMemory : %s memoffset[%d], memtype[%d]", g.name, g.memoffset[mem], mem)
	}
	return "graph_mem_assigner.cc", 1664, "SetInputOffset",
		fmt.Sprintf("[IMAS]AfterAssignMemory : %s memoffset[%d], memtype[%d], theory_min[%d], zero_copy[%d], total_size[%d], no_reuse[%d], streams[%d], topo_mode[%s], mop[%s], io_reuse[0:0], alloc_mode[], smp[0]",
			g.name, g.memoffset[mem], mem, f.theoryMin, f.zeroCopy, f.geTotal, f.noReuse, f.streams, g.topo, g.mop)
}

// addrMsg is the load-time operator address line of a row.
func addrMsg(gen Generation, gid int, t *tensor, off int64, addr uint64) (file string, line int, fn, msg string) {
	if gen == Gen2021 || gen == Gen2020 {
		if t.kind == "workspace" {
			return "model_utils.cc", 560, "GetWorkspaceDataAddrs",
				fmt.Sprintf("[IMAS]GetWorkspaceDataAddrs graph_%d type[F] name[%s] workspace[%d] offset[%d] bytes[%d] memaddr[0x%x]", gid, t.node, t.index, off, t.real, addr)
		}
		return "model_utils.cc", 507, "GetOutputDataAddrs",
			fmt.Sprintf("[IMAS]GetOutputDataAddrs graph_%d type[F] name[%s] output[%d] memaddr[0x%x]", gid, t.node, t.index, addr)
	}
	if t.kind == "workspace" {
		return "model_utils.cc", 1070, "GetWorkspaceDataAddrs",
			fmt.Sprintf("[IMAS]graph_%d type[F] name[%s] workspace[%d] offset[%d] size[%d] memaddr[0x%x]", gid, t.node, t.index, off, t.real, addr)
	}
	return "model_utils.cc", 875, "GetOutputDataAddrs",
		fmt.Sprintf("[IMAS]graph_%d type[F] name[%s] output[%d] offset[%d] size[%d] memaddr[0x%x]", gid, t.node, t.index, off, t.real, addr)
}
