package ui

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"github.com/vugu/vugu"

	"imas/core/model"
	"imas/wasm/engine"
)

// Graphs is the per-graph summary table, largest memory_size first: every
// figure, each cell carrying its raw number in data-value. Every
// graph of a run is a row of the one table up to graphPage rows (readers of
// the page, and the acceptance checks, look for each graph's row without
// turning pages); it pages beyond, as every re-render rebuilds all of its
// rows. Any column sorts it.
type Graphs struct {
	S *State
	// Early, when set, is the graphs finished while the logs are still
	// read: the table lists them instead of the run's, and a row chosen
	// shows nothing more (the run's graphs are not there yet).
	Early  *engine.Early
	early  *Loaded // of Early, made once per Early
	of     *engine.Early
	Filter string
	Page   int
	Sort   string // a column's sort key; "" is memory_size, largest first
	Asc    bool
}

// graphPage holds the graph rows of a typical run on one page (eight
// processes of 25 graph × memory-type rows each), so that a reader looking
// for a graph does not have to look on a second page. Each row costs every
// re-render, so the page is not unbounded: a click re-renders all of its
// rows on the page's thread.
const graphPage = 200

// lowReach flags a graph whose layout is far from its lifetimes' minimum.
const lowReach = 50

type graphRow struct {
	I int
	G *model.Graph
	C engine.GraphCounts
}

type head struct{ Name, Sort, Desc, Class string }

func (c *Graphs) heads() []head {
	h := []head{{"pid", "pid", "process id", ""}, {"graph", "graph", "graph name (#2, #3: recompilations)", ""},
		{"memtype", "memtype", "memory type GE placed these tensors in", ""},
		{"memory_size", "memory_size", Figures[0].Desc, "num"},
		{"conflicts", "conflicts", "pairs of tensors that share addresses while both are live", "num"},
		{"flags", "flags", "conflicts; low reach: reach_theory_rate under 50% (the layout takes over twice the least memory these lifetimes allow)", ""}}
	for _, f := range Figures[1:] {
		h = append(h, head{f.Name, f.Name, f.Desc, "num"})
	}
	return append(h, head{"topo", "topo", "GE's topological sorting mode", ""})
}

func (c *Graphs) flags(r graphRow) string {
	var f []string
	if r.C.Conflicts > 0 {
		f = append(f, "conflicts")
	}
	if r.G.AfterReuse > 0 && r.G.ReachTheoryRate < lowReach {
		f = append(f, "low reach")
	}
	return strings.Join(f, " ")
}

// order compares two rows by column col.
func (c *Graphs) order(col string) func(a, b graphRow) int {
	switch col {
	case "pid":
		return func(a, b graphRow) int { return cmp.Compare(a.G.PID, b.G.PID) }
	case "graph":
		return func(a, b graphRow) int { return cmp.Compare(a.G.Graph, b.G.Graph) }
	case "memtype":
		return func(a, b graphRow) int { return cmp.Compare(a.G.MemType, b.G.MemType) }
	case "conflicts":
		return func(a, b graphRow) int { return cmp.Compare(a.C.Conflicts, b.C.Conflicts) }
	case "flags":
		return func(a, b graphRow) int { return cmp.Compare(c.flags(a), c.flags(b)) }
	case "topo":
		return func(a, b graphRow) int { return cmp.Compare(a.G.Topo, b.G.Topo) }
	}
	for _, f := range Figures {
		if f.Name == col {
			return func(a, b graphRow) int {
				na, xa := f.get(&a.G.Figures)
				nb, xb := f.get(&b.G.Figures)
				return cmp.Or(cmp.Compare(na, nb), cmp.Compare(xa, xb))
			}
		}
	}
	return func(a, b graphRow) int { return 0 }
}

func (c *Graphs) sortCol() string { return cmp.Or(c.Sort, "memory_size") }

// sortBy sorts by col; choosing the sorted column again reverses it.
// Figures start largest first, names in order.
func (c *Graphs) sortBy(col string) {
	if col == c.sortCol() {
		c.Asc = !c.Asc
	} else {
		c.Sort, c.Asc = col, col == "pid" || col == "graph" || col == "topo" || col == "memtype"
	}
	c.Page = 0
}

