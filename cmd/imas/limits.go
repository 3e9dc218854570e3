package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"imas/core/diag"
	"imas/core/input"
	"imas/core/model"
	"imas/internal/driver"
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
		n, err := positiveSize(expand)
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

// printInputProblems writes the input diagnostics of rep to w, at most max.
func printInputProblems(w io.Writer, rep *model.Report, max int) {
	problems := driver.InputProblems(rep)
	for i, d := range problems {
		if i == max {
			fmt.Fprintf(w, "imas: %d more problems with inputs (see report.json)\n", len(problems)-max)
			break
		}
		fmt.Fprintf(w, "imas: %s: %s: %s\n", d.Path, d.Reason, d.Detail)
	}
	for _, d := range problems {
		if d.Reason == diag.BombLimit {
			fmt.Fprintf(w, "imas: if the archives are genuine, raise the limits with -max-expand/-max-ratio (imas report) or %s/%s\n", envMaxExpand, envMaxRatio)
			return
		}
	}
}

// positiveSize reads a size flag (units: docs/sizes.md) that must not be 0.
func positiveSize(s string) (int64, error) {
	n, err := driver.ParseSize(s)
	if err == nil && n <= 0 {
		err = fmt.Errorf("%q is not a positive size", s)
	}
	return n, err
}
