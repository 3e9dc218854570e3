package core

import (
	"errors"
	"fmt"

	"imas/core/analyze"
	"imas/core/diag"
	"imas/core/gelog"
	"imas/core/input"
	"imas/core/model"
	"imas/core/store"
)

// The model is built from the records of all files merged by time
// (mergeByTime). Waiting for the last file before building leaves one core
// idle for the whole build and keeps every record, so the consumer builds
// while the parsers run. How depends on what is known before the files are
// read:
//
//   - Every source a plain file (on disk or a browser File:
//     input.Source.RandomAccess; Analyze; horizon.go): the first
//     record of every file is known before the reading starts, and the
//     files are read in that order. The merge runs in steps from the start
//     into the model (stepwise): a file goes straight into the model when nothing
//     waits in the merge and no later file can start before its last
//     record (a plog folder of one process, rotated); otherwise it joins
//     the merge, which feeds the records due and lets each chunk go once
//     its records are in. Nothing is kept for later.
//   - Otherwise (archives, streamed uploads, AnalyzeSeq): the consumer speculates
//     that the files come in time order and do not overlap. The
//     speculation is checked file by file with the exact condition under
//     which the merge is a concatenation; on the first file that breaks it
//     the consumer stops building, and the build is redone from the start
//     with the merge. So records are kept until the end (rows on the
//     compact tape), and both paths see the same data and give the same
//     report.

// consumer takes finished files in read order.
type consumer struct {
	p     *pipeline
	b     *model.Builder
	paths []string // by file index, as far as files have arrived
	hints map[model.HintKey]model.Hint

	streams []fileStream // non-duplicate files with records, in order
	files   []fileOutcome

	inOrder bool  // every file so far was built as it came, without the merge
	maxT    int64 // latest merge time of the files built so far
	row     gelog.SetRow
	rd      *store.TapeReader

	// stepwise: the merge runs in steps into b from the first file (see
	// above), and no file is kept for a redo.
	stepwise bool
	// The merge run in steps: into b when stepwise; else, once the
	// in-order build stopped, where the first records of the files still
	// to come are known (horizon.go), into a builder of its own, mb.
	merge *merger
	mb    *model.Builder
	built *model.Builder // the one whose report finish returned
	// early analyses each builder's finished graphs for a spilled report
	// (Options.Spill) or one whose finished graphs are told
	// (Options.Finished); builds counts those builders.
	early  map[*model.Builder]*analyze.Early
	builds int
	// kept counts the chunks of streams; maxHeld is the most parsed chunks
	// held at once, waiting to be built (tests check that it does not grow
	// with the input).
	kept, maxHeld int
	// Files read side by side (sidebyside.go): those started and not
	// ended, by file index; the latest place started; the chunks of files
	// kept whole until their end.
	reading   map[int32]*readingFile
	lastPlace int
	wholeHeld int
}

// fileOutcome is what finish reports for one input file.
type fileOutcome struct {
	read      bool // the file was read (files come out of index order in p.order)
	info      model.FileInfo
	duplicate bool
	diags     []model.Diagnostic // read errors, duplicates, over-long lines
}

func newConsumer(p *pipeline) *consumer {
	c := &consumer{p: p, hints: map[model.HintKey]model.Hint{}, inOrder: !p.opt.alwaysMerge,
		reading: map[int32]*readingFile{}, lastPlace: -1}
	c.b = c.newBuilder()
	return c
}

// newBuilder returns a builder for the files so far (the size hints grow
// as files come).
func (c *consumer) newBuilder() *model.Builder {
	b := model.NewBuilder(c.paths)
	b.SizeHints(c.hints)
	b.SummaryOnly = c.p.opt.Summary
	switch opt := c.p.opt; {
	case opt.Summary && opt.FiguresOnly:
		b.OnFinished = analyze.NewEarly().Finish
	case !opt.Summary && (opt.Spill != nil || opt.Finished != nil):
		if s, ok := opt.Spill.(model.PoolRowStore); ok {
			b.PoolRows = s
		}
		e := analyze.NewEarlyDetail()
		build := c.builds
		c.builds++
		b.KeepRows = opt.Spill == nil
		b.OnSpill = func(gs []*model.Graph) {
			e.Finish(gs)
			if opt.Finished != nil {
				opt.Finished(build, gs)
			}
			if opt.Spill == nil {
				return
			}
			for _, g := range gs {
				opt.Spill.Put(g) // an error stays in the store and fails the run
			}
		}
		if s, ok := opt.Spill.(model.AddrRowStore); ok {
			b.AddrSpill, b.AddrRowsHeld = s, opt.addrRowsHeld
		}
		if c.early == nil {
			c.early = map[*model.Builder]*analyze.Early{}
		}
		c.early[b] = e
	}
	return b
}

