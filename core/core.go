// Package core is the one entry point every front door uses (CLI, page,
// server, worker): it reads sources, parses them on all cores, merges the
// records deterministically, builds the model and runs the analyses.
package core

import (
	"bytes"
	"container/heap"
	"context"
	"fmt"
	"iter"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"imas/core/analyze"
	"imas/core/gelog"
	"imas/core/input"
	"imas/core/internal/prefault"
	"imas/core/model"
	"imas/core/plog"
)

// Version is the imas version, set by the build.
var Version = "0.1.0-dev"

// Options tune a run. The zero value is fine.
type Options struct {
	Limits         input.Limits
	MaxLine        int // longest line parsed; longer ones are cut with a diagnostic (default 64 KiB)
	Workers        int // parallel parsers (default GOMAXPROCS)
	MaxDiagnostics int // listed diagnostics; the rest are counted (default 100000)
	// Progress, if set, is called after each chunk from the reading goroutine.
	Progress func(Progress)
	// Summary runs only the analyses of a summary (analyze.Summary): the
	// report has figures, conflicts and run-time figures, but no waste,
	// peak or address checks.
	Summary bool

	alwaysMerge bool // no in-order build nor merge while parsing (tests compare)
}

// Progress reports a run's advance.
type Progress struct {
	Path       string
	Files      int
	Bytes      int64 // bytes of text read so far (after decompression)
	Lines      int64
	Candidates int64
	Records    int64
}

func (o Options) withDefaults() Options {
	if o.MaxLine <= 0 {
		o.MaxLine = 64 << 10
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.MaxDiagnostics <= 0 {
		o.MaxDiagnostics = 100000
	}
	return o
}

// Analyze reads every source and returns the full report. It fails only
// when the context is cancelled; unreadable inputs become diagnostics.
func Analyze(ctx context.Context, srcs []input.Source, opt Options) (*model.Report, error) {
	srcs = input.MarkUnique(srcs)
	return analyzeWith(ctx, slices.Values(srcs), opt, func(p *pipeline) { p.plan(srcs) })
}

// AnalyzeSeq is Analyze over sources that come into being one at a time,
// such as the parts of a streamed multipart upload: each is read to its end
// before the next is asked for.
func AnalyzeSeq(ctx context.Context, srcs iter.Seq[input.Source], opt Options) (*model.Report, error) {
	return analyzeWith(ctx, srcs, opt, nil)
}

// analyzeWith runs the pipeline; plan, if set, sees it before the first
// source (Analyze knows all its sources up front).
func analyzeWith(ctx context.Context, srcs iter.Seq[input.Source], opt Options, plan func(*pipeline)) (*model.Report, error) {
	opt = opt.withDefaults()
	p := newPipeline(ctx, opt)
	if plan != nil {
		plan(p)
	}
	for s := range srcs {
		if err := ctx.Err(); err != nil {
			break
		}
		p.source(s)
	}
	return p.finish()
}

// ---- pipeline ----

type fileState struct {
	path        string
	src         int // index of the source it came from
	duplicateOf string
	results     []*chunkResult
	stats       input.ReadStats
	readErr     error
	pending     sync.WaitGroup
}

type chunkResult struct {
	lines      int64
	candidates int64
	rejected   int64
	// items lists the chunk's records in line order. "[IMAS]Set" rows, the
	// bulk of every log, wait for the merge on the row tape; the other
	// records in records.
	items    []item
	tape     *gelog.RowTape
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

type job struct {
	file  int32
	seq   int
	chunk *input.Chunk
	fs    *fileState
}

type pipeline struct {
	ctx   context.Context
	opt   Options
	jobs  chan job
	wg    sync.WaitGroup
	mu    sync.Mutex
	files []*fileState
	seen  map[content]string
	// progress counters, updated by the workers
	lines, cands, recs atomic.Int64
	diags              []model.Diagnostic
	prog               Progress
	// finished files go to the consumer, which builds the model meanwhile
	consume  chan *fileState
	consumer *consumer
	consumed chan struct{}
	sources  int // sources walked so far
	// planned are the sources of the run (Analyze knows them all), and
	// firstFrom[i] the earliest first record of sources i, i+1, ... (nil:
	// unknown); see horizon.go.
	planned   []input.Source
	firstFrom []int64
}

func newPipeline(ctx context.Context, opt Options) *pipeline {
	// jobs is unbuffered so that a chunk is parsed soon after it is read and
	// fewer chunk buffers are in flight: on the 560 MB benchmark that was
	// 17 MiB less RSS and about 5% less wall time than a buffer of
	// 2×Workers. The reader still runs ahead by one chunk per worker.
	p := &pipeline{ctx: ctx, opt: opt, jobs: make(chan job),
		consume: make(chan *fileState, 64), consumed: make(chan struct{})}
	p.consumer = newConsumer(p)
	go func() {
		defer close(p.consumed)
		p.consumer.run(p.consume)
	}()
	for i := 0; i < opt.Workers; i++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			var sc chunkScratch
			for j := range p.jobs {
				r := parseChunk(j.chunk, j.file, opt.MaxLine, &sc)
				j.chunk.Release()
				p.lines.Add(r.lines)
				p.cands.Add(r.candidates)
				p.recs.Add(r.candidates - r.rejected)
				p.mu.Lock()
				j.fs.results[j.seq] = r
				p.mu.Unlock()
				j.fs.pending.Done()
			}
		}()
	}
	return p
}

