package main

import (
	"context"
	"fmt"
	"io"

	"imas/internal/driver"
)

func init() {
	register(&command{
		name:    "total",
		usage:   "total PATH...",
		summary: "print one summary line per graph and memory type, then device memory by category (PATH may be a saved report.json)",
		run:     runTotal,
	})
	register(&command{
		name:    "version",
		usage:   "version",
		summary: "print the imas version, commit, build date and Go version",
		run: func(_ context.Context, args []string, stdout, stderr io.Writer) int {
			fs := newFlags(commands["version"], stderr)
			if code := parseFlags(fs, args, false); code >= 0 {
				return code
			}
			fmt.Fprint(stdout, driver.BuildInfo())
			return exitOK
		},
	})
}

func runTotal(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(commands["total"], stderr)
	if code := parseFlags(fs, args, true); code >= 0 {
		return code
	}
	rep, code := loadEnv(ctx, fs.Args(), driver.Total, stderr)
	if rep == nil || code != exitOK {
		return code
	}
	if err := driver.Total.Text(stdout, rep); err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return exitNoInput
	}
	return exitOK
}
