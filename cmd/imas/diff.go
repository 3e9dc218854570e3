package main

import (
	"context"
	"fmt"
	"io"

	"imas/core"
	"imas/core/analyze"
	"imas/core/export"
	"imas/internal/driver"
)

func init() {
	register(&command{
		name:    "diff",
		usage:   "diff [-json] OLD NEW",
		summary: "compare two runs (logs, or report.json files) graph by graph",
		run:     runDiff,
	})
}

func runDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(commands["diff"], stderr)
	asJSON := fs.Bool("json", false, "write the diff as JSON")
	if code := parseFlags(fs, args, true); code >= 0 {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "imas diff: need exactly two runs, OLD and NEW")
		fs.Usage()
		return exitUsage
	}
	var runs [2]*analyze.Run
	for i, path := range fs.Args() {
		run, code := loadRun(ctx, path, stderr)
		if run == nil {
			return code
		}
		runs[i] = run
	}
	d := analyze.Diff(runs[0], runs[1])
	write := export.WriteDiff
	if *asJSON {
		write = export.WriteDiffJSON
	}
	if err := write(stdout, d); err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return exitNoInput
	}
	return exitOK
}

// loadRun reads one side of a diff: logs (a file, directory, archive or
// glob) or a saved report.json (driver.IsSavedReport, whatever its name).
func loadRun(ctx context.Context, path string, stderr io.Writer) (*analyze.Run, int) {
	lim, err := envLimits()
	if err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return nil, exitUsage
	}
	srcs, diags, code := sources([]string{path}, stderr)
	if srcs == nil {
		return nil, code
	}
	if driver.SavedReport(srcs) {
		run, err := driver.LoadRun(ctx, path, srcs, core.Options{})
		if err != nil {
			fmt.Fprintln(stderr, "imas:", err)
			return nil, exitNoInput
		}
		return run, exitOK
	}
	rep, code := loadSources(ctx, srcs, diags, driver.Diff, core.Options{Limits: lim}, stderr)
	if code != exitOK {
		return nil, code
	}
	return analyze.RunOf(path, rep), exitOK
}
