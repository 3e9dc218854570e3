// Package core is the one entry point every front door uses (CLI, page,
// server, worker): it reads sources, parses them on all cores, merges the
// records deterministically, builds the model and runs the analyses.
package core

import (
	"context"
	"iter"
	"runtime"

	"imas/core/input"
	"imas/core/model"
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
	// FiguresOnly, with Summary, lets each graph's rows go as soon as its
	// figures and conflicts are computed (analyze.Early), so that memory
	// does not grow with the rows of the run: the report has no rows.
	// For callers that print figures only ("imas total").
	FiguresOnly bool
	// Spill, without Summary, moves each graph's rows to the store once
	// its compilation is finished and every per-graph analysis of it has
	// run (analyze.NewEarlyDetail), so that memory holds the rows of the
	// graphs still open; the report reads the others back through
	// model.Report.WithRows. The pools' allocation rows go to it too as
	// they age (model.Builder.PoolRows), read back by model.Pool.RowReader.
	// The caller closes the store after writing.
	Spill RowSpill
	// Parser, if set, parses the chunks elsewhere (the page's parse
	// workers, see remote.go); Workers is then how many chunks are out at
	// once.
	Parser ChunkParser
	// Finished, if set (without Summary), is told of the graphs of each
	// compilation (one per memory type) as soon as they are finished —
	// nothing later in the logs can change them — and analysed, as Spill
	// analyses them: their figures and conflicts are final. It is called
	// on the goroutine that builds the model, so it must be quick; the
	// graphs keep their rows (unless Spill takes them after). build
	// numbers the model being built: where the build starts again from
	// the first file (the merge of files found to overlap in time), the
	// graphs of earlier builds are not in the report.
	Finished func(build int, gs []*model.Graph)

	alwaysMerge bool // no in-order build nor merge while parsing (tests compare)
	// addrRowsHeld, with Spill, is how many address rows the build holds
	// before it moves them to the store (0: the builder's default; tests
	// set a few, to move them on small inputs)
	addrRowsHeld int
	// onBuilt, if set, is called once every record is in the model, before
	// the report is made of it (tests measure what the build holds).
	onBuilt func()
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
	p, srcs := planned(ctx, srcs, opt)
	p.readAll(srcs)
	return p.finish()
}

// planned returns Analyze's pipeline, planned, and the sources to read.
func planned(ctx context.Context, srcs []input.Source, opt Options) (*pipeline, []input.Source) {
	opt = opt.withDefaults()
	// Each file's head is read once, for all that is decided before the
	// reading starts.
	hs := newHeads(srcs, opt.MaxLine)
	srcs = input.MarkUnique(srcs, hs.plain)
	hs.srcs = srcs
	p := newPipeline(ctx, opt)
	p.plan(hs)
	return p, srcs
}

// AnalyzeSeq is Analyze over sources that come into being one at a time,
// such as the parts of a streamed multipart upload: each is read to its end
// before the next is asked for.
func AnalyzeSeq(ctx context.Context, srcs iter.Seq[input.Source], opt Options) (*model.Report, error) {
	return analyzeWith(ctx, srcs, opt)
}

// analyzeWith runs the pipeline on sources read in the order given.
func analyzeWith(ctx context.Context, srcs iter.Seq[input.Source], opt Options) (*model.Report, error) {
	opt = opt.withDefaults()
	p := newPipeline(ctx, opt)
	for s := range srcs {
		if err := ctx.Err(); err != nil {
			break
		}
		p.source(s)
	}
	return p.finish()
}

// RowSpill is a store that takes the rows of a report's finished graphs
// (Options.Spill; core/spill.Store is the one on disk, core/rowpack the
// page's in memory). Put moves g's rows into it; Err is its first error,
// which fails the run. A store that is also a model.PoolRowStore takes the
// pools' older allocation rows, and a model.AddrRowStore the operator
// addresses; without them those stay in memory.
type RowSpill interface {
	model.RowStore
	Put(g *model.Graph) error
	Err() error
}
