package core

import (
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
//
// The stream of a file still being read grows chunk by chunk (extend). Once
// its records pushed so far are all fed, its next record is not known, and
// may come before any record waiting: nothing is fed until it comes or the
// file ends (starved).
type merger struct {
	h    recHeap
	held int // chunks pushed and not yet passed
	// open are the cursors of files still being read, by file index;
	// starved counts those of them out of the heap, all their records fed.
	open    map[int32]*cursor
	starved int
	rd      *store.TapeReader
	row     gelog.SetRow
	add     func(gelog.Record)
	// done, when set, is given each chunk whose records are all fed.
	done func(*chunkResult)
}

func newMerger(add func(gelog.Record)) *merger {
	return &merger{rd: store.NewTapeReader(), add: add}
}

func (m *merger) push(s fileStream) {
	m.h.push(s)
	m.held += len(s.chunks)
}

// extend appends a chunk, with records, of a file still being read to the
// file's stream.
func (m *merger) extend(file int32, ch *chunkResult) {
	m.held++
	c := m.open[file]
	if c == nil {
		c = &cursor{fileStream: fileStream{file: file}, t: ch.items[0].time, open: true}
		if m.open == nil {
			m.open = map[int32]*cursor{}
		}
		m.open[file] = c
		c.chunks = append(c.chunks, ch)
		m.h.add(c)
		return
	}
	c.chunks = append(c.chunks, ch)
	if c.starved {
		// Where advance would have gone on, had the chunk been there.
		c.starved = false
		m.starved--
		if t := ch.items[0].time; t != 0 {
			c.t = t
		}
		m.h.add(c)
	}
}

// feedWhole feeds a chunk of a file still being read at once, without the
// heap, when the merge would feed it whole before anything else: nothing
// else waits in the merge and every record of it is due before limit. It
// reports whether it did.
func (m *merger) feedWhole(file int32, ch *chunkResult, limit mergeKey) bool {
	c := m.open[file]
	var t int64 // the key mergeByTime gives the records, as advance does
	starved := m.starved
	if c != nil {
		if !c.starved {
			return false
		}
		t = c.t
		starved--
	}
	if m.h.Len() > 0 || starved > 0 {
		return false
	}
	latest := t
	for i := range ch.items {
		if it := ch.items[i].time; it != 0 || i == 0 && c == nil {
			t = it
		}
		latest = max(latest, t)
	}
	if !(mergeKey{latest, file}).less(limit) {
		return false
	}
	for _, it := range ch.items {
		feed(m.rd, &m.row, file, ch, it, m.add)
	}
	if m.done != nil {
		m.done(ch)
	}
	if c == nil {
		c = &cursor{fileStream: fileStream{file: file}, open: true, starved: true}
		if m.open == nil {
			m.open = map[int32]*cursor{}
		}
		m.open[file] = c
		m.starved++
	}
	c.t = t
	return true
}

// end says that the file's stream has no more chunks.
func (m *merger) end(file int32) {
	c := m.open[file]
	if c == nil {
		return
	}
	delete(m.open, file)
	c.open = false
	if c.starved {
		c.starved = false
		m.starved--
	}
}

// emitBefore feeds records in merge order while the next one's key is
// before limit and no stream is starved.
func (m *merger) emitBefore(limit mergeKey) {
	h := &m.h
	for m.starved == 0 && h.Len() > 0 && (mergeKey{(*h)[0].t, (*h)[0].file}).less(limit) {
		c := (*h)[0]
		ch := c.chunks[c.ci]
		it := ch.items[c.ii]
		feed(m.rd, &m.row, c.file, ch, it, m.add)
		if it.ref < 0 {
			ch.records[^it.ref] = nil // let the record go as soon as the model has it
		}
		last := c.ii == len(ch.items)-1
		if h.advance() && c.open {
			c.starved = true
			m.starved++
		}
		if last {
			m.held--
			if m.done != nil {
				m.done(ch)
			}
		}
	}
}

type cursor struct {
	fileStream
	ci, ii int // chunk, item
	t      int64
	// open: more chunks may come (extend); starved: all pushed are fed.
	open, starved bool
}

// recHeap is a binary min-heap of cursors by (t, file), written out for
// its one element type: the merge moves it once per record, and
// container/heap would call Less and Swap through an interface.
type recHeap []*cursor

// push adds a stream's cursor at its first record.
func (h *recHeap) push(s fileStream) {
	if len(s.chunks) > 0 {
		h.add(&cursor{fileStream: s, t: s.chunks[0].items[0].time})
	}
}

// advance moves the head cursor past its record (the record's chunk is let
// go once passed) and restores the heap. It reports whether the cursor
// left the heap, past its last chunk.
func (h *recHeap) advance() bool {
	c := (*h)[0]
	if c.ii++; c.ii == len(c.chunks[c.ci].items) {
		c.chunks[c.ci] = nil
		c.ci, c.ii = c.ci+1, 0
		if c.ci == len(c.chunks) {
			h.removeHead()
			return true
		}
	}
	if t := c.chunks[c.ci].items[c.ii].time; t != 0 {
		c.t = t
	}
	h.down(0) // at the root, only down can move it
	return false
}

func (h recHeap) Len() int { return len(h) }

func (h recHeap) less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].file < h[j].file
}

// add inserts c.
func (h *recHeap) add(c *cursor) {
	*h = append(*h, c)
	s := *h
	for j := len(s) - 1; j > 0; {
		i := (j - 1) / 2
		if !s.less(j, i) {
			break
		}
		s[i], s[j] = s[j], s[i]
		j = i
	}
}

// removeHead removes the head cursor.
func (h *recHeap) removeHead() {
	s := *h
	n := len(s) - 1
	s[0] = s[n]
	s[n] = nil
	*h = s[:n]
	h.down(0)
}

// down moves the cursor at i down to its place.
func (h recHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && h.less(r, l) {
			j = r
		}
		if !h.less(j, i) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}
