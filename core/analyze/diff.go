package analyze

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"imas/core/model"
)

// Run is what comparing runs needs of one analysis: each graph's figures
// and counted tensors. It comes from a fresh report (RunOf) or from a saved
// report.json (package reportjson), so runs of different days compare.
type Run struct {
	Name   string      `json:"name"`
	Graphs []*RunGraph `json:"graphs"`
}

// RunGraph is one graph and memory type of a run.
type RunGraph struct {
	PID       string        `json:"pid"`
	Graph     string        `json:"graph"`
	MemType   int64         `json:"memtype"`
	Figures   model.Figures `json:"figures"`
	Policy    string        `json:"policy"` // GE's mop[...] as logged ("" = default)
	Conflicts int           `json:"conflicts"`
	Tensors   []RunTensor   `json:"-"`
}

// RunTensor is one counted tensor.
type RunTensor struct {
	Key      string `json:"key"`
	OpType   string `json:"optype"`
	Size     int64  `json:"size"`
	RealSize int64  `json:"realsize"`
}

// RunOf summarises a report that holds its rows for Diff and Compare
// (RunWithRows reads them from the report's store).
func RunOf(name string, rep *model.Report) *Run {
	run, _ := runOf(name, rep, func(g *model.Graph) (*model.Graph, error) { return g, nil })
	return run
}

// RunWithRows is RunOf for a report whose rows may be in a store
// (model.Report.Spilled), read back one graph at a time.
func RunWithRows(name string, rep *model.Report) (*Run, error) {
	return runOf(name, rep, rep.WithRows)
}

func runOf(name string, rep *model.Report, withRows func(*model.Graph) (*model.Graph, error)) (*Run, error) {
	run := &Run{Name: name, Graphs: make([]*RunGraph, 0, len(rep.Graphs))}
	for _, g := range rep.Graphs {
		rg := &RunGraph{PID: g.PID, Graph: g.Graph, MemType: g.MemType, Figures: g.Figures, Conflicts: len(g.Conflicts)}
		rg.Policy, _ = g.Logged.Get("mop")
		full, err := withRows(g)
		if err != nil {
			return nil, err
		}
		for i := range full.Rows {
			if r := &full.Rows[i]; r.Counted {
				rg.Tensors = append(rg.Tensors, RunTensor{Key: r.Key(), OpType: r.OpType, Size: r.Size, RealSize: r.RealSize})
			}
		}
		run.Graphs = append(run.Graphs, rg)
	}
	return run, nil
}

// DiffResult compares two runs graph by graph.
type DiffResult struct {
	Old     string       `json:"old"`
	New     string       `json:"new"`
	Totals  []Delta      `json:"totals"` // figures summed over all graphs
	Graphs  []*GraphDiff `json:"graphs"`
	OnlyOld []GraphRef   `json:"only_old"`
	OnlyNew []GraphRef   `json:"only_new"`
}

// GraphRef names a graph of one run.
type GraphRef struct {
	PID     string `json:"pid"`
	Graph   string `json:"graph"`
	MemType int64  `json:"memtype"`
}

// GraphDiff is one matched graph: figure deltas and tensor changes.
type GraphDiff struct {
	Old     GraphRef `json:"old"`
	New     GraphRef `json:"new"`
	MatchBy string   `json:"match_by"` // "name" or "base name"
	Figures []Delta  `json:"figures"`
	TopoOld string   `json:"topo_old"`
	TopoNew string   `json:"topo_new"`
	// Tensor changes by key; each list keeps the MaxChanges largest, the
	// counts and byte sums cover them all.
	Added   []TensorChange `json:"added"`
	Removed []TensorChange `json:"removed"`
	Resized []TensorChange `json:"resized"`
	Counts  ChangeCounts   `json:"counts"`
	Movers  []TensorChange `json:"movers"` // the largest |delta| of all three
}

// Delta is one figure in both runs. Rates are percentages; bytes and
// counts are exact in float64 (below 2^53).
type Delta struct {
	Name  string  `json:"name"`
	Old   float64 `json:"old"`
	New   float64 `json:"new"`
	Delta float64 `json:"delta"`
}

// TensorChange is a tensor added, removed or resized; sizes are 0 on the
// side where the tensor is missing, Delta = new realsize − old realsize.
type TensorChange struct {
	Key     string `json:"key"`
	OpType  string `json:"optype"`
	Change  string `json:"change"` // added, removed, resized
	OldSize int64  `json:"old_size"`
	NewSize int64  `json:"new_size"`
	OldReal int64  `json:"old_realsize"`
	NewReal int64  `json:"new_realsize"`
	Delta   int64  `json:"delta"`
}

