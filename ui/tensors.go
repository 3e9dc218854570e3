package ui

import (
	"slices"
	"strings"
	"time"

	"github.com/vugu/vugu"

	"imas/wasm/engine"
)

// Tensors is the tensor table of the selected graph: filtered, sorted and
// paged by the engine, so only one page of rows ever reaches the DOM.
type Tensors struct {
	S                *State
	MinText, MaxText string // size bounds as typed
	MinErr, MaxErr   string // why a bound is not a size
	typed            int    // edits of the filters: a pause after the last one applies them
}

type column struct{ Name, Sort, Desc string }

func (c *Tensors) cols() []column {
	return []column{{"tensor", "node", "node:kind:index"}, {"op type", "optype", "the node's operator type"},
		{"offset", "offset", "address within the graph's memory"}, {"size", "size", "bytes GE reserved (aligned)"},
		{"real size", "realsize", "bytes the tensor needs"}, {"stream", "stream", "stream id"},
		{"lifetime", "life_begin", "first–last step the tensor is live (∞: to the end)"}}
}

// filterPause is how long typing must pause before the filters apply.
const filterPause = 300 * time.Millisecond

// later applies the filters once typing pauses.
func (c *Tensors) later() {
	c.typed++
	n := c.typed
	go func() {
		time.Sleep(filterPause)
		c.S.update(func() {
			if n == c.typed {
				c.apply()
			}
		})
	}()
}

func (c *Tensors) sizeErr() string { return strings.TrimSpace(c.MinErr + " " + c.MaxErr) }

func (c *Tensors) ariaSort(col string) string {
	switch {
	case c.S.Q.Sort != col:
		return "none"
	case c.S.Q.Desc:
		return "descending"
	}
	return "ascending"
}

// key selects row i on Enter or Space, as a click does.
func (c *Tensors) key(e vugu.DOMEvent, i int) {
	if k := e.PropString("key"); k == "Enter" || k == " " {
		e.PreventDefault()
		c.S.SelectRow(i)
	}
}

func (c *Tensors) flags() []string { return engine.Flags }

func (c *Tensors) items() []engine.TensorRow {
	if c.S.Page == nil {
		return nil
	}
	return c.S.Page.Items
}

func (c *Tensors) summary() string {
	p := c.S.Page
	if p == nil {
		return ""
	}
	if p.Match == p.Rows {
		return Count(int64(p.Rows)) + " rows"
	}
	return Count(int64(p.Match)) + " of " + Count(int64(p.Rows)) + " rows match"
}

// apply reads the size bounds and re-runs the query from its first page;
// a bound that is not a size is said next to its field.
func (c *Tensors) apply() {
	lo, err := ParseSize(c.MinText)
	hi, herr := ParseSize(c.MaxText)
	c.MinErr, c.MaxErr = errText(err), errText(herr)
	if err != nil || herr != nil {
		return
	}
	c.S.Q.MinSize, c.S.Q.MaxSize, c.S.Q.Page, c.S.Q.Focus = lo, hi, 0, -1
	c.S.Requery()
}

func (c *Tensors) has(f string) bool { return slices.Contains(c.S.Q.Flags, f) }

func (c *Tensors) toggle(f string, on bool) {
	c.S.Q.Flags = slices.DeleteFunc(slices.Clone(c.S.Q.Flags), func(x string) bool { return x == f })
	if on {
		c.S.Q.Flags = append(c.S.Q.Flags, f)
	}
	c.apply()
}

func (c *Tensors) sort(col string) { c.S.SortBy(col) }

func (c *Tensors) sortClass(col string) string {
	switch {
	case c.S.Q.Sort != col:
		return "sortable"
	case c.S.Q.Desc:
		return "sortable desc"
	}
	return "sortable asc"
}

func (c *Tensors) rowClass(r engine.TensorRow) string {
	cls := ""
	if r.I == c.S.Row {
		cls = "sel"
	}
	if r.Conflict {
		cls += " bad"
	}
	return cls
}

func (c *Tensors) flagText(r engine.TensorRow) string {
	t := RowFlags(&r.Row)
	if r.Conflict {
		t = "CONFLICT " + t
	}
	return t
}

// invalid is an aria-invalid value: whether a field has an error.
func invalid(err string) string {
	if err != "" {
		return "true"
	}
	return "false"
}
