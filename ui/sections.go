package ui

import (
	"strconv"

	"github.com/tidwall/gjson"
)

// Sections holds the report beyond the graphs: run-time memory, inputs and
// the comparison with a baseline.
type Sections struct {
	S *State
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
