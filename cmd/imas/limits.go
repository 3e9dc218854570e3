package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"imas/core/input"
	"imas/core/model"
)

// Archive expansion limits (docs/robustness.md): every command takes them
// from the environment; "imas report" also has flags, whose defaults are
// the environment's values.
const (
	envMaxExpand = "IMAS_MAX_EXPAND"
	envMaxRatio  = "IMAS_MAX_RATIO"
)

// limitFlags adds -max-expand and -max-ratio to fs; the returned function
// gives their parsed values once fs is parsed.
func limitFlags(fs *flag.FlagSet) func() (input.Limits, error) {
	expand := fs.String("max-expand", os.Getenv(envMaxExpand), fmt.Sprintf(
		"stop reading an input (a file or an archive) after `SIZE` of text once decompressed (e.g. 200G; default %dGiB; env %s)",
		input.DefaultLimits.MaxExpanded>>30, envMaxExpand))
	ratio := fs.String("max-ratio", os.Getenv(envMaxRatio), fmt.Sprintf(
		"stop reading an input whose archives expand more than `N` times their size, once past %dMiB (default %.0f; env %s)",
		input.DefaultLimits.RatioFloor>>20, input.DefaultLimits.MaxRatio, envMaxRatio))
	return func() (input.Limits, error) { return parseLimits(*expand, *ratio) }
}

// envLimits reads the limits from the environment.
func envLimits() (input.Limits, error) {
	return parseLimits(os.Getenv(envMaxExpand), os.Getenv(envMaxRatio))
}

// parseLimits reads a size and a ratio; empty strings keep the defaults.
func parseLimits(expand, ratio string) (input.Limits, error) {
	var lim input.Limits
	if expand != "" {
		n, err := parseSize(expand)
		if err != nil {
			return lim, fmt.Errorf("max-expand: %v", err)
		}
		lim.MaxExpanded = n
	}
	if ratio != "" {
		r, err := strconv.ParseFloat(ratio, 64)
		if err != nil || !(r >= 1 && r <= 1e12) {
			return lim, fmt.Errorf("max-ratio: %q is not a ratio between 1 and 1e12", ratio)
		}
		lim.MaxRatio = r
	}
	return lim, nil
}

// inputProblems are the diagnostics about whole inputs (not lines) that
// users must see even when a command writes no report.json: a truncated
// archive or a bomb stopped at the limit changes the figures.
var inputProblems = map[string]bool{
	"unreadable": true, "corrupt-archive": true, "truncated-input": true, "unsafe-member": true,
	"bomb-limit": true, "nesting-limit": true, "duplicate-input": true,
}

// printInputProblems writes the input diagnostics of rep to w, at most max.
func printInputProblems(w io.Writer, rep *model.Report, max int) {
	n := 0
	for _, d := range rep.Diagnostics {
		if !inputProblems[d.Reason] {
			continue
		}
		if n++; n <= max {
			fmt.Fprintf(w, "imas: %s: %s: %s\n", d.Path, d.Reason, d.Detail)
		}
	}
	if n > max {
		fmt.Fprintf(w, "imas: %d more problems with inputs (see report.json)\n", n-max)
	}
	for _, d := range rep.Diagnostics {
		if d.Reason == "bomb-limit" {
			fmt.Fprintf(w, "imas: if the archives are genuine, raise the limits with -max-expand/-max-ratio (imas report) or %s/%s\n", envMaxExpand, envMaxRatio)
			return
		}
	}
}
