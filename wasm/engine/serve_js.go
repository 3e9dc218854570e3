//go:build js && wasm

package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"imas/core"
	"imas/core/input"
)

type server struct {
	port   js.Value
	s      *Session
	cancel sync.Map // request id → context.CancelFunc of a running analysis

	warm       sync.Mutex // held by a running warm-up
	stopWarmUp atomic.Pointer[context.CancelFunc]
	analysing  atomic.Bool // an analysis has started: no more warm-up

	parsed parseCounts // chunks each parse worker parsed
}

// MemoryLimit is the engine's soft limit on its Go memory
// (runtime/debug.SetMemoryLimit). A WebAssembly memory never shrinks, so
// the tab holds whatever the heap once reached, and left to itself Go lets
// the heap grow to twice what is live before it collects: for a 2 GB plog
// folder, whose report holds about 380 MB, that takes the tab over 1 GB. Near the
// limit the collector runs more often (at most half the CPU time, Go's own
// bound), so the heap stays near the larger of the limit and what is live;
// smaller inputs never reach it.
const MemoryLimit = 512 << 20

// Serve answers requests arriving on port — the worker's global scope, or
// one end of a MessageChannel when the engine runs in the page's thread —
// and never returns.
func Serve(port js.Value) {
	debug.SetMemoryLimit(MemoryLimit)
	sv := &server{port: port, s: NewSession()}
	sv.s.Parser, sv.s.Parsers = workerParser(&sv.parsed)
	port.Set("onmessage", js.FuncOf(func(_ js.Value, a []js.Value) any {
		// Handlers await promises (file reads), so they must not run on
		// the JS callback's stack.
		go sv.handle(a[0].Get("data"))
		return nil
	}))
	if port.Get("start").Type() == js.TypeFunction {
		port.Call("start") // a MessagePort delivers only once started
	}
	port.Call("postMessage", map[string]any{"kind": "ready"})
	select {}
}

func (sv *server) reply(id int, kind string, v any, buf js.Value) {
	text, err := json.Marshal(v)
	if err != nil {
		kind, text = "error", []byte(fmt.Sprintf("%q", err.Error()))
	}
	msg := map[string]any{"id": id, "kind": kind, "json": string(text)}
	if buf.Truthy() {
		msg["buf"] = buf
		sv.port.Call("postMessage", msg, []any{buf})
		return
	}
	sv.port.Call("postMessage", msg)
}

func (sv *server) handle(req js.Value) {
	id := req.Get("id").Int()
	op := req.Get("op").String()
	var arg struct {
		Slot   string       `json:"slot"`
		Graph  int          `json:"graph"`
		Pool   int          `json:"pool"`
		Row    int          `json:"row"`
		Step   int64        `json:"step"`
		Key    string       `json:"key"`
		Name   string       `json:"name"`
		Color  string       `json:"color"`
		Target int          `json:"target"` // request id to cancel
		Query  *TensorQuery `json:"query"`
		Size   int          `json:"size"`      // of the warm-up log
		Rows   int          `json:"page_size"` // of the warm-up's table page
	}
	if a := req.Get("arg"); a.Type() == js.TypeString {
		if err := json.Unmarshal([]byte(a.String()), &arg); err != nil {
			sv.reply(id, "error", err.Error(), js.Undefined())
			return
		}
	}
	if op == "cancel" {
		if c, ok := sv.cancel.Load(arg.Target); ok {
			c.(context.CancelFunc)()
			// Every parse worker stops at once (a chunk of another
			// analysis it held is parsed here instead).
			if stop := js.Global().Get("imasParseCancel"); stop.Type() == js.TypeFunction {
				stop.Invoke()
			}
		}
		return
	}
	if op == "analyze" {
		sv.analyze(id, arg.Slot, req.Get("files"))
		return
	}
	if op == "warmup" {
		sv.warmUp(id, arg.Size, arg.Rows)
		return
	}
	var out any
	buf := js.Undefined()
	var err error
	switch op {
	case "view":
		out, err = sv.s.View(arg.Slot)
	case "tensors":
		if arg.Query == nil {
			err = fmt.Errorf("tensors: no query")
			break
		}
		out, err = sv.s.Tensors(*arg.Query)
	case "graph":
		out, err = sv.s.Graph(arg.Slot, arg.Graph)
	case "tensor":
		out, err = sv.s.Tensor(arg.Slot, arg.Graph, arg.Row)
	case "find":
		out, err = sv.s.Find(arg.Slot, arg.Graph, arg.Key)
	case "at":
		out, err = sv.s.At(arg.Slot, arg.Graph, arg.Step)
	case "map":
		var b []byte
		out, b, err = sv.s.Map(arg.Slot, arg.Graph, arg.Color)
		if err == nil {
			buf = bufferOf(b)
		}
	case "diff":
		out, err = sv.s.Diff()
	case "poolmap":
		var b []byte
		out, b, err = sv.s.PoolMap(arg.Slot, arg.Pool)
		if err == nil {
			buf = bufferOf(b)
		}
	case "output":
		var b []byte
		var mime string
		b, mime, err = sv.s.Output(arg.Slot, arg.Name)
		if err == nil {
			out, buf = mime, bufferOf(b)
		}
	default:
		err = fmt.Errorf("unknown request %q", op)
	}
	if err != nil {
		sv.reply(id, "error", err.Error(), js.Undefined())
		return
	}
	sv.reply(id, "done", out, buf)
}