func (c *Graphs) ariaSort(col string) string {
	switch {
	case col != c.sortCol():
		return "none"
	case c.Asc:
		return "ascending"
	}
	return "descending"
}

// matching lists the graphs whose pid or name contain the filter, sorted;
// equal rows keep the report's order.
func (c *Graphs) matching() []graphRow {
	f := strings.ToLower(strings.TrimSpace(c.Filter))
	var out []graphRow
	for i, g := range c.run().Report.Graphs {
		if f == "" || strings.Contains(strings.ToLower(GraphID(g)), f) {
			out = append(out, graphRow{i, g, c.run().Counts[i]})
		}
	}
	by := c.order(c.sortCol())
	// sort.SliceStable, not the generic slices sort: each generic
	// instantiation is kilobytes of wasm, and the page's size is bounded.
	sort.SliceStable(out, func(i, j int) bool {
		if c.Asc {
			return by(out[i], out[j]) < 0
		}
		return by(out[j], out[i]) < 0
	})
	return out
}

// most is the largest memory_size, the bars' scale.
func (c *Graphs) most() int64 {
	var m int64 = 1
	for _, g := range c.run().Report.Graphs {
		m = max(m, g.MemorySize)
	}
	return m
}

func (c *Graphs) pages() int { return max(1, (len(c.matching())+graphPage-1)/graphPage) }

// page is the page shown: a new run may have fewer pages than the last.
func (c *Graphs) page() int { return min(c.Page, c.pages()-1) }

func (c *Graphs) rows() []graphRow {
	m, p := c.matching(), c.page()
	rows := m[min(p*graphPage, len(m)):min((p+1)*graphPage, len(m))]
	if c.S.rowLimit > 0 {
		rows = rows[:min(len(rows), c.S.rowLimit)]
	}
	return rows
}

func (c *Graphs) goPage(p int) { c.Page = p }

// key selects graph i on Enter or Space, as a click does.
func (c *Graphs) key(e vugu.DOMEvent, i int) {
	if k := e.PropString("key"); k == "Enter" || k == " " {
		e.PreventDefault()
		c.choose(i)
	}
}

// choose maps graph i of the run and lists its tensors.
func (c *Graphs) choose(i int) {
	if c.Early == nil {
		c.S.SelectGraph(i)
	}
}

// run is what the table lists: the run, or the graphs finished so far.
//
// Not inlined: its callers are many, and the page's size is bounded.
//
//go:noinline
func (c *Graphs) run() *Loaded {
	if c.Early == nil {
		return c.S.Run
	}
	if c.of != c.Early {
		c.early, c.of = &Loaded{View: c.Early.View}, c.Early
	}
	return c.early
}

func (c *Graphs) class() string {
	if c.Early != nil {
		return "graphs early"
	}
	return "graphs"
}

func (c *Graphs) title() string {
	if c.Early != nil {
		return "Graphs finished so far"
	}
	return "Graphs by memory"
}

func (c *Graphs) summary() string {
	if c.Early != nil {
		return earlyText(c.Early, c.S.Prog)
	}
	n, all := len(c.matching()), len(c.run().Report.Graphs)
	if n == all {
		return Count(int64(all)) + " process × graph × memory type"
	}
	return Count(int64(n)) + " of " + Count(int64(all)) + " match"
}

func (c *Graphs) rowClass(r graphRow) string {
	cls := ""
	if r.I == c.S.Graph && c.Early == nil {
		cls = "sel"
	}
	if r.C.Conflicts > 0 {
		cls += " bad"
	}
	return cls
}

// earlyText says how many graphs are finished and how many files are
// still to read.
func earlyText(e *engine.Early, p engine.Progress) string {
	return fmt.Sprintf("%d finished, figures final, the largest listed; %d of %d files still being read", e.Graphs, p.Inputs-p.InputsDone, p.Inputs)
}
