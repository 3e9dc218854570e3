package core

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"imas/core/analyze"
	"imas/core/diag"
	"imas/core/input"
	"imas/core/model"
)

// The pipeline: one goroutine walks the sources and cuts them into
// chunks, Workers goroutines parse the chunks (chunk.go), and the consumer
// (consume.go) takes the parsed files in order and builds the model, by
// the in-order build or the merge (merge.go).

type fileState struct {
	path        string
	place       int   // the source it came from was read place-th (sourceAt)
	idx         int32 // file index: records, paths and ties name it
	duplicateOf string
	// Read side by side: the leaf cannot be a duplicate (input.Leaf.Unique),
	// and first is the earliest key its records can have.
	unique  bool
	first   mergeKey
	results []*chunkResult
	stats   input.ReadStats
	readErr error
	pending sync.WaitGroup
}

type job struct {
	file  int32
	seq   int
	chunk *input.Chunk
	fs    *fileState
	ready chan struct{} // closed once parsed, if set
}

// An event is what the consumer is told: a whole file (evFile), or for a
// file read side by side (sidebyside.go) its start, each chunk, its end.
type event struct {
	kind  eventKind
	fs    *fileState
	seq   int           // evChunk: the chunk's place in the file
	ready chan struct{} // evChunk: closed once the chunk is parsed
}

type eventKind uint8

const (
	evFile eventKind = iota
	evStart
	evChunk
	evEnd
)

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
	diags              []sourceDiag
	prog               Progress
	// finished files go to the consumer, which builds the model meanwhile;
	// read side by side, chunks do, at most cap(ahead) of them not yet
	// consumed.
	consume  chan event
	ahead    chan struct{}
	consumer *consumer
	consumed chan struct{}
	// pool passes the memory of chunks built to the workers (chunkPool).
	pool    *chunkPool
	sources int // sources walked so far
	// leaves of sources read in p.order beyond their first
	extraLeaves int
	// heads are the sources of the run with what their heads tell (Analyze
	// knows them all; nil otherwise), order the order they are read in
	// (nil: as given), and firstFrom[q] the earliest first record of the
	// sources read at places q, q+1, ... (nil: unknown); see horizon.go.
	heads     *heads
	order     []int
	firstFrom []mergeKey
	// sideBySide: the sources are read a chunk at a time in merge order
	// (sidebyside.go).
	sideBySide bool
}

// sourceDiag is an input-level diagnostic of the source at index src.
type sourceDiag struct {
	src int
	d   model.Diagnostic
}

func newPipeline(ctx context.Context, opt Options) *pipeline {
	// jobs is unbuffered so that a chunk is parsed soon after it is read and
	// fewer chunk buffers are in flight: less memory touched for the first
	// time, which costs more than parsing it (docs/performance.md, "Memory
	// is time"). The reader still runs ahead by one chunk per worker.
	p := &pipeline{ctx: ctx, opt: opt, jobs: make(chan job),
		consume: make(chan event, 64), consumed: make(chan struct{}),
		ahead: make(chan struct{}, 2*opt.Workers+2), pool: new(chunkPool)}
	p.consumer = newConsumer(p)
	go func() {
		defer close(p.consumed)
		p.consumer.run(p.consume)
	}()
	for i := 0; i < opt.Workers; i++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			sc := chunkScratch{pool: p.pool}
			for j := range p.jobs {
				r := p.parse(j, &sc)
				j.chunk.Release()
				p.lines.Add(r.lines)
				p.cands.Add(r.candidates)
				p.recs.Add(r.candidates - r.rejected)
				p.mu.Lock()
				j.fs.results[j.seq] = r
				p.mu.Unlock()
				if j.ready != nil {
					close(j.ready)
				}
				j.fs.pending.Done()
			}
		}()
	}
	return p
}

