package ui

import (
	"strconv"

	"imas/core/analyze"
)

// Diff shows analyze.Diff of the baseline and the run: summed figures,
// then each matched graph's changed figures and biggest tensor movers.
type Diff struct {
	S    *State
	Page int

	// TotalSort sorts the summed figures; FigureSort and MoverSort every
	// graph's changed figures and movers.
	TotalSort, FigureSort, MoverSort TableSort
}

const diffPage = 20

func (c *Diff) matched() string {
	d := c.S.DiffRes
	return Count(int64(len(d.Graphs))) + " matched · " + Count(int64(len(d.OnlyOld))) + " only in the baseline · " +
		Count(int64(len(d.OnlyNew))) + " only in the run"
}

func (c *Diff) pages() int { return max(1, (len(c.S.DiffRes.Graphs)+diffPage-1)/diffPage) }

// at is the page shown: a new diff may have fewer pages than the last.
func (c *Diff) at() int { return min(c.Page, c.pages()-1) }

func (c *Diff) page() []*analyze.GraphDiff {
	g, p := c.S.DiffRes.Graphs, c.at()
	return g[min(p*diffPage, len(g)):min((p+1)*diffPage, len(g))]
}

func (c *Diff) goPage(p int) { c.Page = p }

func (c *Diff) graphTitle(g *analyze.GraphDiff) string {
	t := g.Old.Graph
	if g.New.Graph != g.Old.Graph {
		t += " → " + g.New.Graph
	}
	return t + " · " + MemType(g.New.MemType)
}

func (c *Diff) graphSub(g *analyze.GraphDiff) string {
	return "pid " + g.Old.PID + " → " + g.New.PID + ", matched by " + g.MatchBy
}

func (c *Diff) changed(g *analyze.GraphDiff) []analyze.Delta {
	var out []analyze.Delta
	for _, d := range g.Figures {
		if d.Delta != 0 {
			out = append(out, d)
		}
	}
	return out
}

func (c *Diff) unchanged(g *analyze.GraphDiff) bool {
	n := g.Counts
	return len(c.changed(g)) == 0 && n.Added+n.Removed+n.Resized == 0
}

func (c *Diff) tensorText(g *analyze.GraphDiff) string {
	n := g.Counts
	return "Tensors: " + Count(int64(n.Added)) + " added (" + signedSize(n.AddedBytes) + "), " +
		Count(int64(n.Removed)) + " removed (" + signedSize(n.RemovedBytes) + "), " +
		Count(int64(n.Resized)) + " resized (" + signedSize(n.ResizedBytes) + ")"
}

// figText formats a figure value of a diff by what the figure measures.
func figText(name string, v float64) string {
	switch figureKind(name) {
	case "rate":
		return strconv.FormatFloat(v, 'f', 2, 64) + "%"
	case "bytes":
		return Size(int64(v))
	}
	return Count(int64(v))
}

func deltaText(name string, v float64) string {
	if v == 0 {
		return "="
	}
	s := figText(name, v)
	if v > 0 {
		s = "+" + s
	}
	return s
}

func signedSize(n int64) string {
	if n > 0 {
		return "+" + Size(n)
	}
	return Size(n)
}

func deltaClass(d analyze.Delta) string {
	switch {
	case d.Delta == 0:
		return ""
	case (d.Delta > 0) == (figureKind(d.Name) == "rate"):
		return "better"
	}
	return "worse"
}

// figureKind is bytes, count or rate for a figure name of report.json.
func figureKind(name string) string {
	if analyze.RateFigure(name) {
		return "rate"
	}
	for _, f := range Figures {
		if f.Name == name {
			return f.Kind
		}
	}
	return "count"
}

var moverHeads = []head{{"biggest movers", "key", "", ""}, {"op type", "optype", "", ""}, {"change", "change", "", ""},
	{"real size", "realsize", "the run's real size", "num"}, {"delta", "delta", "", "num"}}

// movers is g's biggest movers in the order the user chose.
func (c *Diff) movers(g *analyze.GraphDiff) []analyze.TensorChange {
	rows := append([]analyze.TensorChange(nil), g.Movers...)
	c.MoverSort.sort(rows, func(i int, col string) cell {
		m := &rows[i]
		switch col {
		case "optype":
			return cell{T: m.OpType}
		case "change":
			return cell{T: m.Change}
		case "realsize":
			return cell{N: m.NewReal}
		case "delta":
			return cell{N: m.Delta}
		}
		return cell{T: m.Key}
	})
	return rows
}

var figureHeads = []head{{"figure", "figure", "", ""}, {"baseline", "old", "", "num"}, {"run", "new", "", "num"}, {"change", "delta", "", "num"}}

// totals is the summed figures in the order the user chose.
func (c *Diff) totals() []analyze.Delta {
	return sortDeltas(&c.TotalSort, append([]analyze.Delta(nil), c.S.DiffRes.Totals...))
}

// figures is g's changed figures (a new list) in the order the user chose.
func (c *Diff) figures(g *analyze.GraphDiff) []analyze.Delta {
	return sortDeltas(&c.FigureSort, c.changed(g))
}

// sortDeltas sorts rows, figures of both runs (a mix of bytes, counts and
// rates, compared as numbers).
func sortDeltas(s *TableSort, rows []analyze.Delta) []analyze.Delta {
	s.sort(rows, func(i int, col string) cell {
		d := &rows[i]
		switch col {
		case "old":
			return cell{F: d.Old}
		case "new":
			return cell{F: d.New}
		case "delta":
			return cell{F: d.Delta}
		}
		return cell{T: d.Name}
	})
	return rows
}