// ChangeCounts counts tensor changes and sums their realsize deltas.
type ChangeCounts struct {
	Added        int   `json:"added"`
	Removed      int   `json:"removed"`
	Resized      int   `json:"resized"`
	AddedBytes   int64 `json:"added_bytes"`
	RemovedBytes int64 `json:"removed_bytes"`
	ResizedBytes int64 `json:"resized_bytes"`
}

// MaxChanges and MaxMovers cap the tensor lists of a GraphDiff.
const (
	MaxChanges = 100
	MaxMovers  = 10
)

// figureList is every figure of a graph, in report order.
func figureList(f *model.Figures, conflicts int) []Delta {
	return []Delta{
		{Name: "memory_size", Old: float64(f.MemorySize)},
		{Name: "after_reuse", Old: float64(f.AfterReuse)},
		{Name: "total", Old: float64(f.Total)},
		{Name: "ge_total", Old: float64(f.GETotal)},
		{Name: "theory_min", Old: float64(f.TheoryMin)},
		{Name: "no_reuse", Old: float64(f.NoReuse)},
		{Name: "atomic", Old: float64(f.Atomic)},
		{Name: "zero_copy", Old: float64(f.ZeroCopy)},
		{Name: "continuous", Old: float64(f.Continuous)},
		{Name: "streams", Old: float64(f.Streams)},
		{Name: "tensors", Old: float64(f.Tensors)},
		{Name: "reuse_rate", Old: f.ReuseRate},
		{Name: "reach_theory_rate", Old: f.ReachTheoryRate},
		{Name: "conflicts", Old: float64(conflicts)},
	}
}

// RateFigure reports whether a figure is a percentage.
func RateFigure(name string) bool { return strings.HasSuffix(name, "_rate") }

func deltas(old, new *model.Figures, oldC, newC int) []Delta {
	d := figureList(old, oldC)
	for i, n := range figureList(new, newC) {
		d[i].New = n.Old
		d[i].Delta = n.Old - d[i].Old
		if RateFigure(d[i].Name) {
			d[i].Delta = Round2(d[i].Delta)
		}
	}
	return d
}

// Diff compares two runs. Graphs are matched by name and memory type (the
// pid differs between runs): first by the name as printed, then by the
// base name — without GE's "_<graph id>" suffix and imas's "#n"
// recompilation suffix — and within each name in order of appearance.
// Rates in Totals are recomputed from the summed figures.
func Diff(old, new *Run) *DiffResult {
	d := &DiffResult{Old: old.Name, New: new.Name, Graphs: []*GraphDiff{}, OnlyOld: []GraphRef{}, OnlyNew: []GraphRef{}}
	used := make([]bool, len(new.Graphs))
	diffs := make([]*GraphDiff, len(old.Graphs)) // by old graph
	for _, by := range []struct {
		name string
		key  func(*RunGraph) string
	}{{"name", func(g *RunGraph) string { return g.Graph }}, {"base name", func(g *RunGraph) string { return BaseName(g.Graph) }}} {
		queue := map[graphKey][]int{} // unmatched new graphs by key, in order
		for j, g := range new.Graphs {
			if !used[j] {
				k := graphKey{by.key(g), g.MemType}
				queue[k] = append(queue[k], j)
			}
		}
		for i, g := range old.Graphs {
			k := graphKey{by.key(g), g.MemType}
			if diffs[i] != nil || len(queue[k]) == 0 {
				continue
			}
			j := queue[k][0]
			queue[k] = queue[k][1:]
			used[j] = true
			diffs[i] = diffGraph(g, new.Graphs[j], by.name)
		}
	}
	for i, g := range old.Graphs {
		if diffs[i] != nil {
			d.Graphs = append(d.Graphs, diffs[i])
		} else {
			d.OnlyOld = append(d.OnlyOld, ref(g))
		}
	}
	for j, g := range new.Graphs {
		if !used[j] {
			d.OnlyNew = append(d.OnlyNew, ref(g))
		}
	}
	ot, nt := SumRun(old), SumRun(new)
	d.Totals = deltas(&ot.Figures, &nt.Figures, ot.Conflicts, nt.Conflicts)
	return d
}

type graphKey struct {
	name    string
	memtype int64
}

func ref(g *RunGraph) GraphRef { return GraphRef{g.PID, g.Graph, g.MemType} }

var idSuffix = regexp.MustCompile(`(_\d+)?(#\d+)?$`)

