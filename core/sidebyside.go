package core

import (
	"bytes"
	"errors"
	"math"

	"imas/core/input"
	"imas/core/model"
	"imas/core/plog"
)

// Read whole one after another, even in the order of their first records
// (horizon.go), files of processes that log at the same time each wait in
// the merge about whole: what is kept grows with the processes times the
// size of a file. So when every source is a plain file whose first record
// is known, the files are read side by side, a chunk at a time: the
// reader takes the next chunk of the open file whose next record is
// likely earliest (the last timestamp of the chunk read before), and opens
// a file once its first record is earlier than that. The merge (merger)
// takes each chunk as it is parsed, and feeds a record once nothing still
// to come can be earlier: not a file not yet opened (its first record),
// nor an open one with nothing pushed (its first record), nor an open one
// whose pushed records are all fed (its next record is unknown: the merge
// waits for it). So about one chunk per process waits in the merge, and
// the report is the one mergeByTime gives whatever the reading order: the
// order only decides how much waits.
//
// A leaf that may be the duplicate of another (it is not input.Leaf.Unique)
// is kept whole until its end, when its hash tells. An open file costs its
// descriptor and the partial line at the end of its last chunk.

// maxSideBySide is the most files open at once; beyond it the files open
// are read on before another is opened (what waits grows, the report does
// not change).
const maxSideBySide = 256

// lastStampLines is how many lines from the end of a chunk are looked at
// for the time of its last stamped line.
const lastStampLines = 64

// sideFile is a source being read side by side: a goroutine walks it and
// hands over one piece (leaf start, chunk, leaf end) per request, so that
// nothing is read ahead of the request.
type sideFile struct {
	place, src int
	req        chan struct{}
	out        chan sideMsg
	fs         *fileState // the leaf being read
	leaves     int
	seq        int
	est        mergeKey // the likely key of its next record
}

type sideMsg struct {
	kind  sideKind
	leaf  input.Leaf
	chunk *input.Chunk
	stats input.ReadStats
	err   error
}

type sideKind uint8

const (
	sideLeaf sideKind = iota
	sideChunk
	sideLeafEnd
	sideDone
)

var errStopped = errors.New("stopped")

// readAll reads the sources in the order plan chose.
func (p *pipeline) readAll(srcs []input.Source) {
	if p.sideBySide {
		p.readSideBySide(srcs)
		return
	}
	for k := range srcs {
		if p.ctx.Err() != nil {
			return
		}
		p.source(srcs[p.sourceAt(k)])
	}
}

// readSideBySide reads the sources a chunk at a time, in the likely order
// of their records.
func (p *pipeline) readSideBySide(srcs []input.Source) {
	var open []*sideFile
	defer func() {
		for _, f := range open {
			close(f.req)
			<-f.out // its goroutine ended, its file closed
		}
	}()
	next := 0 // the place of the next source to open
	for p.ctx.Err() == nil {
		var pick *sideFile
		at := 0
		for i, f := range open {
			if pick == nil || f.est.less(pick.est) {
				pick, at = f, i
			}
		}
		if next < len(srcs) && len(open) < maxSideBySide {
			src := p.sourceAt(next)
			t, _ := p.heads.firstRecord(src) // known: the horizons were planned
			if first := (mergeKey{t, int32(src)}); pick == nil || !pick.est.less(first) {
				open = append(open, p.openSide(srcs[src], next, src, first))
				next++
				continue
			}
		}
		if pick == nil {
			return
		}
		if !p.step(pick) {
			open = append(open[:at], open[at+1:]...)
		}
	}
}

// openSide starts the goroutine that reads source src, read place-th.
func (p *pipeline) openSide(s input.Source, place, src int, first mergeKey) *sideFile {
	f := &sideFile{place: place, src: src, req: make(chan struct{}), out: make(chan sideMsg, 1), est: first}
	go func() {
		defer func() { f.out <- sideMsg{kind: sideDone} }()
		if _, ok := <-f.req; !ok {
			return
		}
		send := func(m sideMsg) bool {
			f.out <- m
			_, ok := <-f.req
			return ok
		}
		// The goroutine runs only between a request and its answer, so
		// p.diags is not touched by two at once.
		_ = input.Walk(s, p.opt.Limits, func(l input.Leaf) error {
			if !send(sideMsg{kind: sideLeaf, leaf: l}) {
				return errStopped
			}
			st, err := input.Chunks(l.R, p.opt.MaxLine, !l.Unique, func(c *input.Chunk) error {
				if !send(sideMsg{kind: sideChunk, chunk: c}) {
					return errStopped
				}
				return nil
			})
			if errors.Is(err, errStopped) {
				return err
			}
			if !send(sideMsg{kind: sideLeafEnd, stats: st, err: err}) {
				return errStopped
			}
			return nil
		}, func(d input.Diag) {
			p.diags = append(p.diags, sourceDiag{src, model.Diagnostic{Path: d.Path, Reason: d.Reason, Detail: d.Detail}})
		})
	}()
	return f
}