// startMerge starts the merge in steps with the streams so far.
func (c *consumer) startMerge() {
	c.mb = c.newBuilder()
	c.merge = newMerger(c.mb.Add)
	for _, s := range c.streams {
		c.merge.push(s)
	}
}

// startStepwise starts the merge into b, before the first file.
func (c *consumer) startStepwise() {
	c.stepwise = true
	c.merge = newMerger(c.b.Add)
	c.merge.done = c.p.pool.put
}

// held is how many parsed chunks wait to be built: those in the merge,
// which has every kept stream once it runs, else every kept stream's.
func (c *consumer) held() int {
	if c.merge != nil {
		return c.merge.held + c.wholeHeld
	}
	return c.kept
}

// run consumes files, or the chunks of files read side by side, until the
// channel closes.
func (c *consumer) run(events <-chan event) {
	for e := range events {
		f := e.fs
		switch e.kind {
		case evStart:
			c.see(f)
			c.startFile(f)
		case evChunk:
			c.chunk(f, e.seq, e.ready)
			<-c.p.ahead
		case evEnd:
			c.endFile(f)
		}
		if e.kind != evFile {
			c.emitSideBySide()
			continue
		}
		c.see(f)
		if f.duplicateOf == "" {
			f.pending.Wait()
		}
		c.add(f, f.idx)
		if c.merge != nil {
			if h, ok := c.p.horizon(f.place); ok {
				c.merge.emitBefore(h)
			}
		}
	}
}

// see names a file that arrived.
func (c *consumer) see(f *fileState) {
	if n := int(f.idx) + 1; n > len(c.paths) {
		c.paths = append(c.paths, make([]string, n-len(c.paths))...)
		c.files = append(c.files, make([]fileOutcome, n-len(c.files))...)
	}
	c.paths[f.idx] = f.path
	c.b.SetPaths(c.paths)
	if c.mb != nil {
		c.mb.SetPaths(c.paths)
	}
}

// noteEnd records how a file's reading ended: a read error (its lines
// before the error are used) or a duplicate of a file read before.
func (out *fileOutcome) noteEnd(f *fileState) {
	if f.readErr != nil {
		reason := diag.TruncatedInput
		if errors.Is(f.readErr, input.ErrBomb) {
			reason = diag.BombLimit
		}
		out.info.Error = f.readErr.Error()
		out.diags = append(out.diags, model.Diagnostic{Path: f.path, Reason: reason, Detail: f.readErr.Error() + "; lines read before the error are used"})
	}
	if f.duplicateOf != "" {
		out.duplicate = true
		out.diags = append(out.diags, model.Diagnostic{Path: f.path, Reason: diag.DuplicateInput, Detail: "same content as " + f.duplicateOf + "; read once"})
	}
}