// warmUp runs WarmUp on size bytes in pieces, going back to the event loop
// between them (the engine's Go code runs on the worker's one thread and
// blocks its messages while it runs), until an analysis stops it. Its
// answer carries the last piece's Sample for the page's own warm-up.
func (sv *server) warmUp(id, size, pageSize int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sv.stopWarmUp.Store(&cancel)
	sv.warm.Lock()
	defer sv.warm.Unlock()
	start := time.Now()
	const piece = 512 << 10
	done := 0
	var sample *Sample
	for ; done < size && ctx.Err() == nil && !sv.analysing.Load(); done += piece {
		sm, err := WarmUp(ctx, piece, pageSize)
		if err != nil {
			break
		}
		sample = sm
		time.Sleep(time.Millisecond) // lets a waiting request in
	}
	sv.reply(id, "done", map[string]any{"bytes": min(done, size), "seconds": time.Since(start).Seconds(),
		"stopped": ctx.Err() != nil || sv.analysing.Load(), "sample": sample}, js.Undefined())
}

// progressEvery spaces progress messages: each one costs the page a render.
const progressEvery = 100 * time.Millisecond

func (sv *server) analyze(id int, slot string, files js.Value) {
	// A warm-up still running gives way; its compiled code is what it was
	// for.
	sv.analysing.Store(true)
	if stop := sv.stopWarmUp.Load(); stop != nil {
		(*stop)()
	}
	sv.warm.Lock()
	//lint:ignore SA2001 the lock is taken only to wait for a running warm-up piece to end
	sv.warm.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	sv.cancel.Store(id, cancel)
	defer func() {
		sv.cancel.Delete(id)
		cancel()
	}()
	// Each file counts its own bytes read: the progress names the file
	// being read and how far it is.
	counts := readCounts{files: make([]atomic.Int64, files.Length())}
	reads := counts.files
	var srcs []input.Source
	p := Progress{Inputs: len(reads)}
	for i := range reads {
		f := files.Index(i)
		srcs = append(srcs, fileSource(ctx, f.Get("file"), f.Get("name").String(), &counts, i))
		p.Total += srcs[i].Size
	}
	start := time.Now()
	last := start
	parsed0, stalled0 := sv.parsed.snapshot(), parseStalls()
	seen := make([]int64, len(reads)) // each file's bytes read at the last message
	var rate recentRate
	early := &EarlyList{}
	if js.Global().Get("imasNoEarly").Truthy() { // ?early=0: analysed at the end, none shown before
		early = nil
	}
	earlyShown, earlyAt, ended := 0, start, false
	progress := func(now time.Time) {
		p.Read, p.InputsDone = 0, 0
		cur := -1
		for i := range reads {
			r := reads[i].Load()
			p.Read += r
			done := r >= srcs[i].Size
			if done {
				p.InputsDone++
			}
			if r != seen[i] && (cur < 0 || !done && seen[cur] >= srcs[cur].Size) {
				cur = i // the first that moved, one still being read first
			}
			seen[i] = r
		}
		if cur >= 0 {
			p.Input, p.InputRead, p.InputSize = srcs[cur].Name, seen[cur], srcs[cur].Size
		}
		p.Seconds, p.Inflated = now.Sub(start).Seconds(), counts.inflated.Load()
		p.Rate = rate.add(p.Seconds, p.Read)
		p.Stalled = parseStalls() - stalled0
		p.ReaderStalled = readerStalled()
		p.Early = nil
		if !ended && (now.Sub(earlyAt) >= EarlyEvery || earlyShown == 0) {
			if e, v := early.Snapshot(earlyShown); e != nil {
				p.Early, earlyShown, earlyAt = e, v, now
			}
		}
		if len(parsed0) > 0 {
			p.Parsed = sv.parsed.snapshot()
			for i := range p.Parsed {
				p.Parsed[i] -= parsed0[i]
			}
		}
		sv.reply(id, "progress", p, js.Undefined())
	}
	// The core reports as it reads; while it builds and analyses what it
	// read (at the end, or while the reads wait for it) a message a
	// second keeps the time and the finished graphs moving.
	var mu sync.Mutex
	report := func(cp *core.Progress, every time.Duration) {
		mu.Lock()
		if cp != nil {
			p.Progress = *cp
		}
		if now := time.Now(); !ended && now.Sub(last) >= every {
			last = now
			progress(now)
		}
		mu.Unlock()
	}
	go func() {
		for ctx.Err() == nil { // ended by the deferred cancel
			time.Sleep(EarlyEvery)
			report(nil, EarlyEvery)
		}
	}()
	run, err := sv.s.AnalyzeShowing(ctx, slot, srcs, func(cp core.Progress) { report(&cp, progressEvery) }, early)
	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		sv.reply(id, "error", err.Error(), js.Undefined())
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p.GoSys = ms.Sys
	ended = true // no more messages but this one; the results replace the early graphs
	finalCounts(&p.Progress, run)
	p.Early = nil
	progress(time.Now())
	v, err := sv.s.View(slot)
	if err != nil {
		sv.reply(id, "error", err.Error(), js.Undefined())
		return
	}
	sv.reply(id, "done", v, js.Undefined())
}