func (p *pipeline) source(s input.Source) {
	src := p.sources
	p.sources++
	_ = input.Walk(s, p.opt.Limits, func(l input.Leaf) error {
		fs := &fileState{path: l.Path, src: src}
		p.files = append(p.files, fs)
		idx := int32(len(p.files) - 1)
		p.prog.Files = len(p.files)
		p.prog.Path = l.Path
		seq := 0
		st, err := input.Chunks(l.R, p.opt.MaxLine, !l.Unique, func(c *input.Chunk) error {
			if err := p.ctx.Err(); err != nil {
				c.Release()
				return err
			}
			p.mu.Lock()
			fs.results = append(fs.results, nil)
			p.mu.Unlock()
			fs.pending.Add(1)
			n := int64(len(c.Data)) // c belongs to the worker once sent
			p.jobs <- job{file: idx, seq: seq, chunk: c, fs: fs}
			seq++
			p.prog.Bytes += n
			if p.opt.Progress != nil {
				p.prog.Lines = p.lines.Load()
				p.prog.Candidates = p.cands.Load()
				p.prog.Records = p.recs.Load()
				p.opt.Progress(p.prog)
			}
			return nil
		})
		fs.stats = st
		if err != nil && p.ctx.Err() == nil {
			fs.readErr = err
		}
		p.dropIfDuplicate(fs)
		p.consume <- fs
		return p.ctx.Err()
	}, func(d input.Diag) {
		p.diags = append(p.diags, model.Diagnostic{Path: d.Path, Reason: d.Reason, Detail: d.Detail})
	})
}

// dropIfDuplicate frees the parsed records of a leaf whose content was
// already read, as soon as the leaf ends, so duplicates cost no memory.
func (p *pipeline) dropIfDuplicate(fs *fileState) {
	if fs.readErr != nil || fs.stats.Bytes == 0 || !fs.stats.Hashed {
		return // a Unique leaf (input.MarkUnique) has no duplicate
	}
	c := content{fs.stats.Hash, fs.stats.Bytes}
	if p.seen == nil {
		p.seen = map[content]string{}
	}
	if first, dup := p.seen[c]; dup {
		fs.duplicateOf = first
		go func() { // workers may still hold its chunks
			fs.pending.Wait()
			p.mu.Lock()
			fs.results = nil
			p.mu.Unlock()
		}()
		return
	}
	p.seen[c] = fs.path
}

type content struct {
	hash  uint64
	bytes int64
}

func (p *pipeline) finish() (*model.Report, error) {
	close(p.jobs)
	p.wg.Wait()
	close(p.consume)
	<-p.consumed
	if err := p.ctx.Err(); err != nil {
		return nil, err
	}
	c := p.consumer
	b := c.b
	switch {
	case c.merge != nil:
		c.merge.emitUpTo(math.MaxInt64)
		b = c.mb
	case !c.inOrder:
		b = c.newBuilder()
		mergeByTime(c.streams, b.Add)
	}
	rep := b.R
	rep.Tool = "imas " + Version
	// Input-level diagnostics come first, then those of the records.
	recDiags := rep.Diagnostics
	rep.Diagnostics = nil
	for _, d := range p.diags {
		b.Diag(d)
	}
	rep.Inputs.Files = []model.FileInfo{}
	rep.Inputs.Duplicates = []string{}
	for _, f := range c.files {
		for _, d := range f.diags {
			b.Diag(d)
		}
		if f.duplicate {
			rep.Inputs.Duplicates = append(rep.Inputs.Duplicates, f.info.Path)
			continue
		}
		fi := f.info
		rep.Inputs.Files = append(rep.Inputs.Files, fi)
		rep.Inputs.Lines += fi.Lines
		rep.Inputs.Candidates += fi.Candidates
		rep.Inputs.Rejected += fi.Rejected
		rep.Inputs.Records += fi.Records
	}
	rep.Diagnostics = append(rep.Diagnostics, recDiags...)
	c.streams = nil // the records are in the model now
	b.Finish()
	if p.opt.Summary {
		analyze.Summary(rep)
	} else {
		analyze.All(rep)
	}
	capDiagnostics(rep, p.opt.MaxDiagnostics)
	return rep, nil
}

func sizeText(n int) string {
	if n >= input.ChunkSize {
		return "more than " + strconv.Itoa(input.ChunkSize>>20) + " MiB"
	}
	return strconv.Itoa(n) + " bytes"
}

