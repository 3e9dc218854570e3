package driver

import (
	"fmt"
	"strconv"
	"strings"

	"imas/core/diag"
	"imas/core/gelog"
	"imas/core/model"
)

// Problem names why a run gave no record.
type Problem int

const (
	// Unreadable: the inputs could not be read (a damaged archive, a
	// permission error); Unusable.Diagnostics lists them.
	Unreadable Problem = iota
	// TooLarge: an archive expanded past the limits (bomb-limit).
	TooLarge
	// Empty: the inputs hold no bytes at all.
	Empty
	// NoneUsable: lines carried GE markers but none could be parsed;
	// Unusable.Diagnostics lists the first.
	NoneUsable
	// NoMarkers: no line carries any of gelog.Markers.
	NoMarkers
)

// Unusable explains a run without a single record. Every front door shows
// it: the CLI prints Text, the server sends its fields as JSON, the page
// shows Text.
type Unusable struct {
	Problem     Problem
	Lines       int64
	Files       int
	Candidates  int64
	Diagnostics []model.Diagnostic
}

// Hint is how users get the lines imas reads.
const Hint = `GE prints these lines only at INFO log level, during model build and load. Re-run with:
  export ASCEND_GLOBAL_LOG_LEVEL=1          # INFO (0=DEBUG also works)
  export ASCEND_HOST_LOG_FILE_NUM=1000      # keep enough rotated plog files
  atc ... --log=info                        # for offline model conversion
then give imas the debug plogs ($HOME/ascend/log/debug/plog/ or $ASCEND_PROCESS_LOG_PATH).
For device statistics (_svm_mem_stats_show) add the run plogs (log/run/plog/);
the process must exit normally for the driver to print them.`

// listed bounds the diagnostics an explanation carries.
const listed = 10

// Explain returns why rep holds no record, or nil when it holds some.
func Explain(rep *model.Report) *Unusable {
	if rep.Inputs.Records > 0 {
		return nil
	}
	u := &Unusable{Lines: rep.Inputs.Lines, Files: len(rep.Inputs.Files), Candidates: rep.Inputs.Candidates}
	for _, d := range rep.Diagnostics {
		if d.Reason == diag.BombLimit {
			u.Problem, u.Diagnostics = TooLarge, []model.Diagnostic{d}
			return u
		}
	}
	var lost []model.Diagnostic // inputs not read, or not whole
	for _, d := range InputProblems(rep) {
		if r, _ := diag.Lookup(d.Reason); r.Severity >= diag.Warning {
			lost = append(lost, d)
		}
	}
	if len(lost) > 0 {
		u.Problem, u.Diagnostics = Unreadable, lost[:min(len(lost), listed)]
		return u
	}
	var bytes int64
	for _, f := range rep.Inputs.Files {
		bytes += f.Bytes
	}
	switch {
	case bytes == 0:
		u.Problem = Empty
	case u.Candidates > 0:
		u.Problem, u.Diagnostics = NoneUsable, rep.Diagnostics[:min(len(rep.Diagnostics), listed)]
	default:
		u.Problem = NoMarkers
	}
	return u
}

// InputProblems returns the diagnostics of rep about whole inputs
// (diag.IsInput): users must see them even when a command writes no
// report.json, since a truncated archive or a bomb stopped at the limit
// changes the figures.
func InputProblems(rep *model.Report) []model.Diagnostic {
	var out []model.Diagnostic
	for _, d := range rep.Diagnostics {
		if diag.IsInput(d.Reason) {
			out = append(out, d)
		}
	}
	return out
}

// Missing returns the markers that were looked for when nothing was found.
func (u *Unusable) Missing() []string {
	if u.Problem != NoMarkers {
		return nil
	}
	return gelog.Markers
}

// Error is the explanation in one line.
func (u *Unusable) Error() string {
	switch u.Problem {
	case TooLarge:
		d := u.Diagnostics[0]
		return d.Path + ": " + d.Detail
	case Unreadable:
		return fmt.Sprintf("the input could not be read: %s: %s", u.Diagnostics[0].Path, u.Diagnostics[0].Detail)
	case Empty:
		return "the input is empty: give plog files (plain, gzip, tar or zip)"
	case NoneUsable:
		return fmt.Sprintf("%d of %d lines looked like GE memory records but none could be used", u.Candidates, u.Lines)
	}
	return fmt.Sprintf("no GE memory records in %s of %s: none of the markers imas reads was found",
		count(u.Lines, "line", "lines"), count(int64(u.Files), "input", "inputs"))
}

// Text is the whole explanation: Error, the diagnostics or the markers
// looked for, and what to do.
func (u *Unusable) Text() string {
	var b strings.Builder
	b.WriteString(u.Error())
	b.WriteString("\n")
	for _, d := range u.Diagnostics {
		fmt.Fprintf(&b, "  %s", d.Path)
		if d.Line > 0 {
			fmt.Fprintf(&b, ":%d", d.Line)
		}
		fmt.Fprintf(&b, ": %s: %s\n", d.Reason, d.Detail)
	}
	switch u.Problem {
	case TooLarge:
		b.WriteString("If the archive is genuine, raise the expansion limits (docs/robustness.md).\n")
	case Empty:
		// An empty plog is what a process with its log level above INFO
		// leaves behind.
		b.WriteString(Hint)
		b.WriteString("\n")
	case NoneUsable:
		b.WriteString("Each reason is explained in docs/diagnostics.md; imas report lists them all in report.json.\n")
	case NoMarkers:
		b.WriteString("Markers looked for:")
		width := 100
		for i, m := range gelog.Markers {
			q := strconv.Quote(m)
			if i < len(gelog.Markers)-1 {
				q += ","
			}
			if width+1+len(q) > 100 {
				b.WriteString("\n ")
				width = 1
			}
			b.WriteString(" " + q)
			width += 1 + len(q)
		}
		b.WriteString("\n")
		b.WriteString(Hint)
		b.WriteString("\n")
	}
	return b.String()
}

func count(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.FormatInt(n, 10) + " " + many
}
