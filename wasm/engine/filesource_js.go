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
// that memory stays bounded.
const ReadChunk = 16 << 20

// fileSource makes a browser File an input.Source. A File is random
// access, like a file on disk: the core reads the head of each file first
// and then reads the files side by side in the order of their records,
// which keeps about a chunk per process waiting, not every chunk of the
// run (input.Source.RandomAccess). c.files[i] counts the bytes of this
// File (the i-th) handed to the core, for the progress bar's file line and
// ETA: each byte once, however often its start is read. Reads fail once ctx is done, so a cancel stops
// even a file with no line end in sight.
func fileSource(ctx context.Context, file js.Value, name string, c *readCounts, i int) input.Source {
	size := int64(file.Get("size").Float())
	furthest := &c.files[i]
	src := input.Source{Name: name, Size: size, RandomAccess: true, Open: func() (io.ReadCloser, error) {
		return &fileReader{ctx: ctx, file: file, size: size, counts: c, furthest: furthest, key: readerKeys.Add(1)}, nil
	}}
	// A gzip File is inflated by the browser in the reader worker where it
	// can (page.js imasInflate); input falls back to Go's inflater where
	// the browser's stops (a second gzip member, damage).
	if js.Global().Get("imasInflate").Type() == js.TypeFunction {
		src.Inflate = func() (input.HostInflater, error) {
			return &hostInflater{ctx: ctx, file: file, read: furthest, inflated: &c.inflated}, nil
		}
	}
	return src
}

// fileReader reads a File in slices of up to ReadChunk bytes. From the
// second slice on, the next slice is requested before the current one is
// handed over, so the reader worker reads it while Go parses. The first
// is as large as the first Read asks (at least minSlice) and nothing is
// read ahead of it: the core reads the head of every file before the run
// (256 KiB), and a read ahead there would read much of a folder twice.
// While other Files are being read (side by side), slices are sideSlice
// bytes: each open reader holds its slice and the next one. Bytes go from
// the slice's buffer straight into the caller's (one copy, not two: a copy
// of 200 MB in Go's wasm code is tens of ms).
type fileReader struct {
	ctx       context.Context
	file      js.Value
	size, off int64    // off: start of the next slice to request
	next      js.Value // promise of that slice, or undefined
	piece              // the current slice
	slices    int      // slices requested
	open      bool     // counted in counts.open
	taken     int64    // bytes handed over
	counts    *readCounts
	furthest  *atomic.Int64 // of the File's bytes, those handed to the core
	key       int64         // tells the reader worker which byte stream goes on
}

// readerKeys numbers fileReaders.
var readerKeys atomic.Int64

// readCounts are an analysis' counts of its Files' reads.
type readCounts struct {
	files    []atomic.Int64 // each File's bytes handed to the core, each once
	inflated atomic.Int64   // text of .gz Files the browser inflated
	// open counts the fileReaders that have read and not reached their
	// end nor been closed.
	open atomic.Int64
}

const (
	// minSlice is the smallest first slice.
	minSlice = 64 << 10
	// sideSlice is the slice size while several Files are being read:
	// the core's chunk (input.ChunkSize), so that a file read side by side
	// holds about two chunks in the browser's memory.
	sideSlice = 4 << 20
)

// request asks for the next slice, of up to want bytes: from the reader
// worker page.js starts next to the engine's (imasReadSlice), so that the
// browser reads while Go parses, or, where there is none, from this thread.
func (r *fileReader) request(want int64) {
	if r.off >= r.size {
		r.next = js.Undefined()
		return
	}
	end := min(r.off+want, r.size)
	if rs := js.Global().Get("imasReadSlice"); rs.Type() == js.TypeFunction {
		r.next = rs.Invoke(r.file, r.off, end, r.key) // a Uint8Array
	} else {
		r.next = r.file.Call("slice", r.off, end).Call("arrayBuffer")
	}
	r.off = end
	r.slices++
}

// sliceSize is the size of the next slice after the first.
func (r *fileReader) sliceSize() int64 {
	if r.counts.open.Load() > 1 {
		return sideSlice
	}
	return ReadChunk
}