func capDiagnostics(rep *model.Report, max int) {
	if len(rep.Diagnostics) <= max {
		if rep.Diagnostics == nil {
			rep.Diagnostics = []model.Diagnostic{}
		}
		return
	}
	extra := len(rep.Diagnostics) - max
	rep.Diagnostics = append(rep.Diagnostics[:max:max], model.Diagnostic{Reason: "diagnostics-truncated",
		Detail: fmt.Sprintf("%d more diagnostics not listed; see diagnostic_counts", extra)})
}

// chunkScratch is what a parsing worker carries from chunk to chunk: the
// line-start buffer, and what its last chunk's tape needed (Set rows per
// candidate line, name text and rare entries per row), to size the next
// tape (tapeSize). A tape that outgrows a buffer copies it into memory
// touched for the first time, and one sized too big touches memory for
// nothing (prefault).
type chunkScratch struct {
	cand        []int
	sized       bool // the fields below describe a previous chunk
	rowsPer1024 int  // Set rows per 1024 candidate lines, rounded up
	textPerRow  int  // bytes, rounded up
	rarePer1024 int  // rare entries per 1024 rows, rounded up
}

// tapeSize returns the size of a chunk's tape. Rows: one per candidate line
// (each gives at most one), so that rows are never copied; backing only the
// rows the last chunk's mix predicts saved little and cost more page faults
// than it saved (the mix moves between 80 and 93 % rows from chunk to chunk
// on the 560 MB benchmark). Text and rare entries: an eighth more than the
// last chunk's proportions give for that many rows, so that a chunk with a
// little more seldom grows (sized for every candidate, the text was 3.5
// times too big: 10 MB of memory touched for nothing on that benchmark).
func (sc *chunkScratch) tapeSize(cand int) gelog.TapeSize {
	if !sc.sized {
		return gelog.TapeSize{Rows: cand, Text: cand * 32}
	}
	likely := min(cand, (cand*sc.rowsPer1024+1023)/1024*9/8+16)
	return gelog.TapeSize{Rows: cand, Text: likely * sc.textPerRow, Rare: likely * sc.rarePer1024 / 1024}
}

// learn records what a finished chunk's tape needed.
func (sc *chunkScratch) learn(cand int, t *gelog.RowTape) {
	if cand == 0 {
		return
	}
	rows := t.Len()
	sc.sized = true
	sc.rowsPer1024 = (rows*1024 + cand - 1) / cand
	if rows > 0 {
		text, rare := t.Sizes()
		sc.textPerRow = (text + rows - 1) / rows
		sc.rarePer1024 = (rare*1024 + rows - 1) / rows
	}
}

// parseChunk finds the candidate lines of a chunk and parses them. Only
// candidate and over-long lines are looked at one by one; everything else is
// counted at memory speed. sc is the worker's scratch; parseChunk updates it
// for the next chunk.
func parseChunk(c *input.Chunk, file int32, maxLine int, sc *chunkScratch) *chunkResult {
	r := &chunkResult{}
	data := c.Data
	cand := gelog.CandidateLines(data, sc.cand[:0])
	sc.cand = cand
	nCand := len(cand) // cand is consumed below
	long := longLines(data, maxLine, c.Cut)
	var env plog.Envelope
	var set gelog.SetRow
	// Sized for the usual mix (nearly all candidates are rows) so that
	// neither grows.
	r.items = make([]item, 0, nCand)
	prefault.Slice(r.items)
	r.tape = gelog.NewRowTape(sc.tapeSize(nCand))
	r.hints = map[model.HintKey]model.Hint{}
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
		ok := plog.Parse(l, &env)
		rec := gelog.ParseInto(&env, ok, l, gelog.Meta{File: file, Line: n}, &set)
		it := item{time: gelog.M(rec).Time, line: n}
		if rec == gelog.Record(&set) {
			it.ref = int64(r.tape.Append(&set))
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
			r.records = append(r.records, rec)
		}
		r.items = append(r.items, it)
	}
	r.addRows(run, runRows)
	r.lines = lineAt(len(data)) - 1 // every line ends with '\n'
	sc.learn(nCand, r.tape)
	return r
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
	m.emitUpTo(math.MaxInt64)
}

// merger is mergeByTime in steps, so that it can run while the files are
// parsed: streams are pushed in file order, and emitUpTo feeds the records
// due before any stream still to come can have one (see horizon.go).
type merger struct {
	h   recHeap
	rd  *gelog.TapeReader
	row gelog.SetRow
	add func(gelog.Record)
}

func newMerger(add func(gelog.Record)) *merger {
	return &merger{rd: gelog.NewTapeReader(), add: add}
}

func (m *merger) push(s fileStream) { m.h.push(s) }

// emitUpTo feeds records in merge order while the next one's time is at
// most limit.
func (m *merger) emitUpTo(limit int64) {
	h := &m.h
	for h.Len() > 0 && (*h)[0].t <= limit {
		c := (*h)[0]
		ch := c.chunks[c.ci]
		it := ch.items[c.ii]
		feed(m.rd, &m.row, c.file, ch, it, m.add)
		if it.ref < 0 {
			ch.records[^it.ref] = nil // let the record go as soon as the model has it
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
