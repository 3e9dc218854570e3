package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"imas/core"
	"imas/core/export"
	"imas/core/model"
	"imas/core/spill"
	"imas/internal/driver"
)

func init() {
	register(&command{
		name:    "report",
		usage:   "report [-o DIR] [-trace-format json|proto] [-trace-graphs auto|all|N] [-rows=false] [-spill=false] PATH...",
		summary: "write the CSV reports, report.json and the Perfetto trace to DIR (default ./mem_report)",
		run:     runReport,
	})
}

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := commands["report"]
	fs := newFlags(c, stderr)
	out := fs.String("o", "mem_report", "output directory (created if missing; the only place imas writes besides -spill's temporary directory)")
	limits := limitFlags(fs)
	traceFormat := fs.String("trace-format", export.TraceJSON, "format of the Perfetto trace: json (imas_graph_perfetto.json) or proto (imas_graph_perfetto.pftrace, several times smaller, for big runs)")
	traceGraphs := fs.String("trace-graphs", "auto", fmt.Sprintf("graphs the trace shows: all, N (the N largest), or auto (all while they hold at most %d tensor rows, %d in the proto format, else the largest that fit; the trace says what it left out)", export.AutoTraceRowsJSON, export.AutoTraceRowsProto))
	rows := fs.Bool("rows", true, "keep the per-tensor and per-allocation rows in report.json (-rows=false: figures only, a small file)")
	spillRows := fs.Bool("spill", true, "keep the rows of finished graphs and the pools' older allocation rows in a temporary file (under $TMPDIR, removed at exit) rather than in memory; -spill=false keeps every row in memory")
	if code := parseFlags(fs, args, true); code >= 0 {
		return code
	}
	opts, err := traceOptions(*traceFormat, *traceGraphs, *rows)
	if err != nil {
		fmt.Fprintln(stderr, "imas report:", err)
		return exitUsage
	}
	lim, err := limits()
	if err != nil {
		fmt.Fprintln(stderr, "imas report:", err)
		return exitUsage
	}
	opt := core.Options{Limits: lim}
	if *spillRows {
		store, err := spill.New("")
		if err != nil {
			fmt.Fprintln(stderr, "imas report:", err)
			return exitNoInput
		}
		defer store.Close() // also when the run is interrupted (ctx) or fails
		opt.Spill = store
	}
	rep, code := load(ctx, fs.Args(), driver.Report, opt, stderr)
	if rep == nil {
		return code
	}
	if err := writeReportDir(*out, rep, opts); err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return exitNoInput
	}
	printShortSummary(stdout, rep, *out)
	if note := export.TraceNote(rep, opts); note != "" {
		fmt.Fprintf(stdout, "trace: %s\n", note)
	}
	return code
}

// writeReportDir writes every export.Outputs file into dir, several at a
// time (the writers only read the report). Files are written under a
// temporary name and renamed, so a failed run never leaves half a file;
// nothing is written outside dir.
func writeReportDir(dir string, rep *model.Report, opts export.TraceOptions) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return export.EachOutputOf(export.OutputsWith(opts), func(o export.Output) error { return writeReportFile(dir, o, rep) })
}

// traceOptions reads -trace-format, -trace-graphs and -rows.
func traceOptions(format, graphs string, rows bool) (export.TraceOptions, error) {
	o := export.TraceOptions{Format: format, OmitRows: !rows}
	switch format {
	case export.TraceJSON, export.TraceProto:
	default:
		return o, fmt.Errorf("-trace-format %q: want json or proto", format)
	}
	switch graphs {
	case "auto":
		o.Scope.Graphs = export.AutoGraphs
	case "all":
		o.Scope.Graphs = export.AllGraphs
	default:
		n, err := strconv.Atoi(graphs)
		if err != nil || n <= 0 {
			return o, fmt.Errorf("-trace-graphs %q: want all, auto or a positive count", graphs)
		}
		o.Scope.Graphs = n
	}
	return o, nil
}

func writeReportFile(dir string, o export.Output, rep *model.Report) error {
	final := filepath.Join(dir, o.Name)
	tmp, err := os.CreateTemp(dir, "."+o.Name+".*")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(tmp, 1<<20)
	werr := o.Write(bw, rep)
	if werr == nil {
		werr = bw.Flush()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", final, werr)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

func printShortSummary(w io.Writer, rep *model.Report, dir string) {
	in := rep.Inputs
	fmt.Fprintf(w, "read %d %s, %d lines: %d memory records, %d rejected", len(in.Files), plural(len(in.Files), "file", "files"), in.Lines, in.Records, in.Rejected)
	if len(in.Duplicates) > 0 {
		fmt.Fprintf(w, ", %d duplicate %s skipped", len(in.Duplicates), plural(len(in.Duplicates), "input", "inputs"))
	}
	fmt.Fprintln(w)
	for _, g := range rep.Graphs {
		fmt.Fprintf(w, "  pid %s %s memtype %d: memory_size %s, reuse rate %s%%, reach_theory_rate %s%%, %d tensors",
			g.PID, g.Graph, g.MemType, export.Bytes(g.MemorySize), export.Rate(g.ReuseRate), export.Rate2(g.ReachTheoryRate), g.Tensors)
		if n := len(g.Conflicts); n > 0 {
			fmt.Fprintf(w, ", %d reuse %s", n, plural(n, "conflict", "conflicts"))
		}
		fmt.Fprintln(w)
	}
	if n := len(rep.Diagnostics); n > 0 {
		fmt.Fprintf(w, "%d diagnostics (see report.json)\n", n)
	}
	fmt.Fprintf(w, "wrote %s/\n", dir)
}
