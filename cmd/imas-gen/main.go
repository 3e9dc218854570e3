// Command imas-gen writes deterministic GE plog fixtures and their truth.
//
//	imas-gen -profile mixed -seed 7 -o DIR        # DIR/plog-*.log + DIR/truth.json
//	imas-gen -profile large -size 560M -o DIR     # benchmark input (rotated 20 MiB files)
//	imas-gen -profile large -size 560M -stdout    # the same lines as one stream on stdout
//	imas-gen -profile poolheavy -size 5G -o DIR   # a benchmark mix (also ranks, smallgraphs, hugegraph)
//	imas-gen -list
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"imas/internal/gen"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("imas-gen", flag.ContinueOnError)
	profile := fs.String("profile", "basic", "profile: "+strings.Join(gen.Profiles(), ", "))
	seed := fs.Int64("seed", 0, "random seed (0: the profile's default seed)")
	outDir := fs.String("o", "", "output directory (required unless -stdout)")
	size := fs.String("size", "", "target size of the sized profiles (large, poolheavy, ranks, smallgraphs, allkinds: default 560M; hugegraph: default 10^6 tensors), e.g. 5G")
	stdout := fs.Bool("stdout", false, "write the log lines to stdout as one stream; truth.json goes to -o when given")
	list := fs.Bool("list", false, "list the profiles and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *list {
		fmt.Println(strings.Join(gen.Profiles(), "\n"))
		return 0
	}
	var target int64
	if *size != "" {
		n, err := gen.ParseSize(*size)
		if err != nil {
			fmt.Fprintln(os.Stderr, "imas-gen:", err)
			return 2
		}
		target = n
	}
	p, err := gen.ProfileByName(*profile, *seed, target)
	if err != nil {
		fmt.Fprintln(os.Stderr, "imas-gen:", err)
		return 2
	}
	if *outDir == "" && !*stdout {
		fmt.Fprintln(os.Stderr, "imas-gen: -o DIR is required")
		return 2
	}
	var truth *gen.Truth
	if *stdout {
		w := bufio.NewWriterSize(os.Stdout, 1<<20)
		truth, err = gen.GenerateStream(p, w, "stream.log")
		if err == nil {
			err = w.Flush()
		}
	} else {
		truth, err = gen.Generate(p, *outDir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "imas-gen:", err)
		return 1
	}
	if *outDir == "" {
		return 0
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "imas-gen:", err)
		return 1
	}
	f, err := os.Create(filepath.Join(*outDir, "truth.json"))
	if err == nil {
		err = truth.WriteJSON(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "imas-gen:", err)
		return 1
	}
	if !*stdout {
		var lines int64
		for _, fl := range truth.Files {
			lines += fl.Lines
		}
		fmt.Fprintf(os.Stderr, "imas-gen: %s seed %d: %d files, %d lines, %d graphs -> %s\n",
			p.Name, p.Seed, len(truth.Files), lines, len(truth.Graphs), *outDir)
	}
	return 0
}
