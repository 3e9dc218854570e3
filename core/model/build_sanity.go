package model

import (
	"fmt"
	"sort"
	"strings"

	"imas/core/diag"
)

// finishSanity says which statement families were found, so that users
// know what the report can and cannot say: which conclusions the logs
// support has to be settled before any analysis is read.
func (b *Builder) finishSanity() {
	o := b.o()
	r := b.R
	fam := map[string]int64{}
	for k, v := range o.families {
		fam[k] = v
	}
	rows, cont, atomic := b.droppedRows, b.droppedCont, b.droppedAtomic
	var summaries int64
	for _, g := range r.Graphs {
		rows += int64(len(g.Rows))
		cont += int64(len(g.Reassign))
		atomic += int64(len(g.AtomicPieces))
		if g.HasSummary {
			summaries++
		}
	}
	for k, v := range map[string]int64{"static-rows": rows, "graph-summaries": summaries, "continuous": cont, "atomic": atomic} {
		if v > 0 {
			fam[k] = v
		}
	}
	s := &Sanity{Families: fam, Notes: []string{}, Truncated: r.DiagSummary[diag.Truncated]}
	var cpu int64
	for _, n := range o.cpuMallocs {
		cpu += n
	}
	s.InfoLevel = o.infoLines > cpu || rows+cont+atomic > 0
	s.RunLog = fam["devmm"] > 0
	for _, p := range b.paths {
		if strings.Contains(p, "/run/") {
			s.RunLog = true
		}
	}
	note := func(format string, a ...any) { s.Notes = append(s.Notes, fmt.Sprintf(format, a...)) }
	switch {
	case s.InfoLevel:
		note("INFO-level GE statements found (debug plog with INFO enabled).")
	case summaries > 0:
		note("Only EVENT lines found ([IMAS]AfterAssignMemory summaries): run plogs, or INFO was off. Per-tensor rows, addresses, device mallocs and pools need the debug plog with ASCEND_GLOBAL_LOG_LEVEL=1.")
	case cpu > 0:
		note("Only CPU-side allocations found: %s \"MallocMemory, func=new/malloc\" lines (the CPU memory of the process that printed them, e.g. the AICPU scheduler's on the device; not device memory). Static rows, addresses, device mallocs and pools need GE's debug plog with ASCEND_GLOBAL_LOG_LEVEL=1.", bySource(o.cpuMallocs))
	default:
		note("No INFO-level GE statement found: static rows, addresses, device mallocs and pools need the debug plog with ASCEND_GLOBAL_LOG_LEVEL=1.")
	}
	switch {
	case fam["devmm"] > 0:
		note("devmm statistics found (run plog).")
	case s.RunLog:
		note("Run plog given but no devmm statistics (_svm_mem_stats_show): the process probably did not exit normally.")
	default:
		note("No devmm statistics (_svm_mem_stats_show): pass the run plog (log/run/plog) of a process that exited normally to see memory per component.")
	}
	if s.InfoLevel && rows+summaries > 0 && fam["device-malloc"] == 0 {
		note("No \"MallocMemory, func=\" lines: the device-malloc categories are empty (the model load was not logged at INFO level, or the files are incomplete).")
	}
	if fam["pool-allocators"] > 0 && fam["kernel-trace-alloc"] == 0 {
		note("RT2 allocators were created but no [KernelTrace] memory lines were found: GE INFO was off while the model ran.")
	}
	if n := o.cutAtLimit; n > 0 {
		note("%d candidate lines were cut by the logger's 1024-character limit before a needed field and are not used (see diagnostics).", n)
	}
	if n := s.Truncated - o.cutAtLimit; n > 0 {
		note("%d candidate lines stop before a needed field, short of the logger's limit (a file ending mid-line, or text cut when copied), and are not used (see diagnostics).", n)
	}
	r.Sanity = s
}

// bySource renders counts by log module, e.g. "124 CCECPU (AICPU)".
func bySource(n map[string]int64) string {
	names := make([]string, 0, len(n))
	for k := range n {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, k := range names {
		label := k
		if k == "CCECPU" {
			label += " (AICPU)"
		}
		parts = append(parts, fmt.Sprintf("%d %s", n[k], label))
	}
	return strings.Join(parts, ", ")
}
