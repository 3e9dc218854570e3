package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/vugu/vugu"

	"imas/core/model"
	"imas/wasm/engine"
)

// WarmUp builds the results page from an engine warm-up's answers
// (engine.Sample) rounds times, off the DOM, and drops it, calling pause
// between rounds to give the page's event loop a turn. The browser
// compiles WebAssembly functions on their first call and optimises them in
// background threads once they are hot: without this, showing the first
// results compiles the UI code on the page's thread, and then the
// optimising threads take the cores from the page's layout (docs/page.md,
// "How it works").
func WarmUp(sm *engine.Sample, rounds int, pause func()) error {
	if sm == nil {
		return errors.New("no warm-up sample")
	}
	build, err := vugu.NewBuildEnv(&warmEvents{})
	if err != nil {
		return err
	}
	for range rounds {
		s, err := warmState(sm)
		if err != nil {
			return err
		}
		br := build.RunBuild(&Root{S: s})
		TextNodes(br)
		if pause != nil {
			pause()
		}
	}
	return nil
}

// warmState decodes a sample into the state a load leaves: the results
// with the first graph, its figures and table page shown.
func warmState(sm *engine.Sample) (*State, error) {
	l, err := decodeView(sm.View)
	if err != nil {
		return nil, fmt.Errorf("warm-up view: %w", err)
	}
	var info model.Graph
	if err := json.Unmarshal(sm.Graph, &info); err != nil {
		return nil, fmt.Errorf("warm-up graph: %w", err)
	}
	var page engine.TensorPage
	if err := json.Unmarshal(sm.Page, &page); err != nil {
		return nil, fmt.Errorf("warm-up table page: %w", err)
	}
	s := NewState(noEngine{})
	s.env = &warmEvents{}
	s.Run, s.Loads, s.Ends = l, 1, 1
	if len(l.Report.Graphs) > 0 {
		s.showGraph(s.selectGraph(0), graphData{info: &info, page: &page, meta: &engine.MapMeta{N: page.Rows}})
	}
	return s, nil
}

// warmEvents is the event lock of a page nobody sees.
type warmEvents struct{ sync.RWMutex }

func (e *warmEvents) UnlockOnly()   { e.Unlock() }
func (e *warmEvents) UnlockRender() { e.Unlock() }

// noEngine is the engine of the warm-up's state: building the page asks
// nothing of it, and anything else is refused.
type noEngine struct{}

var errWarmUp = errors.New("the warm-up page has no engine")

func (noEngine) FilesOf(vugu.DOMEvent) Files { return nil }
func (noEngine) Analyze(context.Context, string, Files, func(engine.Progress)) ([]byte, error) {
	return nil, errWarmUp
}
func (noEngine) Query(string, any, any) error                         { return errWarmUp }
func (noEngine) ShowMap(string, int, string) (*engine.MapMeta, error) { return nil, errWarmUp }
func (noEngine) ShowPool(string, int) (*engine.MapMeta, error)        { return nil, errWarmUp }
func (noEngine) MarkOnMap(int)                                        {}
func (noEngine) Rendered()                                            {}
func (noEngine) Reveal(string)                                        {}
func (noEngine) NextFrame()                                           {}
func (noEngine) Sample() Files                                        { return nil }
func (noEngine) Hash() string                                         { return "" }
func (noEngine) SetHash(string)                                       {}
func (noEngine) Download(string, string) error                        { return errWarmUp }
func (noEngine) OpenPerfetto(string) (string, error)                  { return "", errWarmUp }
