//go:build js && wasm

// Command app is the page's program. The same wasm runs twice: in the page
// it is the vugu UI, and in the Web Worker that page.js starts (no
// document there) it is the analysis engine, so the page never freezes
// while logs are parsed.
package main

import (
	"syscall/js"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"

	"imas/ui"
	"imas/wasm/engine"
)

func main() {
	g := js.Global()
	if g.Get("document").IsUndefined() {
		engine.Serve(g)
	}
	if p := g.Get("imasEnginePort"); p.Truthy() {
		go engine.Serve(p) // ?engine=page: the engine shares the page's thread
	}
	h := newHost(engine.NewClient(g.Get("imasEngine")))
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
