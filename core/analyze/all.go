package analyze

import (
	"runtime"
	"sync"
	"sync/atomic"

	"imas/core/model"
)

// All runs every analysis on a freshly built report. Graphs are analysed in
// parallel: each analysis writes only its own graph and reads its siblings'
// rows, and diagnostics are added in graph order, so the result does not
// depend on scheduling.
func All(rep *model.Report) { run(rep, true, nil, false) }

// Summary runs what a summary ("imas total") shows: the figures, the reuse
// conflicts and the run-time figures, without the waste and peak breakdowns
// and the address checks (about a tenth of the time of a big analysis).
func Summary(rep *model.Report) { run(rep, false, nil, false) }

// run analyses rep. Graphs early analysed already (nil: none) keep their
// figures and analyses. With walkDone, the graphs a figures-only build
// finished are in rep as done (model.Report.WalkGraphs): their figure
// diagnostics take their place in graph order among those of the others.
func run(rep *model.Report, detail bool, early *Early, walkDone bool) {
	type inst struct{ pid, graph string }
	byInst := map[inst][]*model.Graph{}
	for _, g := range rep.Graphs {
		k := inst{g.PID, g.Graph}
		byInst[k] = append(byInst[k], g)
	}
	siblings := func(g *model.Graph) []*model.Graph {
		var sib []*model.Graph
		for _, o := range byInst[inst{g.PID, g.Graph}] {
			if o != g {
				sib = append(sib, o)
			}
		}
		return sib
	}
	diags := make([][]model.Diagnostic, len(rep.Graphs))
	type peak struct{ bytes, step int64 }
	peaks := make([]peak, len(rep.Graphs))
	forEach(len(rep.Graphs), func(i int) {
		g := rep.Graphs[i]
		if d, ok := early.finished(g); ok {
			diags[i] = d
			return
		}
		p := &peaks[i]
		p.bytes, p.step = PeakStep(g.Rows)
		diags[i] = figures(g, p.bytes, siblings(g))
	})
	if walkDone {
		open := 0
		rep.WalkGraphs(func(g *model.Graph, done model.DoneRef) bool {
			var ds []model.Diagnostic
			if g == nil {
				ds = done.Diagnostics()
			} else {
				ds = diags[open]
				open++
			}
			for _, d := range ds {
				addDiag(rep, d)
			}
			return true
		})
	} else {
		for _, ds := range diags {
			for _, d := range ds {
				addDiag(rep, d)
			}
		}
	}
	// The runtime analyses read graphs' rows only; they run as one more
	// item, first since they are the biggest.
	forEach(len(rep.Graphs)+1, func(i int) {
		if i == 0 {
			runtimeAnalyses(rep, detail)
			return
		}
		i--
		g := rep.Graphs[i]
		if _, ok := early.finished(g); ok {
			return
		}
		analyzeGraph(g, detail, peaks[i].bytes, peaks[i].step, siblings)
	})
}

// analyzeGraph runs a graph's own analyses after its figures: the reuse
// conflicts, and with detail every analysis All adds (waste, peak, live
// curve). peak and step are its peak (PeakStep); siblings gives the
// graphs of its other memory types.
func analyzeGraph(g *model.Graph, detail bool, peak, step int64, siblings func(*model.Graph) []*model.Graph) {
	if !detail {
		g.Conflicts = Conflicts(g)
		return
	}
	var sib []*model.Graph
	if g.MemType == 2 {
		// The graph's other memory types lay out their zero-copy blocks
		// in the HBM area.
		sib = siblings(g)
	}
	graphAnalyses(g, peak, step, sib)
}

// forEach calls f(0..n-1) on up to GOMAXPROCS goroutines; items are handed
// out one at a time, since graph sizes vary by orders of magnitude.
func forEach(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// addDiag appends a diagnostic and counts it.
func addDiag(rep *model.Report, d model.Diagnostic) {
	rep.Diagnostics = append(rep.Diagnostics, d)
	if rep.DiagSummary == nil {
		rep.DiagSummary = map[string]int64{}
	}
	rep.DiagSummary[d.Reason]++
}
