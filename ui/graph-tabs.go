package ui

import (
	"encoding/json"
	"strconv"
	"strings"

	"imas/core/model"
	"imas/wasm/engine"
)

// GraphTabs shows the analyses of the selected graph: reuse conflicts, the
// waste breakdown, what is live at the peak, and GE's own summary.
type GraphTabs struct {
	S *State

	ConflictSort, WasteSort, HoleSort, PeakSort TableSort
}

type tab struct{ ID, Name string }

func (c *GraphTabs) g() *model.Graph { return c.S.Info }

func (c *GraphTabs) counts() engine.GraphCounts { return c.S.Run.Counts[c.S.Graph] }

func (c *GraphTabs) tabs() []tab {
	return []tab{
		{"conflicts", "Conflicts (" + strconv.Itoa(c.counts().Conflicts) + ")"},
		{"waste", "Waste"},
		{"peak", "Peak"},
		{"logged", "GE summary"},
	}
}

func (c *GraphTabs) tabClass(id string) string {
	if id == c.S.GraphTab {
		return "on"
	}
	return ""
}

func (c *GraphTabs) keyClass(key string) string {
	if c.S.Detail != nil && c.S.Detail.Key == key {
		return "sel"
	}
	return ""
}

func (c *GraphTabs) conflictClass(a, b string) string {
	if c.S.Detail != nil && (c.S.Detail.Key == a || c.S.Detail.Key == b) {
		return "sel"
	}
	return ""
}

func (c *GraphTabs) wasteMax() int64 {
	var m int64 = 1
	for _, p := range c.g().Waste.Parts {
		m = max(m, p.Bytes)
	}
	return m
}

func (c *GraphTabs) json(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// peak is the list of the Peak tab: the tensors live at the step chosen on
// the timeline, or at theory_min's peak step.
func (c *GraphTabs) peak() *model.Peak {
	if c.S.At != nil {
		return c.S.At
	}
	return c.g().Peak
}

func (c *GraphTabs) peakTitle() string {
	p, at := c.peak(), "Peak at step "
	if c.g().Peak == nil || p.Step != c.g().Peak.Step {
		at = "Live at step "
	}
	return at + Count(p.Step) + ": " + Size(p.Live) + " in " + Count(int64(p.Blocks)) + " blocks (" + Exact(p.Live) + "), largest first"
}

var (
	conflictHeads = []head{{"tensor a", "a", "", ""}, {"tensor b", "b", "", ""},
		{"offset", "offset", "address within the graph's memory", "num"}, {"size", "size", "", "num"},
		{"lifetime overlap", "life", "the steps both are live", "num"}, {"stream", "stream", "", ""}}
	wasteHeads = []head{{"cause", "cause", "", ""}, {"bytes", "bytes", "", "num"}, {"note", "note", "", ""}}
	holeHeads  = []head{{"offset", "offset", "", "num"}, {"size", "size", "", "num"}}
	peakHeads  = []head{{"tensor", "key", "", ""}, {"op type", "optype", "", ""},
		{"offset", "offset", "address within the graph's memory", "num"}, {"size", "size", "bytes GE reserved for the block", "num"},
		{"lifetime", "life", "", "num"}, {"alias of", "alias", "isref: this tensor uses the memory of another", ""}}
)

// conflicts, wasteParts, holes and peakRows are the tabs' lists in the
// order the user chose; copies, as the report's lists keep theirs.
func (c *GraphTabs) conflicts() []model.Conflict {
	rows := append([]model.Conflict(nil), c.g().Conflicts...)
	c.ConflictSort.sort(rows, func(i int, col string) cell {
		x := &rows[i]
		switch col {
		case "b":
			return cell{T: x.B}
		case "offset":
			return cell{N: x.Offset}
		case "size":
			return cell{N: x.Size}
		case "life":
			return cell{N: x.Lifetime[0], T: Life(x.Lifetime[0], x.Lifetime[1])}
		case "stream":
			return cell{T: x.Stream}
		}
		return cell{T: x.A}
	})
	return rows
}

func (c *GraphTabs) wasteParts() []model.WastePart {
	rows := append([]model.WastePart(nil), c.g().Waste.Parts...)
	c.WasteSort.sort(rows, func(i int, col string) cell {
		switch col {
		case "bytes":
			return cell{N: rows[i].Bytes}
		case "note":
			return cell{T: rows[i].Note}
		}
		return cell{T: rows[i].Cause}
	})
	return rows
}

func (c *GraphTabs) holes() []model.Hole {
	rows := append([]model.Hole(nil), c.g().Waste.Holes...)
	c.HoleSort.sort(rows, func(i int, col string) cell {
		if col == "size" {
			return cell{N: rows[i].Size}
		}
		return cell{N: rows[i].Offset}
	})
	return rows
}

func (c *GraphTabs) peakRows() []model.PeakItem {
	rows := append([]model.PeakItem(nil), c.peak().Tensors...)
	c.PeakSort.sort(rows, func(i int, col string) cell {
		t := &rows[i]
		switch col {
		case "optype":
			return cell{T: t.OpType}
		case "offset":
			return cell{N: t.Offset}
		case "size":
			return cell{N: t.Size}
		case "life":
			return cell{N: lifeBegin(t.Life), T: t.Life}
		case "alias":
			return cell{T: t.AliasOf}
		}
		return cell{T: t.Key}
	})
	return rows
}

// lifeBegin is the first step of a lifetime as Life writes it ("3→17").
func lifeBegin(life string) int64 {
	b, _, _ := strings.Cut(life, "→")
	n, _ := strconv.ParseInt(b, 10, 64)
	return n
}
