package ui

import (
	"strconv"

	"imas/core/model"
)

// Figure is one column of the per-graph summary table. Raw is the number
// exactly as report.json has it (the cell's data-value); Text is for eyes.
type Figure struct {
	Name string
	Kind string // bytes, count, rate
	get  func(*model.Figures) (int64, float64)
}

// Figures are the figures of a graph (docs/figures.md), in report.json order.
var Figures = []Figure{
	{"memory_size", "bytes", i(func(f *model.Figures) int64 { return f.MemorySize })},
	{"after_reuse", "bytes", i(func(f *model.Figures) int64 { return f.AfterReuse })},
	{"total", "bytes", i(func(f *model.Figures) int64 { return f.Total })},
	{"ge_total", "bytes", i(func(f *model.Figures) int64 { return f.GETotal })},
	{"theory_min", "bytes", i(func(f *model.Figures) int64 { return f.TheoryMin })},
	{"no_reuse", "bytes", i(func(f *model.Figures) int64 { return f.NoReuse })},
	{"atomic", "bytes", i(func(f *model.Figures) int64 { return f.Atomic })},
	{"zero_copy", "bytes", i(func(f *model.Figures) int64 { return f.ZeroCopy })},
	{"continuous", "bytes", i(func(f *model.Figures) int64 { return f.Continuous })},
	{"streams", "count", i(func(f *model.Figures) int64 { return f.Streams })},
	{"tensors", "count", i(func(f *model.Figures) int64 { return f.Tensors })},
	{"reuse_rate", "rate", r(func(f *model.Figures) float64 { return f.ReuseRate })},
	{"reach_theory_rate", "rate", r(func(f *model.Figures) float64 { return f.ReachTheoryRate })},
}

func i(f func(*model.Figures) int64) func(*model.Figures) (int64, float64) {
	return func(x *model.Figures) (int64, float64) { return f(x), 0 }
}

func r(f func(*model.Figures) float64) func(*model.Figures) (int64, float64) {
	return func(x *model.Figures) (int64, float64) { return 0, f(x) }
}

// Raw is the figure as report.json writes it.
func (f Figure) Raw(g *model.Figures) string {
	n, x := f.get(g)
	if f.Kind == "rate" {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatInt(n, 10)
}

// Text is the figure for display.
func (f Figure) Text(g *model.Figures) string {
	n, x := f.get(g)
	switch f.Kind {
	case "bytes":
		return Size(n)
	case "rate":
		return strconv.FormatFloat(x, 'f', 2, 64) + "%"
	}
	return Count(n)
}

// GraphID is the data-graph attribute of a summary row: "<pid>/<graph>/<memtype>".
func GraphID(g *model.Graph) string {
	return g.PID + "/" + g.Graph + "/" + strconv.FormatInt(g.MemType, 10)
}