func (r *fileReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if r.pos == r.n {
		if r.slices == 0 {
			r.open = true
			r.counts.open.Add(1)
			r.request(min(max(int64(len(p)), minSlice), ReadChunk))
		} else if r.next.IsUndefined() {
			r.request(r.sliceSize()) // the second: none was read ahead
		}
		if r.next.IsUndefined() {
			r.close()
			return 0, io.EOF
		}
		got, err := Await(r.next)
		r.next = js.Undefined()
		if err != nil {
			return 0, err
		}
		r.giveBack() // first, so that the worker reads the next slice into it
		if r.slices > 1 {
			r.request(r.sliceSize())
		}
		if !got.InstanceOf(js.Global().Get("Uint8Array")) {
			got = js.Global().Get("Uint8Array").New(got) // an ArrayBuffer
		}
		if r.set(got) == 0 {
			return 0, nil
		}
	}
	n := r.take(p)
	r.taken += int64(n)
	if r.taken > r.furthest.Load() {
		r.furthest.Store(r.taken)
	}
	return n, nil
}

// close takes the reader out of counts.open.
func (r *fileReader) close() {
	if r.open {
		r.open = false
		r.counts.open.Add(-1)
	}
}

func (r *fileReader) Close() error {
	r.giveBack()
	r.next = js.Undefined()
	r.close()
	return nil
}

// piece is the Uint8Array a reader is consuming, from pos.
type piece struct {
	cur    js.Value
	pos, n int // n: its length
}

// set gives back the piece before and makes v the current one; it returns
// v's length.
func (c *piece) set(v js.Value) int {
	c.giveBack()
	c.cur, c.pos, c.n = v, 0, v.Length()
	return c.n
}

// take copies the next bytes of the piece into p (one copy: from the
// piece's buffer straight into the caller's).
func (c *piece) take(p []byte) int {
	n := min(len(p), c.n-c.pos)
	js.CopyBytesToGo(p[:n], c.cur.Call("subarray", c.pos, c.pos+n))
	c.pos += n
	return n
}

// giveBack hands the piece, all copied by now, back to the reader worker
// for the next reads (imasReturnSlice; without it the collector takes it).
func (c *piece) giveBack() {
	if !c.cur.IsUndefined() && !c.cur.IsNull() {
		if rs := js.Global().Get("imasReturnSlice"); rs.Type() == js.TypeFunction {
			rs.Invoke(c.cur)
		}
	}
	c.cur, c.pos, c.n = js.Undefined(), 0, 0
}

// hostInflater reads a gzip File decompressed by the reader worker
// (imasInflate), in pieces of up to ReadChunk bytes, the next one asked for
// before the current one is handed over, as fileReader does.
type hostInflater struct {
	ctx  context.Context
	file js.Value
	next js.Value // promise of the next piece, or undefined
	piece
	comp     int64 // compressed bytes consumed by the worker
	started  bool
	done     bool
	read     *atomic.Int64
	inflated *atomic.Int64 // text delivered, for Progress.Inflated
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
		h.comp = int64(got.Get("c").Float())
		if h.comp > h.read.Load() { // the progress bar counts File bytes, each once
			h.read.Store(h.comp)
		}
		if h.set(got.Get("b")) == 0 {
			h.done = true
			return 0, io.EOF
		}
		h.request("next")
	}
	n := h.take(p)
	h.inflated.Add(int64(n))
	return n, nil
}

func (h *hostInflater) Compressed() int64 { return h.comp }

// Close gives the last piece back and lets the worker drop the stream
// (a piece still asked for is dropped when it comes).
func (h *hostInflater) Close() error {
	h.giveBack()
	if h.started && !h.done {
		js.Global().Get("imasInflate").Invoke(h.file, "stop", 0)
		h.done = true
	}
	h.next = js.Undefined()
	return nil
}

// readerStalled reports whether page.js's watchdog gave up the reader
// worker (it held a read and answered nothing in time): Files are read in
// the engine's thread from then on.
func readerStalled() bool {
	return js.Global().Get("imasReadStalled").Truthy()
}
