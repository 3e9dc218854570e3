package ui

import (
	"strconv"

	"github.com/tidwall/gjson"
)

// Sections holds the report beyond the graphs: run-time memory, inputs and
// the comparison with a baseline.
type Sections struct {
	S *State

	PoolSort TableSort
}

var poolHeads = []head{{"pid", "pid", "", ""}, {"allocator", "allocator", "", ""},
	{"allocs", "allocs", "allocations logged", "num"}, {"frees", "frees", "allocations freed", "num"},
	{"peak live", "peak_live", "the most block bytes live at once (peak_live)", "num"},
	{"leaked", "leaked", "blocks never freed by the end of the logs", "num"},
	{"from device", "physical", "device memory the pool took from the driver", "num"}}

// pools is the pools tab's list in the order the user chose.
func (c *Sections) pools() []PoolInfo {
	rows := append([]PoolInfo(nil), c.S.Run.Pools()...)
	c.PoolSort.sort(rows, func(i int, col string) cell {
		p := &rows[i]
		switch col {
		case "allocator":
			return cell{T: p.Allocator}
		case "allocs":
			return cell{N: p.Allocs}
		case "frees":
			return cell{N: p.Frees}
		case "peak_live":
			return cell{N: p.PeakLive}
		case "leaked":
			return cell{N: p.Leaked}
		case "physical":
			return cell{N: p.Physical}
		}
		return cell{T: p.PID}
	})
	return rows
}

type section struct{ Key, Raw string }

// runtime lists the report's sections (engine.View.Sections: every field
// but the graphs and diagnostics) in report order, so that lists added to
// the model later show up too. Inputs have their own tab.
func (c *Sections) runtime() []section {
	var out []section
	gjson.Get(c.S.Run.Raw, "sections").ForEach(func(k, v gjson.Result) bool {
		if k.String() != "inputs" && (v.IsArray() || v.IsObject()) {
			out = append(out, section{k.String(), v.Raw})
		}
		return true
	})
	return out
}

func (c *Sections) section(path string) string { return gjson.Get(c.S.Run.Raw, "sections."+path).Raw }

func (c *Sections) tabs() []tab {
	return []tab{{"runtime", "Run-time memory"}, {"pools", "Pools (" + strconv.Itoa(len(c.S.Run.Pools())) + ")"},
		{"inputs", "Inputs"}, {"diff", "Compare"}}
}

func (c *Sections) poolClass(i int) string {
	if i == c.S.Pool {
		return "sel"
	}
	return ""
}

func (c *Sections) tabClass(id string) string {
	if id == c.S.Tab {
		return "on"
	}
	return ""
}
