// Package spill keeps the rows of finished graphs, and the older
// allocation rows of RT2 pools, on disk while a big run is read, so that
// "imas report" holds in memory the rows of the graphs still open and each
// pool's latest rows rather than every row of the run
// (docs/performance.md).
//
// A Store is one temporary directory holding one append-only file: each
// graph handed to Put, and each batch of a pool's rows handed to
// PutPoolRows, is encoded (codec.go) and appended as one segment, and an
// in-memory index maps the graph or the pool to its segments. The writers
// read the graphs back one at a time, in the report's order, through
// model.Report.WithRows, and a pool's rows a batch at a time through
// model.Pool.RowReader; Close removes the directory.
package spill

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"imas/core/model"
)

// Store is a spill store; it implements model.RowStore. Its methods are
// safe for concurrent use.
//
// Puts are many and small on runs of many small graphs, so segments are
// gathered in a write buffer and written a writeBuffer at a time (flushed
// early when a Load needs a segment still in it). The writers read the
// graphs back in about the order they were put, so a Load reads a
// readWindow from its segment on, and the next Loads find their segments
// in one of the last windows read rather than each reading its own.
type Store struct {
	dir string

	mu      sync.Mutex
	f       file
	size    int64  // bytes put: on disk, then in pending
	flushed int64  // bytes on disk
	pending []byte // segments put and not yet written, from offset flushed
	segs    map[*model.Graph]segment
	pools   map[*model.Pool][]segment // a pool's batches of rows, in the order put
	err     error                     // the first error of Put or Load: the run's outputs are wrong
	windows [readWindows]window
	tick    uint64
}

// file is the store's file: an *os.File, or in tests one that counts.
type file interface {
	io.ReaderAt
	io.WriterAt
	io.Closer
}

const (
	writeBuffer = 1 << 20
	readWindow  = 1 << 20
	// readWindows is how many windows are kept: one per writer reading at
	// once (as many as GOMAXPROCS on a small machine) and a few more for
	// the address checks' lookups. A window is never changed once read, so
	// Loads decode from it without the lock.
	readWindows = 8
)

type window struct {
	off  int64
	b    []byte
	used uint64
}

type segment struct {
	off  int64
	n    int64
	rows int
}

// New creates a store in a new directory under parent (os.TempDir() when
// parent is "").
func New(parent string) (*Store, error) {
	dir, err := os.MkdirTemp(parent, "imas-spill-*")
	if err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "graphs"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("spill: %w", err)
	}
	return &Store{dir: dir, f: f, segs: map[*model.Graph]segment{}, pools: map[*model.Pool][]segment{}}, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Put moves g's rows, continuous lines, atomic pieces, live curve, peak
// and waste breakdowns to the store: they are appended to the file and g
// keeps none of them. The figures and the conflicts stay in g.
func (s *Store) Put(g *model.Graph) error {
	seg, err := s.appendSegment(func(b []byte) []byte { return encodeGraph(b, g) }, len(g.Rows))
	if seg.n == 0 {
		return err
	}
	s.mu.Lock()
	s.segs[g] = seg
	s.mu.Unlock()
	g.Rows, g.Reassign, g.AtomicPieces, g.Live, g.Peak = nil, nil, nil, nil, nil
	if movesWaste(g) {
		g.Waste = nil
	}
	return err
}

// appendSegment appends what encode writes to the store as one segment of
// rows rows, and writes the buffer out once it is full. A zero segment
// means nothing was appended (the store failed or is closed).
func (s *Store) appendSegment(encode func([]byte) []byte, rows int) (segment, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return segment{}, s.err
	}
	if s.f == nil {
		return segment{}, s.fail(errors.New("spill: store closed"))
	}
	start := len(s.pending)
	s.pending = encode(s.pending)
	seg := segment{off: s.size, n: int64(len(s.pending) - start), rows: rows}
	s.size += seg.n
	if len(s.pending) >= writeBuffer {
		return seg, s.flush()
	}
	return seg, nil
}

// PutPoolRows appends a batch of p's allocation rows to the store, as one
// segment.
func (s *Store) PutPoolRows(p *model.Pool, rows []model.PoolRow) error {
	seg, err := s.appendSegment(func(b []byte) []byte { return encodePoolRows(b, rows) }, len(rows))
	if seg.n == 0 {
		return err
	}
	s.mu.Lock()
	s.pools[p] = append(s.pools[p], seg)
	s.mu.Unlock()
	return err
}

// PoolRowBatch returns the i-th batch of p's rows put, decoded into buf's
// storage when it is large enough.
//
// A pool's batches lie among those of the other pools and the graphs, so
// each is read alone, not through the read windows: a window would bring
// in mostly other segments, once per pool, and push out the windows the
// graph writers read ahead.
func (s *Store) PoolRowBatch(p *model.Pool, i int, buf []model.PoolRow) ([]model.PoolRow, error) {
	s.mu.Lock()
	segs := s.pools[p]
	s.mu.Unlock()
	if i < 0 || i >= len(segs) {
		return nil, s.failLocked(fmt.Errorf("spill: pool %s %s: no batch %d of %d", p.PID, p.Allocator, i, len(segs)))
	}
	seg := segs[i]
	f, err := s.onDisk(seg)
	if err != nil {
		return nil, err
	}
	b := make([]byte, seg.n)
	if _, err := f.ReadAt(b, seg.off); err != nil {
		return nil, s.failLocked(fmt.Errorf("spill: reading pool %s %s: %w", p.PID, p.Allocator, err))
	}
	rows, err := decodePoolRows(b, buf[:0])
	if err != nil {
		return nil, s.failLocked(fmt.Errorf("spill: pool %s %s: %w", p.PID, p.Allocator, err))
	}
	return rows, nil
}