// BaseName strips GE's "_<graph id>" and imas's "#n" from a graph name:
// "allreduce_graph_0#2" → "allreduce_graph".
func BaseName(graph string) string {
	if b := idSuffix.ReplaceAllString(graph, ""); b != "" {
		return b
	}
	return graph
}

func diffGraph(old, new *RunGraph, by string) *GraphDiff {
	gd := &GraphDiff{Old: ref(old), New: ref(new), MatchBy: by,
		Figures: deltas(&old.Figures, &new.Figures, old.Conflicts, new.Conflicts),
		TopoOld: old.Figures.Topo, TopoNew: new.Figures.Topo,
		Added: []TensorChange{}, Removed: []TensorChange{}, Resized: []TensorChange{}, Movers: []TensorChange{}}
	before := make(map[string]*RunTensor, len(old.Tensors))
	for i := range old.Tensors {
		before[old.Tensors[i].Key] = &old.Tensors[i]
	}
	var all []TensorChange
	for i := range new.Tensors {
		n := &new.Tensors[i]
		o := before[n.Key]
		switch {
		case o == nil:
			all = append(all, TensorChange{Key: n.Key, OpType: n.OpType, Change: "added", NewSize: n.Size, NewReal: n.RealSize, Delta: n.RealSize})
		case o.RealSize != n.RealSize || o.Size != n.Size:
			all = append(all, TensorChange{Key: n.Key, OpType: n.OpType, Change: "resized", OldSize: o.Size, NewSize: n.Size,
				OldReal: o.RealSize, NewReal: n.RealSize, Delta: n.RealSize - o.RealSize})
		}
		delete(before, n.Key)
	}
	for i := range old.Tensors {
		if o := &old.Tensors[i]; before[o.Key] != nil {
			all = append(all, TensorChange{Key: o.Key, OpType: o.OpType, Change: "removed", OldSize: o.Size, OldReal: o.RealSize, Delta: -o.RealSize})
		}
	}
	// Largest change first; the key makes the order total.
	slices.SortFunc(all, func(a, b TensorChange) int {
		return cmp.Or(cmp.Compare(abs(b.Delta), abs(a.Delta)), cmp.Compare(a.Key, b.Key))
	})
	for _, c := range all {
		list, n, sum := &gd.Resized, &gd.Counts.Resized, &gd.Counts.ResizedBytes
		switch c.Change {
		case "added":
			list, n, sum = &gd.Added, &gd.Counts.Added, &gd.Counts.AddedBytes
		case "removed":
			list, n, sum = &gd.Removed, &gd.Counts.Removed, &gd.Counts.RemovedBytes
		}
		*n++
		*sum += c.Delta
		if len(*list) < MaxChanges {
			*list = append(*list, c)
		}
	}
	gd.Movers = all[:min(len(all), MaxMovers)]
	return gd
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// SumRun adds up a run the way the GE memory-tuning script does: sizes
// summed over graphs and memory types, streams the largest, rates
// recomputed from the sums, topo and policy joined when graphs differ.
func SumRun(run *Run) *RunGraph {
	s := &RunGraph{Graph: run.Name}
	f := &s.Figures
	var topos, policies []string
	for _, g := range run.Graphs {
		h := &g.Figures
		f.MemorySize += h.MemorySize
		f.AfterReuse += h.AfterReuse
		f.Total += h.Total
		f.GETotal += h.GETotal
		f.TheoryMin += h.TheoryMin
		f.NoReuse += h.NoReuse
		f.Atomic += h.Atomic
		f.ZeroCopy += h.ZeroCopy
		f.Continuous += h.Continuous
		f.Streams = max(f.Streams, h.Streams)
		f.Tensors += h.Tensors
		s.Conflicts += g.Conflicts
		if h.Topo != "" && !slices.Contains(topos, h.Topo) {
			topos = append(topos, h.Topo)
		}
		if p := policyName(g.Policy); !slices.Contains(policies, p) {
			policies = append(policies, p)
		}
	}
	f.Topo = strings.Join(topos, "/")
	s.Policy = strings.Join(policies, "/")
	if f.Total > 0 {
		f.ReuseRate = Round2(max(0, float64(f.Total-f.AfterReuse)/float64(f.Total)*100))
	}
	if f.AfterReuse > 0 {
		f.ReachTheoryRate = Round2(min(100, float64(f.TheoryMin)/float64(f.AfterReuse)*100))
	}
	return s
}

func policyName(mop string) string {
	if mop == "" {
		return "default"
	}
	return mop
}
