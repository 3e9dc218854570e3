package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"imas/core/analyze"
	"imas/core/export"
)

func init() {
	register(&command{
		name:    "compare",
		usage:   "compare [-json] PATH...",
		summary: "rank runs (each PATH one run: logs or report.json) by after_reuse, best first",
		run:     runCompare,
	})
}

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(commands["compare"], stderr)
	asJSON := fs.Bool("json", false, "write the ranking as JSON")
	if code := parseFlags(fs, args, true); code >= 0 {
		return code
	}
	var runs []*analyze.Run
	for _, path := range fs.Args() {
		run, code := loadRun(ctx, path, stderr)
		if run == nil {
			return code
		}
		runs = append(runs, run)
	}
	c := analyze.Compare(runs)
	var err error
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		err = enc.Encode(c)
	} else {
		err = export.WriteCompare(stdout, c)
	}
	if err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return exitNoInput
	}
	return exitOK
}
