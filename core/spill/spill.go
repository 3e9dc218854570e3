// Package spill keeps the rows of finished graphs on disk while a big run
// is read, so that "imas report" holds in memory the rows of the graphs
// still open rather than every row of the run (docs/performance.md).
//
// A Store is one temporary directory holding one append-only file: each
// graph handed to Put is encoded (codec.go) and appended as one segment,
// and an in-memory index maps the graph to its segment. The writers read
// the graphs back one at a time, in the report's order, through
// model.Report.WithRows; Close removes the directory.
package spill

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"imas/core/model"
)

// Store is a spill store; it implements model.RowStore. Its methods are
// safe for concurrent use.
type Store struct {
	dir string

	mu   sync.Mutex
	f    *os.File
	size int64
	segs map[*model.Graph]segment
	err  error // the first error of Put or Load: the run's outputs are wrong
	buf  []byte
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
	return &Store{dir: dir, f: f, segs: map[*model.Graph]segment{}}, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Put moves g's rows, continuous lines, atomic pieces and live curve to
// the store: they are appended to the file and g keeps none of them. The
// figures and the other analyses stay in g.
func (s *Store) Put(g *model.Graph) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if s.f == nil {
		return s.fail(errors.New("spill: store closed"))
	}
	s.buf = encodeGraph(s.buf[:0], g)
	if _, err := s.f.WriteAt(s.buf, s.size); err != nil {
		return s.fail(fmt.Errorf("spill: %w", err))
	}
	s.segs[g] = segment{off: s.size, n: int64(len(s.buf)), rows: len(g.Rows)}
	s.size += int64(len(s.buf))
	g.Rows, g.Reassign, g.AtomicPieces, g.Live = nil, nil, nil, nil
	return nil
}

// Load returns a copy of g with what Put moved read back, or g itself when
// it was not moved.
func (s *Store) Load(g *model.Graph) (*model.Graph, error) {
	s.mu.Lock()
	seg, ok := s.segs[g]
	f, err := s.f, s.err
	s.mu.Unlock()
	if !ok {
		return g, nil
	}
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, s.failLocked(errors.New("spill: store closed"))
	}
	b := make([]byte, seg.n)
	if _, err := f.ReadAt(b, seg.off); err != nil {
		return nil, s.failLocked(fmt.Errorf("spill: reading graph %s: %w", g.Graph, err))
	}
	full := *g
	if err := decodeGraph(b, &full); err != nil {
		return nil, s.failLocked(fmt.Errorf("spill: graph %s: %w", g.Graph, err))
	}
	return &full, nil
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
