package input

import (
	"bytes"
	"hash/maphash"
	"io"
	"sync"
)

// ChunkSize is the size of the read buffers. Lines up to this long reach the
// parser whole; longer lines are cut by the chunker (see Chunk.Cut).
const ChunkSize = 4 << 20

// Chunk is a run of whole lines: Data ends with '\n' (one is added to a last
// line that lacked it).
type Chunk struct {
	Data []byte
	// Cut holds the byte offsets (in Data) of lines longer than ChunkSize whose
	// tail was skipped; those lines are Data[off:off+maxLine].
	Cut []int
	buf []byte
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, ChunkSize); return &b }}

// Release returns the chunk's buffer for reuse; Data must not be used after.
func (c *Chunk) Release() {
	if c.buf != nil {
		b := c.buf[:cap(c.buf)]
		bufPool.Put(&b)
		c.buf, c.Data = nil, nil
	}
}

// hashSeed is fixed per process: content hashes only compare inputs of one run.
var hashSeed = maphash.MakeSeed()

// ReadStats describes one leaf after Chunks returned.
type ReadStats struct {
	Bytes int64
	Hash  uint64 // content hash, for duplicate detection
}

// Chunks reads r to the end and calls fn with consecutive chunks of whole
// lines. Memory stays bounded by a few ChunkSize buffers whatever the line
// lengths. It returns the first read error (after handing over everything
// read before it) or fn's error.
func Chunks(r io.Reader, maxLine int, fn func(*Chunk) error) (ReadStats, error) {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	var st ReadStats
	bp := bufPool.Get().(*[]byte)
	buf := *bp
	fill := 0
	skipping := false
	var rerr error
	for rerr == nil {
		n, err := r.Read(buf[fill:])
		if n > 0 {
			h.Write(buf[fill : fill+n])
			st.Bytes += int64(n)
		}
		if err != nil {
			rerr = err
		}
		start := fill
		fill += n
		if skipping {
			nl := bytes.IndexByte(buf[start:fill], '\n')
			if nl < 0 {
				fill = start // discard
				continue
			}
			copy(buf[start:], buf[start+nl+1:fill])
			fill -= nl + 1
			skipping = false
		}
		if fill < len(buf) && rerr == nil && n > 0 {
			continue // keep filling the buffer: fewer, larger chunks
		}
		data := buf[:fill]
		last := bytes.LastIndexByte(data, '\n')
		var c *Chunk
		switch {
		case last >= 0:
			c = &Chunk{Data: data[:last+1], buf: buf}
		case fill == len(buf):
			// One line fills the whole buffer: keep its head, skip the rest.
			if maxLine > len(buf)-1 {
				maxLine = len(buf) - 1
			}
			data[maxLine] = '\n'
			c = &Chunk{Data: data[:maxLine+1], Cut: []int{0}, buf: buf}
			last = len(buf) - 1
			skipping = true
			fill = len(buf) // nothing carried over
		}
		if c == nil {
			continue
		}
		nb := bufPool.Get().(*[]byte)
		next := *nb
		carry := 0
		if !skipping || last < fill-1 {
			carry = copy(next, buf[last+1:fill])
		}
		if skipping && c.Cut != nil {
			carry = 0
		}
		if err := fn(c); err != nil {
			return st, err
		}
		buf, fill = next, carry
	}
	if fill > 0 && !skipping {
		if fill == len(buf) {
			fill--
		}
		buf[fill] = '\n'
		if err := fn(&Chunk{Data: buf[:fill+1], buf: buf}); err != nil {
			return st, err
		}
	} else {
		bufPool.Put(&buf)
	}
	st.Hash = h.Sum64()
	if rerr == io.EOF {
		rerr = nil
	}
	return st, rerr
}
