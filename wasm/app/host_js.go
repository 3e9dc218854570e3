//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"syscall/js"

	"github.com/vugu/vugu"

	"imas/ui"
	"imas/wasm/engine"
)

// perfettoTrace is the Perfetto output of export.Outputs.
const perfettoTrace = "imas_graph_perfetto.json"

// host is ui.Engine in the browser: the engine client plus the page's
// scripts (page.js, memmap.js, ui/perfetto/open.js).
type host struct {
	c    *engine.Client
	page js.Value // window.imasPage
	mapJ js.Value // window.imasMap

	mu     sync.Mutex
	traces map[string]js.Value // slot → Perfetto trace ArrayBuffer, kept for a second click
}

func newHost(c *engine.Client) *host {
	g := js.Global()
	return &host{c: c, page: g.Get("imasPage"), mapJ: g.Get("imasMap"), traces: map[string]js.Value{}}
}

// files is a JS array of {file, name}.
type files struct{ v js.Value }

func (f files) Len() int { return f.v.Length() }

// listen routes drops and map clicks to the state. Callbacks only start
// goroutines: the state takes the event lock, which may be held.
func (h *host) listen(st *ui.State) {
	h.page.Set("ondrop", js.FuncOf(func(_ js.Value, a []js.Value) any {
		go st.Dropped(a[0].String(), files{a[1]})
		return nil
	}))
	h.page.Set("onescape", js.FuncOf(func(js.Value, []js.Value) any {
		go st.Escape()
		return nil
	}))
	h.mapJ.Set("onstep", js.FuncOf(func(_ js.Value, a []js.Value) any {
		go st.Stepped(int64(a[0].Float()))
		return nil
	}))
	h.mapJ.Set("onpick", js.FuncOf(func(_ js.Value, a []js.Value) any {
		go st.Picked(a[0].Int())
		return nil
	}))
}

func (h *host) FilesOf(e vugu.DOMEvent) ui.Files {
	input := js.Value(e.JSEventTarget())
	f := files{h.page.Call("files", input.Get("files"))}
	input.Set("value", "") // choosing the same files again is a new change
	return f
}

func (h *host) Analyze(ctx context.Context, slot string, f ui.Files, progress func(engine.Progress)) ([]byte, error) {
	h.mu.Lock()
	delete(h.traces, slot)
	h.mu.Unlock()
	view, err := h.c.Analyze(ctx, slot, f.(files).v, progress)
	// The page's timeline shows when the engine answered (DevTools, and
	// the benchmark, which tells the parse from the final render).
	js.Global().Get("performance").Call("mark", "imas-analysed")
	return view, err
}

func (h *host) Query(op string, arg, out any) error { return h.c.Query(op, arg, out) }

func (h *host) ShowMap(slot string, graph int, colorBy string) (*engine.MapMeta, error) {
	return h.show("map", map[string]any{"slot": slot, "graph": graph, "color": colorBy})
}

func (h *host) ShowPool(slot string, pool int) (*engine.MapMeta, error) {
	return h.show("poolmap", map[string]any{"slot": slot, "pool": pool})
}

// show fetches a map and hands its buffer to memmap.js; Go keeps the meta.
func (h *host) show(op string, arg any) (*engine.MapMeta, error) {
	meta, buf, err := h.c.Binary(op, arg)
	if err != nil {
		return nil, err
	}
	var m engine.MapMeta
	if err := json.Unmarshal(meta, &m); err != nil {
		return nil, err
	}
	h.mapJ.Call("show", string(meta), buf)
	return &m, nil
}

func (h *host) MarkOnMap(row int) { h.mapJ.Call("mark", row) }

func (h *host) Rendered() {
	h.mapJ.Call("attach")
	h.page.Call("widths")
}

func (h *host) Reveal(selector string) { h.page.Call("reveal", selector) }

// NextFrame waits for an animation frame and then a task: by then the
// frame has been painted. A hidden tab gets no frames, hence the timer.
func (h *host) NextFrame() {
	g := js.Global()
	done := make(chan struct{}, 1)
	var frame, task js.Func
	task = js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case done <- struct{}{}:
		default:
		}
		return nil
	})
	var after js.Value
	frame = js.FuncOf(func(js.Value, []js.Value) any {
		after = g.Call("setTimeout", task, 0)
		return nil
	})
	raf, timer := g.Call("requestAnimationFrame", frame), g.Call("setTimeout", task, 250)
	<-done
	// Whichever way ended the wait, the other may not call back once the
	// functions are released.
	g.Call("cancelAnimationFrame", raf)
	g.Call("clearTimeout", timer)
	if !after.IsUndefined() {
		g.Call("clearTimeout", after)
	}
	frame.Release()
	task.Release()
}

// Sample is the log page.js makes of the page's built-in sample, or nil.
func (h *host) Sample() ui.Files {
	v := h.page.Call("sample")
	if v.Type() != js.TypeObject || v.Length() == 0 {
		return nil
	}
	return files{v}
}

func (h *host) Hash() string {
	return js.Global().Get("location").Get("hash").String()
}

func (h *host) SetHash(hash string) { h.page.Call("sethash", hash) }

func (h *host) output(slot, name string) (js.Value, string, error) {
	meta, buf, err := h.c.Binary("output", map[string]string{"slot": slot, "name": name})
	if err != nil {
		return js.Undefined(), "", err
	}
	var mime string
	err = json.Unmarshal(meta, &mime)
	return buf, mime, err
}

func (h *host) Download(slot, name string) error {
	buf, mime, err := h.output(slot, name)
	if err == nil {
		h.page.Call("save", buf, name, mime)
	}
	return err
}

func (h *host) OpenPerfetto(slot string) (string, error) {
	open := js.Global().Get("imasOpenPerfetto")
	if open.Type() != js.TypeFunction {
		return "", errors.New("this page was built without ui/perfetto/open.js")
	}
	h.mu.Lock()
	trace, ok := h.traces[slot]
	h.mu.Unlock()
	if !ok {
		var err error
		if trace, _, err = h.output(slot, perfettoTrace); err != nil {
			return "", err
		}
		h.mu.Lock()
		h.traces[slot] = trace
		h.mu.Unlock()
	}
	res, err := engine.Await(open.Invoke(trace, "imas memory", perfettoTrace))
	if err != nil {
		return "", err
	}
	status := res.Get("status").String()
	if r := res.Get("reason"); r.Type() == js.TypeString {
		status += ":" + r.String()
	}
	return status, nil
}
