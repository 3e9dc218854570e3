//go:build js && wasm

// Command app is the page's program. The same wasm runs twice: in the page
// it is the vugu UI, and in the Web Worker that page.js starts (no
// document there) it is the analysis engine, so the page never freezes
// while logs are parsed.
package main

import (
	"strconv"
	"syscall/js"

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
		engine.Serve(g)
	}
	if p := g.Get("imasEnginePort"); p.Truthy() {
		go engine.Serve(p) // ?engine=page: the engine shares the page's thread
	}
	client := engine.NewClient(g.Get("imasEngine"))
	go func() {
		// data-warm on <html> says what the warm-up did, for the benchmarks.
		if done, err := client.WarmUp(queryMiB(g, "warmup", 8)); err == nil {
			g.Get("document").Get("documentElement").Call("setAttribute", "data-warm", string(done))
		}
	}()
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
		if err := renderer.Render(env.RunBuild(root)); err != nil {
			panic(err)
		}
		if first {
			h.listen(st) // the state has its event environment now
		}
	}
}