// source reads the source at place p.sources of the read order.
func (p *pipeline) source(s input.Source) {
	place := p.sources
	src := p.sourceAt(place)
	p.sources++
	first := true
	_ = input.Walk(s, p.opt.Limits, func(l input.Leaf) error {
		// Read in p.order, every source is one plain file, whose file
		// index is the source's; a file that turned into an archive since
		// its head was read gets indexes past them.
		idx := int32(len(p.files))
		if p.order != nil {
			idx = int32(src)
			if !first {
				idx = int32(len(p.order) + p.extraLeaves)
				p.extraLeaves++
			}
		}
		first = false
		fs := &fileState{path: l.Path, place: place, idx: idx}
		p.files = append(p.files, fs)
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
			p.progress(n)
			return nil
		})
		fs.stats = st
		if err != nil && p.ctx.Err() == nil {
			fs.readErr = err
		}
		p.dropIfDuplicate(fs)
		p.consume <- event{kind: evFile, fs: fs}
		return p.ctx.Err()
	}, func(d input.Diag) {
		p.diags = append(p.diags, sourceDiag{src, model.Diagnostic{Path: d.Path, Reason: d.Reason, Detail: d.Detail}})
	})
}

// progress counts n more bytes read and reports the run's advance.
func (p *pipeline) progress(n int64) {
	p.prog.Bytes += n
	if p.opt.Progress != nil {
		p.prog.Lines = p.lines.Load()
		p.prog.Candidates = p.cands.Load()
		p.prog.Records = p.recs.Load()
		p.opt.Progress(p.prog)
	}
}

// dropIfDuplicate frees the parsed records of a leaf whose content was
// already read, as soon as the leaf ends, so duplicates cost no memory.
func (p *pipeline) dropIfDuplicate(fs *fileState) {
	if !p.markDuplicate(fs) {
		return
	}
	go func() { // workers may still hold its chunks
		fs.pending.Wait()
		p.mu.Lock()
		fs.results = nil
		p.mu.Unlock()
	}()
}

// markDuplicate sets fs.duplicateOf when a leaf of the same content was
// read before, and reports whether it did.
func (p *pipeline) markDuplicate(fs *fileState) bool {
	if fs.readErr != nil || fs.stats.Bytes == 0 || !fs.stats.Hashed {
		return false // a Unique leaf (input.MarkUnique) has no duplicate
	}
	c := content{fs.stats.Hash, fs.stats.Bytes}
	if p.seen == nil {
		p.seen = map[content]string{}
	}
	if first, dup := p.seen[c]; dup {
		fs.duplicateOf = first
		return true
	}
	p.seen[c] = fs.path
	return false
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
		c.merge.emitBefore(mergeEnd)
		if c.mb != nil {
			b = c.mb
		}
	case !c.inOrder:
		b = c.newBuilder()
		mergeByTime(c.streams, b.Add)
	}
	c.built = b
	p.pool.drop() // the parsing is over
	rep := b.R
	rep.Tool = "imas " + Version
	// Input-level diagnostics come first, then those of the records.
	recDiags := rep.Diagnostics
	rep.Diagnostics = nil
	slices.SortStableFunc(p.diags, func(a, b sourceDiag) int { return cmp.Compare(a.src, b.src) })
	for _, d := range p.diags {
		b.Diag(d.d)
	}
	rep.Inputs.Files = []model.FileInfo{}
	rep.Inputs.Duplicates = []string{}
	for _, f := range c.files {
		if !f.read {
			continue
		}
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
	if p.opt.onBuilt != nil {
		p.opt.onBuilt()
	}
	b.Finish()
	switch {
	case p.opt.Summary && p.opt.FiguresOnly:
		analyze.SummaryAfter(rep)
	case p.opt.Summary:
		analyze.Summary(rep)
	case p.opt.Spill != nil:
		rep.Spilled = p.opt.Spill
		analyze.AllAfter(rep, c.early[b])
		if err := p.opt.Spill.Err(); err != nil {
			return nil, err
		}
	case c.early[b] != nil: // Options.Finished: analysed as finished, rows kept
		analyze.AllAfter(rep, c.early[b])
	default:
		analyze.All(rep)
	}
	capDiagnostics(rep, p.opt.MaxDiagnostics)
	return rep, nil
}

func capDiagnostics(rep *model.Report, max int) {
	if len(rep.Diagnostics) <= max {
		if rep.Diagnostics == nil {
			rep.Diagnostics = []model.Diagnostic{}
		}
		return
	}
	extra := len(rep.Diagnostics) - max
	rep.Diagnostics = append(rep.Diagnostics[:max:max], model.Diagnostic{Reason: diag.DiagnosticsTruncated,
		Detail: fmt.Sprintf("%d more diagnostics not listed; see diagnostic_counts", extra)})
}
