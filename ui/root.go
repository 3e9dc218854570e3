package ui

import "github.com/vugu/vugu"

// Root is the page.
type Root struct {
	S *State
}

// Init hands the event environment to the state, for answers that arrive
// on goroutines.
func (c *Root) Init(ctx vugu.InitCtx) { c.S.env = ctx.EventEnv() }
