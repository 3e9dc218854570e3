package core

import (
	"bytes"
	"strconv"
	"sync"
	"sync/atomic"

	"imas/core/gelog"
	"imas/core/input"
	"imas/core/internal/prefault"
	"imas/core/model"
	"imas/core/plog"
	"imas/core/scan"
	"imas/core/store"
)

// A chunk is parsed by one worker: its candidate lines are found by the
// scan (core/scan), each is parsed (core/gelog), Set rows go to the chunk's
// row tape (core/store) and the other records to a list, both in line
// order.

// chunkResult is one parsed chunk.
type chunkResult struct {
	lines      int64
	candidates int64
	rejected   int64
	// items lists the chunk's records in line order. "[IMAS]Set" rows, the
	// bulk of every log, wait for the merge on the row tape; the other
	// records in records.
	items    []item
	tape     *store.RowTape
	records  []gelog.Record
	overlong []overlong
	base     int64 // lines of the file before this chunk (set by finish)
	hints    map[model.HintKey]model.Hint
}

// item is one record of a chunk: ref >= 0 is the index of a row on the
// tape, ref < 0 is ^index into records.
type item struct {
	time int64
	line int64 // in the chunk
	ref  int64
}

type overlong struct {
	line int64
	size int
	text string
}

// chunkScratch is what a parsing worker carries from chunk to chunk: the
// line-start buffer, and the sizing of its next tape.
type chunkScratch struct {
	cand  []int
	pool  *chunkPool // nil: every chunk gets new memory
	tape  store.TapeSizer
	hints int // graphs of the last chunk: its hints map is made that size
	// records per 1024 candidate lines in the last chunk: the list of
	// records other than Set rows (most lines of a pool-heavy log) is made
	// that size plus an eighth, not grown by doubling.
	recordsPer1024 int
}

// parseChunk finds the candidate lines of a chunk and parses them. Only
// candidate and over-long lines are looked at one by one; everything else is
// counted at memory speed. sc is the worker's scratch; parseChunk updates it
// for the next chunk.
func parseChunk(c *input.Chunk, file int32, maxLine int, sc *chunkScratch) *chunkResult {
	r := &chunkResult{}
	data := c.Data
	cand := scan.CandidateLines(data, sc.cand[:0])
	sc.cand = cand
	nCand := len(cand) // cand is consumed below
	long := longLines(data, maxLine, c.Cut)
	var env plog.Envelope
	var into gelog.Scratch // the frequent statements are parsed into it
	var recs chunkRecs
	set := &into.Set
	// Sized for the usual mix (nearly all candidates are rows) so that
	// neither grows.
	r.items = sc.pool.itemList(nCand)
	r.tape = sc.pool.tape(sc.tape.Size(nCand))
	r.records = make([]gelog.Record, 0, nCand*sc.recordsPer1024/1024*9/8+16)
	// A chunk of many small graphs would grow its hints map several times.
	r.hints = make(map[model.HintKey]model.Hint, sc.hints)
	var run model.HintKey // the graph of the current run of Set rows
	runRows := 0
	line, pos := int64(1), 0 // line number of the line starting at pos
	lineAt := func(start int) int64 {
		line += int64(countNL(data[pos:start]))
		pos = start
		return line
	}
	for len(cand) > 0 || len(long) > 0 {
		var start int
		isLong := false
		switch {
		case len(long) > 0 && (len(cand) == 0 || long[0].start <= cand[0]):
			start, isLong = long[0].start, true
		default:
			start = cand[0]
		}
		n := lineAt(start)
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data) - start
		} else {
			// The next line is n+1: the next count starts after this line
			// (most candidates follow one another).
			pos, line = start+end+1, n+1
		}
		l := data[start : start+end]
		if isLong {
			lg := long[0]
			long = long[1:]
			if len(l) > maxLine {
				l = l[:maxLine]
			}
			r.overlong = append(r.overlong, overlong{line: n, size: lg.size, text: gelog.Excerpt(l)})
			if len(cand) == 0 || cand[0] != start {
				continue // the head of a long line is parsed only if it is a candidate
			}
		}
		cand = cand[1:]
		if isLong || len(l) > maxLine {
			if len(l) > maxLine {
				l = l[:maxLine]
			}
			if !gelog.IsCandidate(l) {
				continue // the marker was beyond maxLine
			}
		}
		if k := len(l); k > 0 && l[k-1] == '\r' {
			l = l[:k-1]
		}
		r.candidates++
		ok := plog.ParseAny(l, &env)
		meta := gelog.Meta{File: file, Line: n, Unterminated: c.Unterminated && start+end+1 == len(data)}
		rec := gelog.ParseScratch(&env, ok, l, meta, &into)
		it := item{time: gelog.M(rec).Time, line: n}
		if rec == gelog.Record(set) {
			it.ref = int64(r.tape.Append(set))
			// Rows of a graph come in runs: count the run, not a map entry a row.
			if k := (model.HintKey{PID: set.PID, Graph: set.Graph, MemType: set.MemType}); k != run {
				r.addRows(run, runRows)
				run, runRows = k, 0
			}
			runRows++
		} else {
			if a, ok := rec.(*gelog.AfterAssign); ok {
				k := model.HintKey{PID: a.PID, Graph: a.Graph, MemType: a.MemType}
				h := r.hints[k]
				h.Summaries[b01(a.Event)]++
				r.hints[k] = h
			}
			if _, bad := rec.(*gelog.Reject); bad {
				r.rejected++
			}
			it.ref = ^int64(len(r.records))
			r.records = append(r.records, recs.keep(rec, &into))
		}
		r.items = append(r.items, it)
	}
	r.addRows(run, runRows)
	r.lines = lineAt(len(data)) - 1 // every line ends with '\n'
	sc.tape.Learn(nCand, r.tape)
	sc.hints = len(r.hints)
	if nCand > 0 {
		sc.recordsPer1024 = (len(r.records)*1024 + nCand - 1) / nCand
	}
	return r
}

