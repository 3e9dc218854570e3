package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"imas/core/analyze"
	"imas/core/export"
	"imas/core/reportjson"
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

// loadRun reads one run: a saved report.json (recognised by its content,
// whatever its name), or logs (a file, directory, archive or glob).
func loadRun(ctx context.Context, path string, stderr io.Writer) (*analyze.Run, int) {
	if data, ok := readReport(path); ok {
		run, err := reportjson.Load(path, data)
		if err != nil {
			fmt.Fprintln(stderr, "imas:", err)
			return nil, exitNoInput
		}
		return run, exitOK
	}
	rep, code := analyzePaths(ctx, []string{path}, stderr)
	if rep == nil || code != exitOK {
		return nil, code
	}
	return analyze.RunOf(path, rep), exitOK
}

// readReport returns the content of path when it is a regular file holding
// a saved report; it reads a file whole only if it starts like JSON.
func readReport(path string) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	if !reportjson.LooksLikeJSON(head[:n]) {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil || !reportjson.IsReport(data) {
		return nil, false
	}
	return data, true
}
