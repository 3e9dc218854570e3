package ui

import "github.com/vugu/vugu"

// Root is the page. While logs are read it shows only the progress: every
// progress message re-renders the page, which must then be small.
type Root struct {
	S *State
}

// Init hands the event environment to the state, for answers that arrive
// on goroutines.
func (c *Root) Init(ctx vugu.InitCtx) { c.S.env = ctx.EventEnv() }

// busyText is the line beside the progress bar.
func (c *Root) busyText() string {
	t := ProgressText(c.S.Prog)
	if c.S.Busy == "base" {
		t = "baseline: " + t
	}
	return t
}
