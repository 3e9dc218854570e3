package ui

import "strconv"

// MemMap frames the memory map. The map itself is drawn by the page's
// script on a canvas inside #imas-mapbox, which vugu leaves alone because
// the element has no children here.
type MemMap struct {
	S *State
}

// Rendered lets the page's script put the canvas back in the box, should a
// render have replaced the box. (vugu calls Rendered on the root's direct
// child components only.)
func (c *MemMap) Rendered() { c.S.Eng.Rendered() }

func (c *MemMap) title() string {
	switch m := c.S.Map; {
	case m == nil:
		return ""
	case c.S.Pool >= 0:
		p := c.S.Run.Pools()[c.S.Pool]
		return "pool " + p.Allocator + " of pid " + p.PID + " · " + Count(int64(m.N)) + " allocations"
	}
	g := c.S.Run.Report.Graphs[c.S.Graph]
	return "pid " + g.PID + " · " + g.Graph + " · " + MemType(g.MemType) + " · " + Count(int64(c.S.Map.N)) + " rows"
}

func (c *MemMap) axes() string {
	if c.S.Pool >= 0 && c.S.Map != nil {
		return "x: allocation order · y: address above 0x" + strconv.FormatInt(c.S.Map.Base, 16) + " ·"
	}
	return "x: lifetime step · y: offset ·"
}

// other is the key of a conflict that is not the selected tensor.
func (c *MemMap) other(a, b string) string {
	if c.S.Detail != nil && a == c.S.Detail.Key {
		return b
	}
	return a
}

// swatch is the CSS class of legend colour k (the canvas reads the same
// custom properties).
func swatch(k int) string { return "sw c" + strconv.Itoa(k) }

func (c *MemMap) peak() string {
	return "peak at step " + strconv.FormatInt(c.S.Map.PeakStep, 10) + " (" + Size(c.S.Map.PeakLive) + " live)"
}

func (c *MemMap) liveTitle() string {
	if c.S.Pool >= 0 {
		return "the pool's live block bytes after each allocation"
	}
	return "live bytes per step: click a step (or use ← → and Home) to list the tensors live there"
}

// legendName names a legend entry; rows of old logs have no op type.
func legendName(name string) string {
	if name == "" {
		return "(no op type)"
	}
	return name
}