// add accounts for one file and, while the speculation holds, builds it.
func (c *consumer) add(f *fileState, idx int32) {
	out := fileOutcome{read: true, info: model.FileInfo{Path: f.path, Bytes: f.stats.Bytes}}
	out.noteEnd(f)
	if out.duplicate {
		c.files[idx] = out
		return
	}
	c.p.mu.Lock()
	results := f.results
	f.results = nil
	c.p.mu.Unlock()
	var chunks []*chunkResult
	var base int64
	fi := &out.info
	for _, r := range results {
		if r == nil {
			continue
		}
		c.account(f.path, fi, &out.diags, &base, r)
		if len(r.items) > 0 {
			chunks = append(chunks, r)
		}
	}
	fi.Records = fi.Candidates - fi.Rejected
	c.files[idx] = out
	if len(chunks) == 0 {
		return
	}
	s := fileStream{file: idx, chunks: chunks}
	if c.stepwise {
		c.addStepwise(s, f.place)
		return
	}
	c.streams = append(c.streams, s)
	c.kept += len(s.chunks)
	if c.merge != nil {
		c.merge.push(s)
	}
	c.maxHeld = max(c.maxHeld, c.held())
	if !c.inOrder || c.p.ctx.Err() != nil {
		return
	}
	first, last := s.mergeTimes()
	if len(c.streams) > 1 && first < c.maxT {
		c.inOrder = false // the merge, from the start
		if c.p.planHorizons(f.place); c.p.firstFrom != nil {
			c.startMerge()
		}
		return
	}
	c.maxT = max(c.maxT, last)
	c.build(s)
}

// account adds a parsed chunk, which follows base lines of its file, to the
// file's figures and diagnostics, and its size hints to the run's.
func (c *consumer) account(path string, fi *model.FileInfo, diags *[]model.Diagnostic, base *int64, r *chunkResult) {
	r.base = *base
	for k, h := range r.hints {
		t := c.hints[k]
		t.Rows += h.Rows
		t.Summaries[0] += h.Summaries[0]
		t.Summaries[1] += h.Summaries[1]
		c.hints[k] = t
	}
	r.hints = nil
	for _, rec := range r.records {
		gelog.M(rec).Line += *base
	}
	for _, o := range r.overlong {
		*diags = append(*diags, model.Diagnostic{Path: path, Line: o.line + *base, Reason: diag.LineTooLong,
			Detail: fmt.Sprintf("line of %s; only its first %d bytes were read", sizeText(o.size), c.p.opt.MaxLine), Text: o.text})
	}
	fi.Lines += r.lines
	fi.Candidates += r.candidates
	fi.Rejected += r.rejected
	*base += r.lines
}

// addStepwise builds s at once when the merge would feed it whole before
// anything else: nothing waits in the merge, and every record of s comes
// before the first of any file read later (the horizon). Otherwise s joins
// the merge.
func (c *consumer) addStepwise(s fileStream, place int) {
	if c.p.ctx.Err() != nil {
		return
	}
	if h, ok := c.p.horizon(place); ok && c.merge.h.Len() == 0 {
		if _, last := s.mergeTimes(); (mergeKey{last, s.file}).less(h) {
			c.build(s)
			return
		}
	}
	c.inOrder = false
	c.merge.push(s)
	c.maxHeld = max(c.maxHeld, c.held())
}

// mergeTimes returns the time mergeByTime gives the stream's first record
// and the latest time it gives any of its records (a record without a time
// takes its predecessor's). Merging streams is concatenating them exactly
// when each stream's first time is at least every earlier stream's latest:
// each stream is then drained before the next one's head is smaller, and
// ties go to the earlier file.
func (s fileStream) mergeTimes() (first, latest int64) {
	first = s.chunks[0].items[0].time
	latest = first
	for _, ch := range s.chunks {
		for i := range ch.items {
			latest = max(latest, ch.items[i].time)
		}
	}
	return first, latest
}

// build feeds one stream's records in order.
func (c *consumer) build(s fileStream) {
	if c.rd == nil {
		c.rd = store.NewTapeReader()
	}
	for _, ch := range s.chunks {
		for _, it := range ch.items {
			feed(c.rd, &c.row, s.file, ch, it, c.b.Add)
		}
		if c.stepwise {
			c.p.pool.put(ch) // no redo reads it again
		}
	}
}

// feed decodes one item and adds it. Tape rows are decoded into row, which
// is reused: add must not keep the record.
func feed(rd *store.TapeReader, row *gelog.SetRow, file int32, ch *chunkResult, it item, add func(gelog.Record)) {
	if it.ref < 0 {
		add(ch.records[^it.ref])
		return
	}
	m := gelog.Meta{File: file, Line: it.line + ch.base, Time: it.time}
	if err := rd.Read(ch.tape, int(it.ref), row, m); err != nil {
		add(gelog.Rejectf(m, nil, diag.InternalError, err.Error()))
		return
	}
	add(row)
}
