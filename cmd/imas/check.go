package main

import (
	"context"
	"fmt"
	"io"

	"imas/core/export"
)

func init() {
	register(&command{
		name:    "check",
		usage:   "check PATH...",
		summary: "list reuse conflicts and operator addresses outside their region; exit 3 if any",
		run:     runCheck,
	})
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(commands["check"], stderr)
	if code := parseFlags(fs, args, true); code >= 0 {
		return code
	}
	rep, code := analyzePaths(ctx, fs.Args(), stderr)
	if rep == nil || code != exitOK {
		return code
	}
	n, err := export.WriteCheck(stdout, rep)
	if err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return exitNoInput
	}
	if n > 0 {
		return exitFinding
	}
	return exitOK
}