// step takes the next piece of f, and reports whether f has more.
func (p *pipeline) step(f *sideFile) bool {
	f.req <- struct{}{}
	m := <-f.out
	switch m.kind {
	case sideLeaf:
		// Indexes as source gives them.
		idx := int32(len(p.files))
		if p.order != nil {
			idx = int32(f.src)
			if f.leaves > 0 {
				idx = int32(len(p.order) + p.extraLeaves)
				p.extraLeaves++
			}
		}
		fs := &fileState{path: m.leaf.Path, place: f.place, idx: idx, unique: m.leaf.Unique, first: f.est}
		if f.leaves > 0 {
			fs.first = mergeKey{math.MinInt64, 0} // a member of what was a plain file: nothing is known of it
		}
		fs.first.file = idx
		f.leaves++
		f.fs, f.seq = fs, 0
		p.files = append(p.files, fs)
		p.prog.Files = len(p.files)
		p.prog.Path = fs.path
		p.consume <- event{kind: evStart, fs: fs}
	case sideChunk:
		c, fs := m.chunk, f.fs
		if t := lastStamp(c.Data); t != 0 {
			f.est = mergeKey{t, fs.idx}
		}
		p.mu.Lock()
		fs.results = append(fs.results, nil)
		p.mu.Unlock()
		fs.pending.Add(1)
		n := int64(len(c.Data)) // c belongs to the worker once sent
		ready := make(chan struct{})
		p.ahead <- struct{}{}
		p.jobs <- job{file: fs.idx, seq: f.seq, chunk: c, fs: fs, ready: ready}
		p.consume <- event{kind: evChunk, fs: fs, seq: f.seq, ready: ready}
		f.seq++
		p.progress(n)
	case sideLeafEnd:
		fs := f.fs
		fs.stats = m.stats
		if m.err != nil && p.ctx.Err() == nil {
			fs.readErr = m.err
		}
		p.markDuplicate(fs)
		p.consume <- event{kind: evEnd, fs: fs}
	case sideDone:
		return false
	}
	return true
}

// lastStamp is the time of the last of the last lastStampLines lines of
// data with a plog timestamp, 0 when none has one.
func lastStamp(data []byte) int64 {
	var env plog.Envelope
	end := len(data) // data ends with '\n'
	for range lastStampLines {
		if end <= 0 {
			break
		}
		start := bytes.LastIndexByte(data[:end-1], '\n') + 1
		if plog.Parse(data[start:end-1], &env) && env.Time != 0 {
			return env.Time
		}
		end = start
	}
	return 0
}

// readingFile is what the consumer keeps of a file read side by side
// until its end.
type readingFile struct {
	info     model.FileInfo
	overlong []model.Diagnostic
	base     int64
	// whole: kept until its end (a possible duplicate), in held.
	whole  bool
	held   []*chunkResult
	pushed bool // a chunk of it went into the merge
	first  mergeKey
}

func (c *consumer) startFile(f *fileState) {
	c.reading[f.idx] = &readingFile{info: model.FileInfo{Path: f.path}, whole: !f.unique, first: f.first}
	c.lastPlace = max(c.lastPlace, f.place)
}

// chunk takes the seq-th chunk of f once parsed.
func (c *consumer) chunk(f *fileState, seq int, ready chan struct{}) {
	<-ready
	c.p.mu.Lock()
	r := f.results[seq]
	f.results[seq] = nil
	c.p.mu.Unlock()
	rf := c.reading[f.idx]
	c.account(f.path, &rf.info, &rf.overlong, &rf.base, r)
	if len(r.items) == 0 || c.p.ctx.Err() != nil {
		return
	}
	if rf.whole {
		rf.held = append(rf.held, r)
		c.wholeHeld++
		c.inOrder = false
		c.maxHeld = max(c.maxHeld, c.held())
		return
	}
	rf.pushed = true
	if limit, ok := c.limit(f.idx); ok && c.merge.feedWhole(f.idx, r, limit) {
		return // as the in-order build would
	}
	c.inOrder = false
	c.merge.extend(f.idx, r)
	c.maxHeld = max(c.maxHeld, c.held())
}

// endFile accounts for a file at its end, as add does for a whole one.
func (c *consumer) endFile(f *fileState) {
	f.pending.Wait()
	rf := c.reading[f.idx]
	delete(c.reading, f.idx)
	c.wholeHeld -= len(rf.held)
	out := fileOutcome{read: true, info: rf.info}
	out.info.Bytes = f.stats.Bytes
	out.noteEnd(f)
	if out.duplicate {
		out.info = model.FileInfo{Path: f.path, Bytes: f.stats.Bytes, Error: out.info.Error}
		c.files[f.idx] = out
		return
	}
	out.diags = append(out.diags, rf.overlong...)
	out.info.Records = out.info.Candidates - out.info.Rejected
	c.files[f.idx] = out
	if len(rf.held) > 0 && c.p.ctx.Err() == nil {
		c.merge.push(fileStream{file: f.idx, chunks: rf.held})
	}
	c.merge.end(f.idx)
}

// emitSideBySide feeds the records due.
func (c *consumer) emitSideBySide() {
	if limit, ok := c.limit(-1); ok {
		c.merge.emitBefore(limit)
	}
}

// limit is the key before which the merge may feed records, for what is
// not in it yet: the first record of every file not opened yet, and of
// every open one but file except with nothing in the merge.
func (c *consumer) limit(except int32) (mergeKey, bool) {
	limit, ok := c.p.horizon(c.lastPlace)
	if !ok {
		return limit, false
	}
	for idx, rf := range c.reading {
		if !rf.pushed && idx != except && rf.first.less(limit) {
			limit = rf.first
		}
	}
	return limit, true
}