// onDisk returns the store's file once seg is written to it (the pending
// segments are written when seg is among them); it fails when the store
// failed or was closed.
func (s *Store) onDisk(seg segment) (file, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil, s.err
	}
	if s.f == nil {
		return nil, s.fail(errors.New("spill: store closed"))
	}
	if seg.off+seg.n > s.flushed {
		if err := s.flush(); err != nil {
			return nil, err
		}
	}
	return s.f, nil
}

// flush writes the pending segments; s.mu is held.
func (s *Store) flush() error {
	if len(s.pending) == 0 {
		return nil
	}
	if _, err := s.f.WriteAt(s.pending, s.flushed); err != nil {
		return s.fail(fmt.Errorf("spill: %w", err))
	}
	s.flushed += int64(len(s.pending))
	if cap(s.pending) > 2*writeBuffer {
		s.pending = nil // a big graph's segment: do not keep its buffer
	} else {
		s.pending = s.pending[:0]
	}
	return nil
}

// Load returns a copy of g with what Put moved read back, or g itself when
// it was not moved.
func (s *Store) Load(g *model.Graph) (*model.Graph, error) {
	s.mu.Lock()
	seg, ok := s.segs[g]
	s.mu.Unlock()
	if !ok {
		return g, nil
	}
	b, err := s.segmentBytes(seg, "graph ", g.Graph)
	if err != nil {
		return g, err
	}
	full := *g
	if err := decodeGraph(b, &full); err != nil {
		return nil, s.failLocked(fmt.Errorf("spill: graph %s: %w", g.Graph, err))
	}
	return &full, nil
}

// PutAddrRows appends rows, operator-address rows of one address check
// (model.Builder.AddrSpill), to the store and returns where they are.
func (s *Store) PutAddrRows(rows []model.AddrRow) (model.AddrSegment, error) {
	seg, err := s.appendSegment(func(b []byte) []byte { return encodeAddrRows(b, rows) }, len(rows))
	return model.AddrSegment{Off: seg.off, Len: seg.n, Rows: seg.rows}, err
}

// LoadAddrRows appends the rows PutAddrRows put at seg to into.
func (s *Store) LoadAddrRows(seg model.AddrSegment, into []model.AddrRow) ([]model.AddrRow, error) {
	b, err := s.segmentBytes(segment{off: seg.Off, n: seg.Len, rows: seg.Rows}, "address rows", "")
	if err != nil {
		return into, err
	}
	into, err = decodeAddrRows(b, into)
	if err != nil {
		return into, s.failLocked(fmt.Errorf("spill: address rows at %d: %w", seg.Off, err))
	}
	return into, nil
}

// segmentBytes is the bytes of seg (kind and name say what for errors). The
// bytes are not changed after, by the store or the caller.
func (s *Store) segmentBytes(seg segment, kind, name string) ([]byte, error) {
	s.mu.Lock()
	if s.err != nil {
		defer s.mu.Unlock()
		return nil, s.err
	}
	if s.f == nil {
		defer s.mu.Unlock()
		return nil, s.fail(errors.New("spill: store closed"))
	}
	if seg.off+seg.n > s.flushed {
		if err := s.flush(); err != nil {
			s.mu.Unlock()
			return nil, err
		}
	}
	s.tick++
	// A reader going through the file in order starts at its beginning
	// or goes on past the end of a window it read (its segment may start
	// in the window and end past it).
	ahead := seg.off == 0
	for i := range s.windows {
		w := &s.windows[i]
		end := w.off + int64(len(w.b))
		if w.off <= seg.off && seg.off+seg.n <= end {
			w.used = s.tick
			b := w.b[seg.off-w.off : seg.off-w.off+seg.n]
			s.mu.Unlock()
			return b, nil
		}
		if len(w.b) > 0 && w.off <= seg.off && seg.off < end+readWindow {
			ahead = true
		}
	}
	f, flushed := s.f, s.flushed
	s.mu.Unlock()

	// A segment as big as a window, or one looked up out of order (the
	// address checks' graphs), is read alone and not kept: windows hold
	// the graphs ahead of readers in order, not copies of big graphs or
	// reads of 1 MiB for one small graph.
	ahead = ahead && seg.n < readWindow
	n := seg.n
	if ahead {
		n = min(readWindow, flushed-seg.off)
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, seg.off); err != nil {
		return nil, s.failLocked(fmt.Errorf("spill: reading %s%s: %w", kind, name, err))
	}
	if ahead {
		s.mu.Lock()
		oldest := &s.windows[0]
		for i := range s.windows {
			if s.windows[i].used < oldest.used {
				oldest = &s.windows[i]
			}
		}
		*oldest = window{off: seg.off, b: b, used: s.tick}
		s.mu.Unlock()
	}
	return b[:seg.n], nil
}

// Rows is g's row count, in the store or in g.
func (s *Store) Rows(g *model.Graph) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if seg, ok := s.segs[g]; ok {
		return seg.rows
	}
	return len(g.Rows)
}

// Graphs is how many graphs the store holds; Bytes is the file's size.
func (s *Store) Graphs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.segs)
}

// Bytes is the size of the store's file.
func (s *Store) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size
}

// Err is the first error a Put or Load met: the outputs written since
// miss rows, and the run must fail.
func (s *Store) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close removes the store's directory; the graphs it holds cannot be
// loaded after. It may be called more than once.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	s.pending = nil
	s.windows = [readWindows]window{}
	if rerr := os.RemoveAll(s.dir); err == nil {
		err = rerr
	}
	return err
}

func (s *Store) fail(err error) error {
	if s.err == nil {
		s.err = err
	}
	return s.err
}

func (s *Store) failLocked(err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail(err)
	return err
}
