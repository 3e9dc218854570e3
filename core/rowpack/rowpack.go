// Package rowpack keeps the rows of finished graphs in memory, encoded
// compactly, for the page: its engine hands the analysis a Store
// (core.Options.Spill), which takes each graph's rows, continuous lines,
// atomic pieces and live curve as soon as the graph is analysed, and reads
// one graph back at a time (model.Report.WithRows) for the table, the map
// or a download. A tensor costs some 30 bytes rather than a model.Row's
// 208 and its strings: names are kept once per store (names.go) and rows
// refer to them by number; numbers are varints (codec.go).
//
// core/spill is the same idea on disk, for "imas report".
package rowpack

import (
	"fmt"
	"sync"

	"imas/core/model"
)

// Store holds encoded graphs; it implements core.RowSpill. Its methods
// are safe for concurrent use.
type Store struct {
	mu    sync.Mutex
	names names
	segs  map[*model.Graph]segment
	enc   encoder
	stats Stats
	err   error
}

type segment struct {
	b                      []byte
	rows, reassign, pieces int
}

// Stats say what a store holds.
type Stats struct {
	Graphs       int
	Rows         int64 // tensor rows
	SegmentBytes int64 // the encoded graphs
	Names        int   // distinct names
	NameBytes    int64 // the name table: bytes, headers, index
}

// Bytes is the memory the store takes.
func (s Stats) Bytes() int64 { return s.SegmentBytes + s.NameBytes }

// New returns an empty store.
func New() *Store {
	s := &Store{names: newNames(), segs: map[*model.Graph]segment{}}
	s.enc.names = &s.names
	return s
}

// Put moves g's rows, continuous lines, atomic pieces and live curve into
// the store; g keeps its figures and analyses. A graph put before is left
// as it is (it holds none of those any more).
func (s *Store) Put(g *model.Graph) error {
	s.mu.Lock()
	if _, ok := s.segs[g]; ok {
		s.mu.Unlock()
		return nil
	}
	s.enc.b = s.enc.b[:0]
	s.enc.graph(g)
	b := make([]byte, len(s.enc.b))
	copy(b, s.enc.b)
	if cap(s.enc.b) > 4<<20 {
		s.enc.b = nil // a big graph's buffer is not kept for the small ones
	}
	s.segs[g] = segment{b: b, rows: len(g.Rows), reassign: len(g.Reassign), pieces: len(g.AtomicPieces)}
	s.stats.Graphs++
	s.stats.Rows += int64(len(g.Rows))
	s.stats.SegmentBytes += int64(len(b))
	g.Rows, g.Reassign, g.AtomicPieces, g.Live = nil, nil, nil, nil
	s.mu.Unlock()
	return nil
}

// Load returns a copy of g with what Put moved decoded, or g itself when
// it was not moved. The copy's strings are the store's: they stay valid
// as long as the copy is used.
func (s *Store) Load(g *model.Graph) (*model.Graph, error) {
	s.mu.Lock()
	seg, ok := s.segs[g]
	// Names are only appended: the table as it is now holds every name of
	// the segment, and its first len(strs) entries never change.
	t := s.names.table
	s.mu.Unlock()
	if !ok {
		return g, nil
	}
	full := *g
	if err := decodeGraph(seg.b, &t, &full); err != nil {
		err = fmt.Errorf("rowpack: graph %s: %w", g.Graph, err)
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
		return nil, err
	}
	return &full, nil
}

// Holds reports whether g's rows are in the store.
func (s *Store) Holds(g *model.Graph) bool {
	s.mu.Lock()
	_, ok := s.segs[g]
	s.mu.Unlock()
	return ok
}

// Rows is g's row count, in the store or in g.
func (s *Store) Rows(g *model.Graph) int {
	rows, _, _ := s.Lengths(g)
	return rows
}

// Lengths are the lengths of g's Rows, Reassign and AtomicPieces, in the
// store or in g.
func (s *Store) Lengths(g *model.Graph) (rows, reassign, pieces int) {
	s.mu.Lock()
	seg, ok := s.segs[g]
	s.mu.Unlock()
	if ok {
		return seg.rows, seg.reassign, seg.pieces
	}
	return len(g.Rows), len(g.Reassign), len(g.AtomicPieces)
}

// Retain drops the graphs put that are not in gs: an analysis may build a
// part of the model twice (when files interleave in time; core's merge),
// and the graphs of the build it did not keep are put too.
func (s *Store) Retain(gs []*model.Graph) {
	s.mu.Lock()
	kept := make(map[*model.Graph]segment, len(gs))
	s.stats.Graphs, s.stats.Rows, s.stats.SegmentBytes = 0, 0, 0
	for _, g := range gs {
		if seg, ok := s.segs[g]; ok {
			kept[g] = seg
			s.stats.Graphs++
			s.stats.Rows += int64(seg.rows)
			s.stats.SegmentBytes += int64(len(seg.b))
		}
	}
	s.segs = kept
	s.mu.Unlock()
}

// Seal lets the table of names go that Put needs to number them: call it
// once every graph is put (a later Put builds it again).
func (s *Store) Seal() {
	s.mu.Lock()
	s.names.seal()
	s.enc = encoder{names: &s.names}
	s.mu.Unlock()
}

// Stats returns what the store holds now.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	st := s.stats
	st.Names = len(s.names.refs) - 1
	st.NameBytes = s.names.size()
	s.mu.Unlock()
	return st
}

// Err is the first error a Load met (a segment that does not decode).
func (s *Store) Err() error {
	s.mu.Lock()
	err := s.err
	s.mu.Unlock()
	return err
}