// A chunkPool keeps the row tapes and item lists of chunks whose records
// are in the model, for the chunks parsed next. Fresh memory costs more
// than the parse that fills it (zeroed, then backed by the kernel page by
// page or by prefault); a chunk's tape and items are written in full and
// read once, so those of a chunk the consumer let go serve the next one.
// Only where nothing reads a chunk again (the stepwise build, which keeps
// no chunk for a redo) are chunks put back.
type chunkPool struct {
	mu    sync.Mutex
	tapes []*store.RowTape
	items [][]item
	// reused counts the tapes handed out again.
	reused atomic.Int64
}

// maxPooled is the most tapes (and item lists) kept: the merge of files
// read side by side lets chunks go in bursts.
const maxPooled = 16

// tape returns a tape of size sz, a kept one when it has room.
func (p *chunkPool) tape(sz store.TapeSize) *store.RowTape {
	if p != nil {
		p.mu.Lock()
		var t *store.RowTape
		if n := len(p.tapes); n > 0 {
			t = p.tapes[n-1]
			p.tapes[n-1] = nil
			p.tapes = p.tapes[:n-1]
		}
		p.mu.Unlock()
		if t != nil && t.Reuse(sz) {
			p.reused.Add(1)
			return t
		}
		// Chunks differ a little in size: room for an eighth more rows
		// lets the next ones reuse this tape.
		sz.Rows += sz.Rows / 8
	}
	return store.NewRowTape(sz)
}

// itemList returns an empty item list with room for n items.
func (p *chunkPool) itemList(n int) []item {
	if p != nil {
		p.mu.Lock()
		var it []item
		if k := len(p.items); k > 0 {
			it = p.items[k-1]
			p.items[k-1] = nil
			p.items = p.items[:k-1]
		}
		p.mu.Unlock()
		if cap(it) >= n {
			return it[:0]
		}
		n += n / 8
	}
	it := make([]item, 0, n)
	prefault.Slice(it)
	return it
}

// put keeps the tape and items of r, whose records are all in the model
// and which nothing reads again; r loses them.
func (p *chunkPool) put(r *chunkResult) {
	if p == nil {
		return
	}
	p.mu.Lock()
	if r.tape != nil && len(p.tapes) < maxPooled {
		p.tapes = append(p.tapes, r.tape)
	}
	if r.items != nil && len(p.items) < maxPooled {
		p.items = append(p.items, r.items)
	}
	p.mu.Unlock()
	r.tape, r.items = nil, nil
}

// drop lets go of what the pool keeps.
func (p *chunkPool) drop() {
	p.mu.Lock()
	p.tapes, p.items = nil, nil
	p.mu.Unlock()
}

// addRows counts n Set rows of graph k in the chunk's size hints.
func (r *chunkResult) addRows(k model.HintKey, n int) {
	if n > 0 {
		h := r.hints[k]
		h.Rows += n
		r.hints[k] = h
	}
}

func b01(b bool) int {
	if b {
		return 1
	}
	return 0
}

type longLine struct{ start, size int }

// longLines returns the lines longer than maxLine, and those the chunker cut.
func longLines(data []byte, maxLine int, cut []int) []longLine {
	if len(data) <= maxLine && len(cut) == 0 {
		return nil
	}
	if len(cut) > 0 {
		return longLinesEach(data, maxLine, cut)
	}
	// A line is too long when maxLine+1 bytes from its start hold no '\n':
	// look at windows of that size, jumping past the last '\n' of each, so
	// that a chunk of short lines costs a few backward scans instead of one
	// call per line.
	var out []longLine
	start := 0
	for start < len(data) {
		end := min(start+maxLine+1, len(data))
		if i := bytes.LastIndexByte(data[start:end], '\n'); i >= 0 {
			start += i + 1
			continue
		}
		if end == len(data) {
			break // a last line without '\n', no longer than maxLine
		}
		nl := bytes.IndexByte(data[start:], '\n')
		if nl < 0 {
			nl = len(data) - start
		}
		out = append(out, longLine{start, nl})
		start += nl + 1
	}
	return out
}

// longLinesEach is longLines line by line, for chunks with lines the
// chunker cut (which count as ChunkSize long).
func longLinesEach(data []byte, maxLine int, cut []int) []longLine {
	var out []longLine
	start := 0
	for start < len(data) {
		nl := bytes.IndexByte(data[start:], '\n')
		if nl < 0 {
			nl = len(data) - start
		}
		size := nl
		if len(cut) > 0 && cut[0] == start {
			cut = cut[1:]
			size = input.ChunkSize
		}
		if size > maxLine {
			out = append(out, longLine{start, size})
		}
		start += nl + 1
	}
	return out
}

func sizeText(n int) string {
	if n >= input.ChunkSize {
		return "more than " + strconv.Itoa(input.ChunkSize>>20) + " MiB"
	}
	return strconv.Itoa(n) + " bytes"
}
