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
	Desc string // what it means: the column header's tooltip
	get  func(*model.Figures) (int64, float64)
}

// Figures are the figures of a graph (docs/figures.md), in report.json order.
var Figures = []Figure{
	{"memory_size", "bytes", "GE's static memory for this graph and memory type (memoffset): what the device allocates", i(func(f *model.Figures) int64 { return f.MemorySize })},
	{"after_reuse", "bytes", "the layout's size once GE reused addresses between tensors (= memory_size)", i(func(f *model.Figures) int64 { return f.AfterReuse })},
	{"total", "bytes", "Σ real size of the counted tensors: the memory without any reuse", i(func(f *model.Figures) int64 { return f.Total })},
	{"ge_total", "bytes", "total with each tensor aligned to 512 bytes, as GE counts it", i(func(f *model.Figures) int64 { return f.GETotal })},
	{"theory_min", "bytes", "the least memory these lifetimes allow: peak of the live reusable tensors + no_reuse + atomic", i(func(f *model.Figures) int64 { return f.TheoryMin })},
	{"no_reuse", "bytes", "tensors GE may not share addresses with (reuse flag 0), aligned", i(func(f *model.Figures) int64 { return f.NoReuse })},
	{"atomic", "bytes", "memory of atomic-clean pieces, aligned", i(func(f *model.Figures) int64 { return f.Atomic })},
	{"zero_copy", "bytes", "graph inputs and outputs laid out at the end of the HBM area (HBM only)", i(func(f *model.Figures) int64 { return f.ZeroCopy })},
	{"continuous", "bytes", "blocks of tensors that need continuous memory", i(func(f *model.Figures) int64 { return f.Continuous })},
	{"streams", "count", "streams of the reusable tensors", i(func(f *model.Figures) int64 { return f.Streams })},
	{"tensors", "count", "counted tensors (one per node:kind:index)", i(func(f *model.Figures) int64 { return f.Tensors })},
	{"reuse_rate", "rate", "(total − after_reuse) / total: how much reuse saved", r(func(f *model.Figures) float64 { return f.ReuseRate })},
	{"reach_theory_rate", "rate", "theory_min / after_reuse: 100% is the best layout these lifetimes allow", r(func(f *model.Figures) float64 { return f.ReachTheoryRate })},
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

// Title is the cell's hover text: exact bytes, or the raw figure.
func (f Figure) Title(g *model.Figures) string {
	n, _ := f.get(g)
	switch f.Kind {
	case "bytes":
		return Exact(n)
	}
	return f.Raw(g)
}

// GraphID is the data-graph attribute of a summary row: "<pid>/<graph>/<memtype>".
func GraphID(g *model.Graph) string {
	return g.PID + "/" + g.Graph + "/" + strconv.FormatInt(g.MemType, 10)
}
