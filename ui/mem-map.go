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
	if m := c.S.Map; c.S.Pool >= 0 && m != nil {
		y := " · y: address above 0x" + strconv.FormatInt(m.Base, 16) + " ·"
		if m.Clock == "time" {
			return "x: log time from " + LogTime(m.TimeOrigin) + y
		}
		return "x: allocation order (some events carry no time)" + y
	}
	return "x: lifetime step · y: offset ·"
}

func (c *MemMap) hint() string {
	if c.S.Pool >= 0 {
		return "wheel: zoom (shift: time only, alt: addresses only) · drag: pan · double-click: whole pool · hover: a block's times"
	}
	return "wheel: zoom (shift: steps only, alt: offsets only) · drag: pan · double-click: whole graph · click: select"
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
	if m := c.S.Map; m.Clock == "time" {
		return "peak at " + Elapsed(m.PeakStep) + " (" + Size(m.PeakLive) + " live)"
	} else if m.Clock == "allocation" {
		return "peak at allocation " + strconv.FormatInt(m.PeakStep, 10) + " (" + Size(m.PeakLive) + " live)"
	}
	return "peak at step " + strconv.FormatInt(c.S.Map.PeakStep, 10) + " (" + Size(c.S.Map.PeakLive) + " live)"
}

func (c *MemMap) liveTitle() string {
	if c.S.Pool >= 0 {
		if c.S.Map != nil && c.S.Map.Clock == "time" {
			return "the pool's live block bytes over log time: each allocation and free at its time; click a time to read the level there"
		}
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
