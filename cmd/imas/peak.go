package main

import (
	"context"
	"fmt"
	"io"

	"imas/core/analyze"
	"imas/core/export"
)

func init() {
	register(&command{
		name:    "peak",
		usage:   "peak [-n N] PATH...",
		summary: "per graph, the largest blocks live at the peak step and where after_reuse − theory_min goes",
		run:     runPeak,
	})
}

func runPeak(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(commands["peak"], stderr)
	n := fs.Int("n", 10, "blocks listed per graph")
	if code := parseFlags(fs, args, true); code >= 0 {
		return code
	}
	if *n < 1 {
		fmt.Fprintln(stderr, "imas peak: -n must be at least 1")
		return exitUsage
	}
	rep, code := analyzePaths(ctx, fs.Args(), stderr)
	if rep == nil || code != exitOK {
		return code
	}
	if *n > analyze.PeakTop { // the report keeps PeakTop blocks
		for _, g := range rep.Graphs {
			g.Peak = analyze.Peak(g, *n)
		}
	}
	if err := export.WritePeak(stdout, rep, *n); err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return exitNoInput
	}
	return exitOK
}
