package analyze

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Comparison ranks several runs, e.g. a memory-tuning sweep over topo
// sorting modes and memory policies (docs/analyses.md, "4. Run comparison").
type Comparison struct {
	Runs []Ranked `json:"runs"`
	// Options are the GE options that select the best run's settings,
	// as far as its logs tell them (empty when they do not).
	Options []string `json:"options"`
}

// Ranked is one run's sums: sizes over all its graphs and memory types,
// streams the largest.
type Ranked struct {
	Rank       int    `json:"rank"`
	Run        string `json:"run"`
	Graphs     int    `json:"graphs"`
	Total      int64  `json:"total"`
	AfterReuse int64  `json:"after_reuse"`
	TheoryMin  int64  `json:"theory_min"`
	NoReuse    int64  `json:"no_reuse"`
	Atomic     int64  `json:"atomic"`
	Continuous int64  `json:"continuous"`
	Streams    int64  `json:"streams"`
	Topo       string `json:"topo"`
	Policy     string `json:"policy"`
	Conflicts  int    `json:"conflicts"`
}

// Compare ranks runs by after_reuse, smallest first; on ties the default
// memory policy comes first, then the order given.
func Compare(runs []*Run) *Comparison {
	c := &Comparison{Runs: make([]Ranked, 0, len(runs)), Options: []string{}}
	for _, run := range runs {
		s := SumRun(run)
		f := &s.Figures
		c.Runs = append(c.Runs, Ranked{Run: run.Name, Graphs: len(run.Graphs), Total: f.Total, AfterReuse: f.AfterReuse,
			TheoryMin: f.TheoryMin, NoReuse: f.NoReuse, Atomic: f.Atomic, Continuous: f.Continuous,
			Streams: f.Streams, Topo: f.Topo, Policy: s.Policy, Conflicts: s.Conflicts})
	}
	slices.SortStableFunc(c.Runs, func(a, b Ranked) int {
		return cmp.Or(cmp.Compare(a.AfterReuse, b.AfterReuse), cmp.Compare(rankPolicy(a.Policy), rankPolicy(b.Policy)))
	})
	for i := range c.Runs {
		c.Runs[i].Rank = i + 1
	}
	if len(c.Runs) > 0 {
		best := c.Runs[0]
		if n, ok := topoModes[best.Topo]; ok {
			c.Options = append(c.Options, `ge.topoSortingMode="`+strconv.Itoa(n)+`"`)
		}
		if best.Policy != "default" && best.Policy != "" && !strings.Contains(best.Policy, "/") {
			c.Options = append(c.Options, `ge.exec.memoryOptimizationPolicy="`+best.Policy+`"`)
		}
	}
	return c
}

func rankPolicy(p string) int {
	if p == "default" {
		return 0
	}
	return 1
}

// topoModes maps GE's topo_mode names to ge.topoSortingMode values.
var topoModes = map[string]int{"BFS": 0, "DFS": 1, "RDFS": 2, "StableRDFS": 3}

// TopoText shows a topo mode the way the tuning summary does: "2(RDFS)".
func TopoText(topo string) string {
	if n, ok := topoModes[topo]; ok {
		return strconv.Itoa(n) + "(" + topo + ")"
	}
	if topo == "" {
		return "-"
	}
	return topo
}
