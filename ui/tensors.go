package ui

import (
	"errors"
	"slices"

	"imas/wasm/engine"
)

// Tensors is the tensor table of the selected graph: filtered, sorted and
// paged by the engine, so only one page of rows ever reaches the DOM.
type Tensors struct {
	S                *State
	MinText, MaxText string // size bounds as typed
}

type column struct{ Name, Sort string }

func (c *Tensors) cols() []column {
	return []column{{"tensor", "node"}, {"op type", "optype"}, {"offset", "offset"}, {"size", "size"},
		{"real size", "realsize"}, {"stream", "stream"}, {"lifetime", "life_begin"}}
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

// apply reads the size bounds and re-runs the query from its first page.
func (c *Tensors) apply() {
	lo, err := ParseSize(c.MinText)
	hi, herr := ParseSize(c.MaxText)
	if err = errors.Join(err, herr); err != nil {
		c.S.Err = err.Error()
		return
	}
	c.S.Err = ""
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
