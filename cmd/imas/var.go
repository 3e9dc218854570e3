package main

import (
	"context"
	"fmt"
	"io"

	"imas/core/export"
)

func init() {
	register(&command{
		name:    "var",
		usage:   "var PATH...",
		summary: "print variable memory per session (imas_mem_variable.csv)",
		run:     runVar,
	})
}

// runVar prints the rows of imas_mem_variable.csv: one row per
// [IMAS]AssignVarMem line and a summary row per (process, session).
func runVar(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(commands["var"], stderr)
	if code := parseFlags(fs, args, true); code >= 0 {
		return code
	}
	rep, code := analyzePaths(ctx, fs.Args(), stderr)
	if rep == nil || code != exitOK {
		return code
	}
	if len(rep.Variables) == 0 {
		fmt.Fprintln(stderr, "imas: no [IMAS]AssignVarMem lines (INFO lines of graph compilation)")
	}
	if err := export.WriteVarCSV(stdout, rep); err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return exitNoInput
	}
	return exitOK
}
