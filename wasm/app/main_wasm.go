//go:build js && wasm

// Command app is the page's program. The same wasm runs twice: in the page
// it is the vugu UI, and in the Web Worker that page.js starts (no
// document there) it is the analysis engine, so the page never freezes
// while logs are parsed.
package main

import (
	"encoding/json"
	"strconv"
	"syscall/js"
	"time"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"

	"imas/ui"
	"imas/wasm/engine"
)

// queryMiB reads ?name=MiB from the page's address, or returns def MiB.
// The warm-up (engine.WarmUp) analyses ?warmup= MiB of synthetic log at
// start, 8 by default, so that the browser has optimised its code before
// the first real analysis.
func queryMiB(g js.Value, name string, def int) int {
	q := g.Get("URLSearchParams").New(g.Get("location").Get("search")).Call("get", name)
	if q.Type() == js.TypeString {
		if n, err := strconv.Atoi(q.String()); err == nil && n >= 0 {
			return n << 20
		}
	}
	return def << 20
}

func main() {
	g := js.Global()
	if g.Get("document").IsUndefined() {
		if g.Get("imasParseWorker").Truthy() {
			engine.ServeParse(g) // one of the engine's parse workers
		}
		engine.Serve(g)
	}
	if p := g.Get("imasEnginePort"); p.Truthy() {
		go engine.Serve(p) // ?engine=page: the engine shares the page's thread
	}
	client := engine.NewClient(g.Get("imasEngine"))
	go warmUp(g, client)
	h := newHost(client)
	st := ui.NewState(h)
	root := &ui.Root{S: st}

	renderer, err := domrender.New("#vugu_mount_point")
	if err != nil {
		panic(err)
	}
	env, err := vugu.NewBuildEnv(renderer.EventEnv())
	if err != nil {
		panic(err)
	}
	for first := true; first || renderer.EventWait(); first = false {
		br := env.RunBuild(root)
		ui.TextNodes(br) // text cells are set as text, not parsed as HTML
		if err := renderer.Render(br); err != nil {
			panic(err)
		}
		if first {
			h.listen(st) // the state has its event environment now
		}
	}
}

// warmUp runs the engine's warm-up, then the page's own on its sample
// (ui.WarmUp), unless files came first, and puts on <html> data-warm what
// they did, for the benchmarks: {"bytes", "seconds", "stopped", "page_ms"}.
func warmUp(g js.Value, client *engine.Client) {
	raw, err := client.WarmUp(queryMiB(g, "warmup", 8), ui.PageSize)
	if err != nil {
		return
	}
	var done struct {
		Bytes   int            `json:"bytes"`
		Seconds float64        `json:"seconds"`
		Stopped bool           `json:"stopped"`
		Sample  *engine.Sample `json:"sample,omitempty"`
		PageMs  float64        `json:"page_ms"`
	}
	if json.Unmarshal(raw, &done) != nil {
		return
	}
	if !done.Stopped && done.Sample != nil {
		start := time.Now()
		// Three builds: one compiles, the next ones make the code hot
		// enough to be optimised; a pause between lets clicks in.
		if ui.WarmUp(done.Sample, 3, func() { time.Sleep(time.Millisecond) }) == nil {
			done.PageMs = float64(time.Since(start).Microseconds()) / 1000
		}
	}
	done.Sample = nil
	if b, err := json.Marshal(done); err == nil {
		g.Get("document").Get("documentElement").Call("setAttribute", "data-warm", string(b))
	}
}
