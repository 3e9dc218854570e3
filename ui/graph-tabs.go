package ui

import (
	"encoding/json"
	"strconv"

	"imas/core/model"
	"imas/wasm/engine"
)

// GraphTabs shows the analyses of the selected graph: reuse conflicts, the
// waste breakdown, what is live at the peak, and GE's own summary.
type GraphTabs struct {
	S *State
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
