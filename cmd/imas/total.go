package main

import (
	"context"
	"fmt"
	"io"

	"imas/core"
	"imas/core/export"
)

func init() {
	register(&command{
		name:    "total",
		usage:   "total PATH...",
		summary: "print one summary line per graph and memory type, then device memory by category",
		run:     runTotal,
	})
	register(&command{
		name:    "version",
		usage:   "version",
		summary: "print the imas version",
		run: func(_ context.Context, args []string, stdout, stderr io.Writer) int {
			fs := newFlags(commands["version"], stderr)
			if code := parseFlags(fs, args, false); code >= 0 {
				return code
			}
			fmt.Fprintln(stdout, "imas", core.Version)
			return exitOK
		},
	})
}

func runTotal(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(commands["total"], stderr)
	if code := parseFlags(fs, args, true); code >= 0 {
		return code
	}
	rep, code := analyzeSummary(ctx, fs.Args(), stderr)
	if rep == nil || code != exitOK {
		return code
	}
	if err := export.WriteTotal(stdout, rep); err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return exitNoInput
	}
	return exitOK
}
