// Command imas analyses Ascend CANN Graph Engine memory logs (plogs).
//
//	imas report  [-o DIR] PATH...
//	imas total   PATH...
//	imas version
//
// Run "imas help" for every command.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"sort"
	"syscall"
	"time"

	"imas/core"
	"imas/core/input"
	"imas/core/model"
	"imas/internal/driver"
	"imas/internal/hugeheap"
)

// Exit codes (docs/figures.md#exit-codes).
const (
	exitOK      = 0
	exitNoInput = 1
	exitUsage   = 2
	exitFinding = 3
)

// command is one subcommand. Each lives in its own file and registers here.
type command struct {
	name    string
	usage   string // one line: "report [-o DIR] PATH..."
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() {
	// SIGTERM too, so that a stopped `imas report` removes its spill directory.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// IMAS_HUGEHEAP=1 lets a batch command's heap take huge pages (see
	// internal/hugeheap). It is off by default: on VMs that report free
	// memory to the host, 2 MiB pages come from exactly the blocks the host
	// took back, so each is a fresh host fault and imas is slower with them
	// (docs/performance.md, "Memory is time").
	if len(os.Args) > 1 && os.Args[1] != "serve" && os.Getenv("IMAS_HUGEHEAP") == "1" {
		hugeheap.Advise(1 << 30)
	}
	// IMAS_CPUPROFILE=file writes a CPU profile (a debugging aid for "make bench").
	if p := os.Getenv("IMAS_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			pprof.StartCPUProfile(f)
			code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	// IMAS_MEMPROFILE=file writes the heap profile of the run's largest
	// live heap (watchHeap), for "go tool pprof -sample_index=inuse_space".
	if p := os.Getenv("IMAS_MEMPROFILE"); p != "" {
		stopWatch := watchHeap(p)
		code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
		stopWatch()
		os.Exit(code)
	}
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			if c := commands[args[1]]; c != nil {
				return c.run(ctx, []string{"-h"}, stdout, stderr)
			}
		}
		usage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	c := commands[args[0]]
	if c == nil {
		fmt.Fprintf(stderr, "imas: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "imas analyses Ascend CANN Graph Engine (GE) memory logs (plogs).")
	fmt.Fprintln(w, "\nUsage:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  imas %-34s %s\n", c.usage, c.summary)
	}
	fmt.Fprintln(w, "\nPATH may be a plog file, a directory (read recursively), a .gz, .tar, .tar.gz/.tgz or .zip")
	fmt.Fprintln(w, "archive, or a quoted glob; or, alone, a report.json saved by imas (recognised by its content).")
	fmt.Fprintln(w, "Sizes: K/KiB, M/MiB, G/GiB are binary, KB, MB, GB decimal. Run \"imas help COMMAND\" for a command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 ok, 1 no usable input, 2 usage error, 3 findings (check).")
}

// newFlags returns a flag set that prints the command's usage.
func newFlags(c *command, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("imas "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: imas %s\n\n%s\n", c.usage, c.summary)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(fs.Output(), "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args; it returns a non-negative exit code when the
// command must stop (help or usage error).
func parseFlags(fs *flag.FlagSet, args []string, needPaths bool) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if needPaths && fs.NArg() == 0 {
		fmt.Fprintf(fs.Output(), "%s: no PATH given\n", fs.Name())
		fs.Usage()
		return exitUsage
	}
	return -1
}

// analyzePaths reads the run named by PATHs for a command that runs every
// analysis, under the archive limits of the environment (IMAS_MAX_EXPAND,
// IMAS_MAX_RATIO).
func analyzePaths(ctx context.Context, paths []string, stderr io.Writer) (*model.Report, int) {
	return loadEnv(ctx, paths, driver.Report, stderr)
}

func loadEnv(ctx context.Context, paths []string, c driver.Command, stderr io.Writer) (*model.Report, int) {
	lim, err := envLimits()
	if err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return nil, exitUsage
	}
	return load(ctx, paths, c, core.Options{Limits: lim}, stderr)
}

// load reads the run named by PATHs (logs, or one saved report.json; see
// driver.Load) with progress on a terminal stderr. Input problems go to
// stderr; a run without a record is explained there and returned with
// exitNoInput, so that "imas report" still writes its diagnostics.
func load(ctx context.Context, paths []string, c driver.Command, opt core.Options, stderr io.Writer) (*model.Report, int) {
	srcs, diags, code := sources(paths, stderr)
	if srcs == nil {
		return nil, code
	}
	return loadSources(ctx, srcs, diags, c, opt, stderr)
}

// sources lists the inputs PATHs name; those that cannot be read are
// printed.
func sources(paths []string, stderr io.Writer) ([]input.Source, []input.Diag, int) {
	srcs, diags := input.FromPaths(paths)
	for _, d := range diags {
		fmt.Fprintf(stderr, "imas: %s: %s: %s\n", d.Path, d.Reason, d.Detail)
	}
	if len(srcs) == 0 {
		fmt.Fprintln(stderr, "imas: no readable input")
		return nil, diags, exitNoInput
	}
	return srcs, diags, exitOK
}

func loadSources(ctx context.Context, srcs []input.Source, diags []input.Diag, c driver.Command, opt core.Options, stderr io.Writer) (*model.Report, int) {
	opt.Progress = progress(stderr)
	rep, origin, err := driver.Load(ctx, srcs, c, opt)
	if opt.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	var unusable *driver.Unusable
	if err != nil && !errors.As(err, &unusable) {
		fmt.Fprintln(stderr, "imas:", err)
		return nil, exitNoInput
	}
	if origin == driver.FromSavedReport {
		return rep, exitOK
	}
	printInputProblems(stderr, rep, 20) // those of FromPaths are printed above
	for _, d := range diags {
		rep.Diagnostics = append([]model.Diagnostic{{Path: d.Path, Reason: d.Reason, Detail: d.Detail}}, rep.Diagnostics...)
	}
	if unusable != nil {
		if p := unusable.Problem; p != driver.Unreadable && p != driver.TooLarge { // printed just above
			fmt.Fprint(stderr, "imas: "+unusable.Text())
		}
		return rep, exitNoInput
	}
	return rep, exitOK
}

// progress returns a progress printer for a terminal stderr, else nil.
func progress(stderr io.Writer) func(core.Progress) {
	if !isTerminal(stderr) {
		return nil
	}
	var last time.Time
	start := time.Now()
	return func(p core.Progress) {
		if time.Since(last) < 200*time.Millisecond {
			return
		}
		last = time.Now()
		el := time.Since(start).Seconds()
		rate := float64(p.Bytes) / 1e6 / max(el, 1e-3)
		fmt.Fprintf(stderr, "\rimas: %d files, %s read, %d lines, %d candidates (%.0f MB/s)   ", p.Files, humanBytes(p.Bytes), p.Lines, p.Candidates, rate)
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
