package ui

import (
	"strconv"

	"imas/core/model"
)

// MemoryErrors is the card that opens the results when the logs hold
// refused memory requests: an engineer with an out-of-memory wants them
// before anything else.
type MemoryErrors struct {
	S *State
}

func (c *MemoryErrors) errs() []*model.MemoryError {
	if c.S.Run == nil || c.S.Run.Report == nil {
		return nil
	}
	return c.S.Run.Report.MemoryErrors
}

func (c *MemoryErrors) when(e *model.MemoryError) string {
	if e.TimeText == "" {
		return "not logged"
	}
	return e.TimeText
}

func (c *MemoryErrors) process(e *model.MemoryError) string {
	if e.Process == "" {
		return e.PID
	}
	return e.PID + " (" + e.Process + ")"
}

func (c *MemoryErrors) device(e *model.MemoryError) string {
	if e.Device < 0 {
		return "?"
	}
	return strconv.FormatInt(e.Device, 10)
}

func (c *MemoryErrors) asked(e *model.MemoryError) string {
	if e.Size < 0 {
		return "not logged"
	}
	s := Size(e.Size)
	if e.Purpose != "" {
		s += " for " + e.Purpose
	}
	return s
}

func (c *MemoryErrors) by(e *model.MemoryError) string {
	s := e.Func
	if e.Module != "" {
		s += " [" + e.Module + "]"
	}
	if e.Caller != "" {
		s += " ← " + e.Caller
	}
	if e.DriverModule != "" {
		s += ", for " + e.DriverModule
	}
	return s
}

func (c *MemoryErrors) failed(e *model.MemoryError) string {
	s := e.Code
	if e.Reason != "" {
		if s != "" {
			s += ": "
		}
		s += e.Reason
	}
	if e.Expect != nil && e.Actual != nil {
		if s != "" {
			s += "; "
		}
		s += "expected " + Size(*e.Expect) + ", found " + Size(*e.Actual)
	}
	return s
}

func (c *MemoryErrors) before(e *model.MemoryError) string {
	p := e.Before
	if p == nil {
		return "not logged"
	}
	s := ""
	if len(p.Devmm) > 0 {
		s = "devmm " + Size(p.DevmmCurrent) + " in use (peak " + Size(p.DevmmPeak) + ")"
	}
	if p.MallocCount > 0 {
		if s != "" {
			s += "; "
		}
		s += "GE mallocs " + Size(p.MallocBytes)
	}
	return s
}

func (c *MemoryErrors) where(e *model.MemoryError) string {
	return e.Path + ":" + strconv.FormatInt(e.Line, 10)
}

// text is one error in a line: when, who, what was asked, why it failed,
// the memory before it and where it is logged. (One text node per error
// keeps the page's bundle and its DOM small.)
func (c *MemoryErrors) text(e *model.MemoryError) string {
	s := c.when(e) + " · pid " + c.process(e) + " · device " + c.device(e) + " · asked " + c.asked(e) + " by " + c.by(e)
	if f := c.failed(e); f != "" {
		s += " · failed: " + f
	}
	return s + " · before: " + c.before(e) + " · " + c.where(e)
}
