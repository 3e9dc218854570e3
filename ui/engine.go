// Package ui is the page: vugu components over the analysis engine. It has
// no JavaScript of its own in Go — everything that touches the browser goes
// through Engine, which wasm/app implements with syscall/js — so it builds
// and tests natively.
//
// vugu rebuilds the whole tree and re-sends it to the DOM on every render,
// so the page keeps its node count low: tables page, long sections start
// folded, and table rows break lines inside tags ("></td\n><td") because
// whitespace between elements would be text nodes too.
package ui

import (
	"context"

	"github.com/vugu/vugu"

	"imas/wasm/engine"
)

// Engine is the analysing side as the page sees it.
type Engine interface {
	// FilesOf takes the files of an <input type=file> change event. It must
	// be called in the event handler: the event is gone afterwards.
	FilesOf(e vugu.DOMEvent) Files
	// Analyze reads files into a slot (engine.SlotRun or SlotBase) and
	// returns the engine.View as JSON. progress is called from a goroutine.
	Analyze(ctx context.Context, slot string, f Files, progress func(engine.Progress)) ([]byte, error)
	// Query runs a JSON request (view, tensors, tensor, find) into out.
	Query(op string, arg, out any) error
	// ShowMap hands the memory map of a graph to the page's canvas.
	ShowMap(slot string, graph int, colorBy string) (*engine.MapMeta, error)
	// ShowPool hands the map of an RT2 pool (allocation clock × address).
	ShowPool(slot string, pool int) (*engine.MapMeta, error)
	// MarkOnMap outlines a row on the map (-1: none).
	MarkOnMap(row int)
	// Rendered lets the page's scripts re-attach to the DOM vugu has just
	// patched (the map canvas lives in an element vugu leaves empty).
	Rendered()
	// NextFrame returns once the browser has shown what the last render
	// put on the page (or after a short while where it shows no frames: a
	// hidden tab).
	NextFrame()
	// Reveal scrolls the element of a CSS selector into view once the next
	// render has put it on the page.
	Reveal(selector string)
	// Sample returns the small generated log built into the page, or nil.
	Sample() Files
	// Hash is the page address' fragment without "#"; SetHash replaces it
	// (no history entry), so that a reload or a link shows the same view.
	Hash() string
	SetHash(h string)
	// Download saves a report file (engine.View.Outputs).
	Download(slot, name string) error
	// OpenPerfetto opens the Perfetto trace of slot in ui.perfetto.dev, or
	// downloads it where that cannot work, and says which happened. Start it
	// right after a click: browsers open tabs only shortly after a gesture.
	OpenPerfetto(slot string) (string, error)
}

// Files is a set of browser files, opaque to Go.
type Files interface {
	Len() int
}
