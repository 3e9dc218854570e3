package ui

import (
	"strings"

	"imas/core/model"
	"imas/wasm/engine"
)

// Graphs is the per-graph summary table: every figure of a graph, each cell
// carrying its raw number in data-value. Every graph of a run is a row of
// the one table up to graphPage rows (readers of the page, and the
// acceptance checks, look for each graph's row without turning pages); it
// pages beyond, as every re-render rebuilds all of its rows.
type Graphs struct {
	S      *State
	Filter string
	Page   int
}

// graphPage holds the graph rows of a typical run on one page (eight
// processes of 25 graph × memory-type rows each), so that a reader looking
// for a graph does not have to look on a second page. Each row costs every
// re-render, so the page is not unbounded: a click re-renders all of its
// rows on the page's thread.
const graphPage = 200

type graphRow struct {
	I int
	G *model.Graph
	C engine.GraphCounts
}

// matching lists the graphs whose pid or name contain the filter.
func (c *Graphs) matching() []graphRow {
	f := strings.ToLower(strings.TrimSpace(c.Filter))
	var out []graphRow
	for i, g := range c.S.Run.Report.Graphs {
		if f == "" || strings.Contains(strings.ToLower(GraphID(g)), f) {
			out = append(out, graphRow{i, g, c.S.Run.Counts[i]})
		}
	}
	return out
}

func (c *Graphs) pages() int { return max(1, (len(c.matching())+graphPage-1)/graphPage) }

// page is the page shown: a new run may have fewer pages than the last.
func (c *Graphs) page() int { return min(c.Page, c.pages()-1) }

func (c *Graphs) rows() []graphRow {
	m, p := c.matching(), c.page()
	return m[min(p*graphPage, len(m)):min((p+1)*graphPage, len(m))]
}

func (c *Graphs) goPage(p int) { c.Page = p }

func (c *Graphs) summary() string {
	n, all := len(c.matching()), len(c.S.Run.Report.Graphs)
	if n == all {
		return Count(int64(all)) + " process × graph × memory type"
	}
	return Count(int64(n)) + " of " + Count(int64(all)) + " match"
}

func (c *Graphs) rowClass(r graphRow) string {
	cls := ""
	if r.I == c.S.Graph {
		cls = "sel"
	}
	if r.C.Conflicts > 0 {
		cls += " bad"
	}
	return cls
}
