// Package wire is the byte encoding of what the parse workers of the page
// hand to the engine (core's chunk codec, the row tape's and the records'):
// varints, length-prefixed strings and raw byte runs. A Reader keeps the
// first error and returns zeros after it, so that decoders check once, at
// the end, and damaged input can never make them index out of range.
package wire

import (
	"encoding/binary"
	"errors"
)

// ErrDamaged is what a Reader reports for input that ends early or holds
// an impossible length.
var ErrDamaged = errors.New("wire: damaged encoding")

// AppendUvarint, AppendVarint, AppendString and AppendBytes append one
// value to b. They are not inlined: each inlined copy of a varint loop is
// bytes of the page, whose wasm has a size budget.
//
//go:noinline
func AppendUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

//go:noinline
func AppendVarint(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

//go:noinline
func AppendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

//go:noinline
func AppendBytes(b, p []byte) []byte { return append(binary.AppendUvarint(b, uint64(len(p))), p...) }

// AppendBool appends v as one byte.
//
//go:noinline
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// Reader reads values in the order they were appended.
type Reader struct {
	b   []byte
	err error
}

// NewReader reads b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Err is the first error met, or nil.
func (r *Reader) Err() error { return r.err }

// Len is the number of bytes not read yet.
func (r *Reader) Len() int { return len(r.b) }

func (r *Reader) fail() {
	if r.err == nil {
		r.err = ErrDamaged
	}
	r.b = nil
}

func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *Reader) Varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *Reader) Bool() bool {
	if len(r.b) == 0 {
		r.fail()
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	if v > 1 {
		r.fail()
	}
	return v == 1
}

// Count reads a number of items each at least min bytes long, and fails
// when the rest of the input cannot hold that many (so a damaged count
// cannot make a decoder allocate without bound).
func (r *Reader) Count(min int) int {
	n := r.Uvarint()
	if n > uint64(len(r.b)/max(min, 1)) {
		r.fail()
		return 0
	}
	return int(n)
}

// Bytes returns the next length-prefixed run; it aliases the input.
func (r *Reader) Bytes() []byte {
	n := r.Uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

// String returns the next length-prefixed run as a new string.
func (r *Reader) String() string {
	p := r.Bytes()
	if len(p) == 0 {
		return ""
	}
	return string(p)
}

// Raw returns the next n bytes; it aliases the input.
func (r *Reader) Raw(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.fail()
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}
