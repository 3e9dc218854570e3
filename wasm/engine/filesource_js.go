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
func fileSource(ctx context.Context, file js.Value, name string, read *atomic.Int64) input.Source {
	size := int64(file.Get("size").Float())
	return input.Source{Name: name, Size: size, Open: func() (io.ReadCloser, error) {
		return &fileReader{ctx: ctx, file: file, size: size, read: read}, nil
	}}
}

// fileReader reads a File in ReadChunk slices. The next slice is requested
// before the current one is handed over, so the browser reads while Go
// parses.
type fileReader struct {
	ctx       context.Context
	file      js.Value
	size, off int64    // off: start of the next slice to request
	next      js.Value // promise of that slice, or undefined
	buf       []byte   // current slice, consumed from pos
	pos       int
	read      *atomic.Int64
}

func (r *fileReader) request() {
	if r.off >= r.size {
		r.next = js.Undefined()
		return
	}
	end := min(r.off+ReadChunk, r.size)
	r.next = r.file.Call("slice", r.off, end).Call("arrayBuffer")
	r.off = end
}

func (r *fileReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	if r.pos == len(r.buf) {
		if r.buf == nil {
			r.request()
		}
		if r.next.IsUndefined() {
			return 0, io.EOF
		}
		ab, err := Await(r.next)
		if err != nil {
			return 0, err
		}
		r.request()
		u8 := js.Global().Get("Uint8Array").New(ab)
		if cap(r.buf) < u8.Length() {
			r.buf = make([]byte, u8.Length())
		}
		r.buf = r.buf[:u8.Length()]
		js.CopyBytesToGo(r.buf, u8)
		r.pos = 0
	}
	n := copy(p, r.buf[r.pos:])
	r.pos += n
	r.read.Add(int64(n))
	return n, nil
}

func (r *fileReader) Close() error {
	r.buf, r.next = nil, js.Undefined()
	return nil
}
