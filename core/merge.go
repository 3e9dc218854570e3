package core

import (
	"container/heap"

	"imas/core/gelog"
	"imas/core/store"
)

// fileStream is the parsed chunks of one input file, in order.
type fileStream struct {
	file   int32
	chunks []*chunkResult
}

// mergeByTime feeds records of all files in timestamp order, keeping each
// file's own order (a record without a timestamp keeps its predecessor's).
// Ties go to the earlier file, so the result is deterministic. Tape rows are
// decoded into one reused SetRow: add must not keep the record.
func mergeByTime(streams []fileStream, add func(gelog.Record)) {
	m := newMerger(add)
	for _, s := range streams {
		m.push(s)
	}
	m.emitBefore(mergeEnd)
}

// merger is mergeByTime in steps, so that it can run while the files are
// parsed: streams are pushed in file order, and emitUpTo feeds the records
// due before any stream still to come can have one (see horizon.go).
// A pushed stream's chunks are let go as soon as their records are fed.
type merger struct {
	h    recHeap
	held int // chunks pushed and not yet passed
	rd   *store.TapeReader
	row  gelog.SetRow
	add  func(gelog.Record)
}

func newMerger(add func(gelog.Record)) *merger {
	return &merger{rd: store.NewTapeReader(), add: add}
}

func (m *merger) push(s fileStream) {
	m.h.push(s)
	m.held += len(s.chunks)
}

// emitBefore feeds records in merge order while the next one's key is
// before limit.
func (m *merger) emitBefore(limit mergeKey) {
	h := &m.h
	for h.Len() > 0 && (mergeKey{(*h)[0].t, (*h)[0].file}).less(limit) {
		c := (*h)[0]
		ch := c.chunks[c.ci]
		it := ch.items[c.ii]
		feed(m.rd, &m.row, c.file, ch, it, m.add)
		if it.ref < 0 {
			ch.records[^it.ref] = nil // let the record go as soon as the model has it
		}
		if c.ii == len(ch.items)-1 {
			m.held--
		}
		h.advance()
	}
}

type cursor struct {
	fileStream
	ci, ii int // chunk, item
	t      int64
}

type recHeap []*cursor

// push adds a stream's cursor at its first record.
func (h *recHeap) push(s fileStream) {
	if len(s.chunks) > 0 {
		heap.Push(h, &cursor{fileStream: s, t: s.chunks[0].items[0].time})
	}
}

// advance moves the head cursor past its record (the record's chunk is let
// go once passed) and restores the heap.
func (h *recHeap) advance() {
	c := (*h)[0]
	if c.ii++; c.ii == len(c.chunks[c.ci].items) {
		c.chunks[c.ci] = nil
		c.ci, c.ii = c.ci+1, 0
		if c.ci == len(c.chunks) {
			heap.Pop(h)
			return
		}
	}
	if t := c.chunks[c.ci].items[c.ii].time; t != 0 {
		c.t = t
	}
	heap.Fix(h, 0)
}

func (h recHeap) Len() int { return len(h) }
func (h recHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].file < h[j].file
}
func (h recHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *recHeap) Push(x any)   { *h = append(*h, x.(*cursor)) }
func (h *recHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
