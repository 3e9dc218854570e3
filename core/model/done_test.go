package model

import (
	"fmt"
	"testing"

	"imas/core/diag"
	"imas/core/gelog"
	"imas/core/plog"
)

// summaryLine is a graph's AfterAssignMemory line at sec seconds (and us
// µs) after 10:00, on the [EVENT] channel or the plain one.
func summaryLine(graph string, sec, us int, event bool) string {
	ch := ""
	if event {
		ch = "[EVENT]"
	}
	return fmt.Sprintf("[INFO] GE(4711,python3):2026-04-18-%02d:%02d:%02d.%03d.%03d [graph_mem_assigner.cc:1664]%s4712 SetInputOffset:[IMAS]AfterAssignMemory : %s memoffset[2048], memtype[2], theory_min[2048], zero_copy[0], total_size[2048], no_reuse[0], streams[1], topo_mode[RDFS], mop[], io_reuse[0:0], alloc_mode[], smp[0]",
		10+sec/3600, sec/60%60, sec%60, us/1000, us%1000, ch, graph)
}

func feedLine(b *Builder, line string, n int64) {
	var env plog.Envelope
	ok := plog.Parse([]byte(line), &env)
	b.Add(gelog.Parse(&env, ok, []byte(line), gelog.Meta{File: 0, Line: n}))
}

// TestFiguresOnlyKeepsRecentEvents: a figures-only build keeps the
// run-log/debug-log duplicate index of the last minutes only, still finds
// every copy within DupEventWindow, and reports a statement that comes too
// far behind to be checked (diag.DuplicateUnchecked).
func TestFiguresOnlyKeepsRecentEvents(t *testing.T) {
	const graphs = 10000 // one a second: 2.8 hours
	for _, figuresOnly := range []bool{false, true} {
		b := NewBuilder([]string{"a.log"})
		b.SummaryOnly = true
		if figuresOnly {
			b.OnFinished = func(gs []*Graph) [][]Diagnostic { return nil }
		}
		n := int64(0)
		for i := range graphs {
			g := fmt.Sprintf("g%d", i)
			n++
			feedLine(b, summaryLine(g, i, 0, true), n)
			n++
			feedLine(b, summaryLine(g, i, 500, false), n) // its copy, 0.5 ms later
		}
		if got := b.R.DiagSummary[diag.DuplicateEvent]; got != graphs {
			t.Errorf("figures-only %v: %d copies found, want %d", figuresOnly, got, graphs)
		}
		// A copy of the first summary, after two hours of others.
		n++
		feedLine(b, summaryLine("g0", 0, 700, false), n)
		unchecked := b.R.DiagSummary[diag.DuplicateUnchecked]
		switch {
		case figuresOnly && (len(b.events) > 1<<12 || unchecked != 1):
			t.Errorf("figures-only: %d statements kept for %d graphs, %d unchecked (want 1)", len(b.events), graphs, unchecked)
		case !figuresOnly && (len(b.events) != graphs || unchecked != 0 || b.R.DiagSummary[diag.DuplicateEvent] != graphs+1):
			t.Errorf("full: %d statements kept for %d graphs, %d unchecked, %d copies", len(b.events), graphs, unchecked, b.R.DiagSummary[diag.DuplicateEvent])
		}
	}
}
