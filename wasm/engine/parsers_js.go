//go:build js && wasm

package engine

import (
	"bytes"
	"context"
	"sync/atomic"
	"syscall/js"
	"time"

	"imas/core"
)

// The page parses on every core: page.js starts parse workers next to the
// engine's (the same wasm, a Web Worker each; imasParse hands them
// requests), and the engine's pipeline sends them its chunks (core's
// ChunkParser): the reading, the order of the chunks, the merge and the
// analyses stay in the engine, so the report is the one a single thread
// gives.

// workerParser returns the parser that sends chunks to page.js's parse
// workers and their number, or nil and 0 when there are none.
func workerParser(counts *parseCounts) (core.ChunkParser, int) {
	g := js.Global()
	parse := g.Get("imasParse")
	if parse.Type() != js.TypeFunction {
		return nil, 0
	}
	n := g.Get("imasParsers").Int()
	if n <= 0 {
		return nil, 0
	}
	counts.n = make([]atomic.Int64, n)
	buffer := g.Get("imasParseBuffer")
	return func(ctx context.Context, head, data []byte) ([]byte, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// One copy into a buffer the worker hands back with its answer.
		req := buffer.Invoke(len(head) + len(data))
		js.CopyBytesToJS(req.Call("subarray", 0, len(head)), head)
		js.CopyBytesToJS(req.Call("subarray", len(head)), data)
		got, err := Await(parse.Invoke(req))
		if err != nil {
			return nil, err
		}
		b := got.Get("b")
		out := make([]byte, b.Length())
		js.CopyBytesToGo(out, b)
		if w := got.Get("w").Int(); w >= 0 && w < len(counts.n) {
			counts.n[w].Add(1)
		}
		return out, nil
	}, n
}

// parseStalls is how many times page.js's watchdog gave up a parse worker
// that held chunks and did not answer.
func parseStalls() int {
	if v := js.Global().Get("imasParseStalls"); v.Type() == js.TypeNumber {
		return v.Int()
	}
	return 0
}

// parseCounts counts the chunks each parse worker parsed.
type parseCounts struct{ n []atomic.Int64 }

func (c *parseCounts) snapshot() []int64 {
	out := make([]int64, len(c.n))
	for i := range c.n {
		out[i] = c.n[i].Load()
	}
	return out
}

// ServeParse is a parse worker: on its port to the engine
// (imasParsePort, a MessagePort from the page; else its global scope) it
// answers {id, b: request bytes} with {id, b: the parsed chunk, back: the
// request's buffer} (both transferred), and never returns. While no
// request has come it warms up on 6 MiB of a synthetic log
// (imasParseWarmUp bytes, if set), as the engine does (warmup.go), so
// that its first chunks run optimised code.
func ServeParse(scope js.Value) {
	port := scope
	if p := scope.Get("imasParsePort"); p.Truthy() {
		port = p
	}
	var w core.ChunkWorker
	var buf []byte
	var busy atomic.Bool // a request came: the warm-up stops
	reqs := make(chan js.Value, 16)
	port.Set("onmessage", js.FuncOf(func(_ js.Value, a []js.Value) any {
		busy.Store(true)
		m := a[0].Get("data")
		select {
		case reqs <- m:
		default: // never with page.js's two requests a worker, but a callback must not block
			go func() { reqs <- m }()
		}
		return nil
	}))
	size := 6 << 20
	if v := scope.Get("imasParseWarmUp"); v.Type() == js.TypeNumber {
		size = v.Int() // 0 with ?warmup=0
	}
	go warmParser(&w, size, &busy)
	ready := js.Global().Get("Object").New()
	ready.Set("kind", "ready")
	port.Call("postMessage", ready)
	for m := range reqs {
		in := m.Get("b")
		n := in.Length()
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		js.CopyBytesToGo(buf, in)
		out, err := w.Parse(buf)
		answer(port, m.Get("id"), out, err, in.Get("buffer"))
	}
}

// answer posts a parse worker's answer: the parsed chunk or the error, and
// the request's buffer back, both transferred.
func answer(port, id js.Value, out []byte, err error, back js.Value) {
	msg := js.Global().Get("Object").New()
	msg.Set("id", id)
	msg.Set("back", back)
	transfer := js.Global().Get("Array").New()
	transfer.Call("push", back)
	if err != nil {
		msg.Set("err", err.Error())
	} else {
		b := bufferOf(out)
		msg.Set("b", b)
		transfer.Call("push", b)
	}
	port.Call("postMessage", msg, transfer)
}

// warmParser parses size bytes of the warm-up log in pieces of whole
// lines, yielding between them, until a request comes.
func warmParser(w *core.ChunkWorker, size int, busy *atomic.Bool) {
	const piece = 512 << 10
	if size <= 0 {
		return
	}
	log := warmUpLog(size)
	for len(log) > 0 && !busy.Load() {
		end := min(piece, len(log))
		if i := bytes.LastIndexByte(log[:end], '\n'); i >= 0 {
			end = i + 1
		}
		req := core.AppendChunkRequest(nil, core.ChunkRequest{Data: log[:end], MaxLine: 64 << 10})
		if _, err := w.Parse(req); err != nil {
			return
		}
		log = log[end:]
		time.Sleep(time.Millisecond) // lets a request in
	}
}
