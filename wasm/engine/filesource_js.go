//go:build js && wasm

package engine

import (
	"context"
	"io"
	"sync/atomic"
	"syscall/js"

	"imas/core/input"
)

// ReadChunk is how much of a File one read asks the browser for: large
// enough that the per-read cost (an IPC round trip) is small, small enough
// that memory stays bounded (§5.3 of the stack notes: 16 MiB ≈ 145 MB/s).
const ReadChunk = 16 << 20

// fileSource makes a browser File an input.Source. read counts the bytes
// handed to the core, for the progress bar's ETA. Reads fail once ctx is
// done, so a cancel stops even a file with no line end in sight.
func fileSource(ctx context.Context, file js.Value, name string, read, inflated *atomic.Int64) input.Source {
	size := int64(file.Get("size").Float())
	src := input.Source{Name: name, Size: size, Open: func() (io.ReadCloser, error) {
		return &fileReader{ctx: ctx, file: file, size: size, read: read, key: readerKeys.Add(1)}, nil
	}}
	// A gzip File is inflated by the browser in the reader worker where it
	// can (page.js imasInflate); input falls back to Go's inflater where
	// the browser's stops (a second gzip member, damage).
	if js.Global().Get("imasInflate").Type() == js.TypeFunction {
		src.Inflate = func() (input.HostInflater, error) {
			return &hostInflater{ctx: ctx, file: file, read: read, inflated: inflated}, nil
		}
	}
	return src
}

// fileReader reads a File in ReadChunk slices. The next slice is requested
// before the current one is handed over, so the reader worker reads it
// while Go parses. Bytes go from the slice's buffer straight into the caller's
// (one copy, not two: a copy of 200 MB in Go's wasm code is tens of ms).
type fileReader struct {
	ctx       context.Context
	file      js.Value
	size, off int64    // off: start of the next slice to request
	next      js.Value // promise of that slice, or undefined
	cur       js.Value // current slice (a Uint8Array), consumed from pos
	pos, n    int      // n: its length
	started   bool
	read      *atomic.Int64
	key       int64 // tells the reader worker which byte stream goes on
}

// readerKeys numbers fileReaders.
var readerKeys atomic.Int64

// request asks for the next slice: from the reader worker page.js starts
// next to the engine's (imasReadSlice), so that the browser reads while Go
// parses, or, where there is none, from this thread.
func (r *fileReader) request() {
	if r.off >= r.size {
		r.next = js.Undefined()
		return
	}
	end := min(r.off+ReadChunk, r.size)
	if rs := js.Global().Get("imasReadSlice"); rs.Type() == js.TypeFunction {
		r.next = rs.Invoke(r.file, r.off, end, r.key) // a Uint8Array
	} else {
		r.next = r.file.Call("slice", r.off, end).Call("arrayBuffer")
	}
	r.off = end
}

func (r *fileReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if r.pos == r.n {
		if !r.started {
			r.started = true
			r.request()
		}
		if r.next.IsUndefined() {
			return 0, io.EOF
		}
		got, err := Await(r.next)
		if err != nil {
			return 0, err
		}
		r.giveBack()
		r.request()
		if got.InstanceOf(js.Global().Get("Uint8Array")) {
			r.cur = got
		} else {
			r.cur = js.Global().Get("Uint8Array").New(got) // an ArrayBuffer
		}
		r.pos, r.n = 0, r.cur.Length()
		if r.n == 0 {
			return 0, nil
		}
	}
	n := min(len(p), r.n-r.pos)
	js.CopyBytesToGo(p[:n], r.cur.Call("subarray", r.pos, r.pos+n))
	r.pos += n
	r.read.Add(int64(n))
	return n, nil
}

// giveBack hands the slice read last, all copied by now, back to the reader
// worker for the next reads (imasReturnSlice; without it the collector
// takes it).
func (r *fileReader) giveBack() {
	if r.cur.IsUndefined() || r.cur.IsNull() {
		return
	}
	if rs := js.Global().Get("imasReturnSlice"); rs.Type() == js.TypeFunction {
		rs.Invoke(r.cur)
	}
	r.cur = js.Undefined()
}

func (r *fileReader) Close() error {
	r.giveBack()
	r.cur, r.next, r.pos, r.n = js.Undefined(), js.Undefined(), 0, 0
	return nil
}

// hostInflater reads a gzip File decompressed by the reader worker
// (imasInflate), in pieces of up to ReadChunk bytes, the next one asked for
// before the current one is handed over, as fileReader does.
type hostInflater struct {
	ctx        context.Context
	file       js.Value
	next       js.Value // promise of the next piece, or undefined
	cur        js.Value // current piece, consumed from pos
	pos, n     int
	comp, prev int64 // compressed bytes consumed by the worker; prev: counted in read
	started    bool
	done       bool
	read       *atomic.Int64
	inflated   *atomic.Int64 // text delivered, for Progress.Inflated
}

func (h *hostInflater) request(mode string) {
	h.next = js.Global().Get("imasInflate").Invoke(h.file, mode, ReadChunk)
}

func (h *hostInflater) Read(p []byte) (int, error) {
	if err := h.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if h.pos == h.n {
		if h.done {
			return 0, io.EOF
		}
		if !h.started {
			h.started = true
			h.request("start")
		}
		got, err := Await(h.next)
		h.next = js.Undefined()
		if err != nil {
			return 0, err
		}
		h.giveBack()
		h.cur = got.Get("b")
		h.comp = int64(got.Get("c").Float())
		h.read.Add(h.comp - h.prev) // the progress bar counts File bytes
		h.prev = h.comp
		h.pos, h.n = 0, h.cur.Length()
		if h.n == 0 {
			h.done = true
			return 0, io.EOF
		}
		h.request("next")
	}
	n := min(len(p), h.n-h.pos)
	js.CopyBytesToGo(p[:n], h.cur.Call("subarray", h.pos, h.pos+n))
	h.pos += n
	h.inflated.Add(int64(n))
	return n, nil
}

func (h *hostInflater) Compressed() int64 { return h.comp }

func (h *hostInflater) giveBack() {
	if h.cur.IsUndefined() || h.cur.IsNull() {
		return
	}
	if rs := js.Global().Get("imasReturnSlice"); rs.Type() == js.TypeFunction {
		rs.Invoke(h.cur)
	}
	h.cur = js.Undefined()
}

// Close gives the last piece back and lets the worker drop the stream
// (a piece still asked for is dropped when it comes).
func (h *hostInflater) Close() error {
	h.giveBack()
	if h.started && !h.done {
		js.Global().Get("imasInflate").Invoke(h.file, "stop", 0)
		h.done = true
	}
	h.next, h.pos, h.n = js.Undefined(), 0, 0
	return nil
}
