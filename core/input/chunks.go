package input

import (
	"bytes"
	"hash/maphash"
	"io"

	"imas/core/internal/prefault"
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
	// Unterminated: the input's last line had no '\n' (the one Data ends
	// with was added); it may have been cut mid-line.
	Unterminated bool
	buf          []byte
}

// bufPool keeps released read buffers. Not a sync.Pool: that one empties
// at every garbage collection, and each new 4 MiB buffer is memory the
// process touches for the first time (page faults cost more than the
// parsing of the buffer on some machines). At most poolSize buffers are
// kept; a run has about 2 per parsing core plus 2 in flight.
var bufPool = freeList{c: make(chan *[]byte, poolSize)}

const poolSize = 12

type freeList struct{ c chan *[]byte }

func (f freeList) Get() *[]byte {
	select {
	case b := <-f.c:
		return b
	default:
		b := make([]byte, ChunkSize)
		prefault.Slice(b)
		return &b
	}
}

func (f freeList) Put(b *[]byte) {
	select {
	case f.c <- b:
	default: // full: let the collector have it
	}
}

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

// blockHash hashes a stream in fixed blocks, so the result depends on the
// bytes only, not on how reads split them (a plain file and its gzipped copy
// must hash alike). maphash.Hash does the same in 128-byte blocks, a
// function call each, which ran at a third of the speed.
type blockHash struct {
	sum uint64
	n   int64
	buf []byte // a block being filled
	off bool   // count the bytes only
}

const hashBlock = 64 << 10

// readPiece caps one read: the hash then reads bytes the kernel has just
// copied while they are still in the core's cache (a 4 MiB read would
// leave them in memory by the time the hash reads them).
const readPiece = 256 << 10

func (h *blockHash) Write(p []byte) {
	h.n += int64(len(p))
	if h.off {
		return
	}
	if len(h.buf) > 0 {
		k := min(len(p), hashBlock-len(h.buf))
		h.buf = append(h.buf, p[:k]...)
		p = p[k:]
		if len(h.buf) < hashBlock {
			return
		}
		h.block(h.buf)
		h.buf = h.buf[:0]
	}
	for len(p) >= hashBlock {
		h.block(p[:hashBlock])
		p = p[hashBlock:]
	}
	h.buf = append(h.buf, p...)
}

// block folds one block in, in order.
func (h *blockHash) block(b []byte) {
	h.sum = (h.sum^blockSum(b))*0x9E3779B97F4A7C15 + 1
}

func (h *blockHash) sum64() uint64 {
	if len(h.buf) > 0 {
		h.block(h.buf)
		h.buf = h.buf[:0]
	}
	return h.sum ^ uint64(h.n)
}

// ReadStats describes one leaf after Chunks returned.
type ReadStats struct {
	Bytes  int64
	Hash   uint64 // content hash, for duplicate detection
	Hashed bool   // Hash is set (Chunks with hash)
}

// Chunks reads r to the end and calls fn with consecutive chunks of whole
// lines. Memory stays bounded by a few ChunkSize buffers whatever the line
// lengths. It returns the first read error (after handing over everything
// read before it) or fn's error. With hash false the stats have no content
// hash (a Unique leaf).
func Chunks(r io.Reader, maxLine int, hash bool, fn func(*Chunk) error) (ReadStats, error) {
	h := blockHash{buf: make([]byte, 0, hashBlock), off: !hash}
	var st ReadStats
	bp := bufPool.Get()
	buf := *bp
	fill := 0
	skipping := false
	var carry []byte
	var rerr error
	for rerr == nil {
		n, err := r.Read(buf[fill:min(len(buf), fill+readPiece)])
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
		// The partial last line is set aside in a small buffer, not a
		// whole next chunk buffer: fn may wait long (the pipeline reads
		// many files side by side), and a buffer held meanwhile is
		// ChunkSize of memory per file.
		carry = carry[:0]
		if (!skipping || last < fill-1) && !(skipping && c.Cut != nil) {
			carry = append(carry, buf[last+1:fill]...)
		}
		if err := fn(c); err != nil {
			return st, err
		}
		nb := bufPool.Get()
		buf = *nb
		fill = copy(buf, carry)
	}
	if fill > 0 && !skipping {
		if fill == len(buf) {
			fill--
		}
		buf[fill] = '\n'
		if err := fn(&Chunk{Data: buf[:fill+1], buf: buf, Unterminated: true}); err != nil {
			return st, err
		}
	} else {
		bufPool.Put(&buf)
	}
	st.Hash, st.Hashed = h.sum64(), hash
	if rerr == io.EOF {
		rerr = nil
	}
	return st, rerr
}
