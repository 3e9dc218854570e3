package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"

	"imas/core"
	"imas/core/analyze"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
	"imas/core/reportjson"
)

// SniffBytes is how much of an input IsSavedReport needs.
const SniffBytes = 64

// IsSavedReport is the one rule that tells a saved report.json from logs,
// given the first SniffBytes of an input: a report is a JSON object, and no
// GE log line starts with "{". Whatever its name, an input that starts so is
// read as a report, and fails as one (not as logs) if it is something else.
// A report is always the only input of a run.
func IsSavedReport(head []byte) bool { return reportjson.LooksLikeJSON(head) }

// Analyses is a set of analyses a command runs.
type Analyses int

const (
	// AllAnalyses: every analysis (report.json, the page, peak, check...).
	AllAnalyses Analyses = iota
	// SummaryAnalyses: what the "imas total" text shows (analyze.Summary).
	SummaryAnalyses
)

// Command is what a front door runs for one request: its analyses and,
// for a text command, the writer of its text.
type Command struct {
	Name     string
	Analyses Analyses
	Text     func(w io.Writer, rep *model.Report) error // nil: not a text command
	// FiguresOnly: the command reads graphs' figures, never their rows
	// (core.Options.FiguresOnly).
	FiguresOnly bool
}

// The commands every door shares. "imas total" and POST /api/total both
// run Total, so they analyse and print alike.
var (
	Total  = Command{Name: "total", Analyses: SummaryAnalyses, Text: export.WriteTotal, FiguresOnly: true}
	Report = Command{Name: "report", Analyses: AllAnalyses}
	Diff   = Command{Name: "diff", Analyses: SummaryAnalyses}
)

// Options returns opt set for c's analyses.
func (c Command) Options(opt core.Options) core.Options {
	opt.Summary = c.Analyses == SummaryAnalyses
	opt.FiguresOnly = c.FiguresOnly
	return opt
}

// Origin says what a run was read from.
type Origin int

const (
	FromLogs Origin = iota
	FromSavedReport
)

// Load returns the report of one run: the saved report when srcs is a single
// source that IsSavedReport, else the analysis of srcs as logs with the
// analyses of c. Sources must open more than once (files, buffers, the
// page's files); a door reading a stream peeks at it and calls ReadReport or
// Analyze itself. A run of logs without a record returns its report and an
// *Unusable error that explains why.
func Load(ctx context.Context, srcs []input.Source, c Command, opt core.Options) (*model.Report, Origin, error) {
	if SavedReport(srcs) {
		rep, err := openReport(srcs[0])
		return rep, FromSavedReport, err
	}
	rep, err := core.Analyze(ctx, srcs, c.Options(opt))
	return checked(rep, err)
}

// Analyze analyses logs that arrive one at a time (a request's parts) with
// the analyses of c; like Load, it returns an *Unusable error for a run
// without a record.
func Analyze(ctx context.Context, srcs iter.Seq[input.Source], c Command, opt core.Options) (*model.Report, error) {
	rep, _, err := checked(core.AnalyzeSeq(ctx, srcs, c.Options(opt)))
	return rep, err
}

func checked(rep *model.Report, err error) (*model.Report, Origin, error) {
	if err != nil {
		return nil, FromLogs, err
	}
	if u := Explain(rep); u != nil {
		return rep, FromLogs, u
	}
	return rep, FromLogs, nil
}

// SavedReport reports whether srcs, sources that open more than once, are
// one saved report (IsSavedReport on its head).
func SavedReport(srcs []input.Source) bool {
	if len(srcs) != 1 {
		return false
	}
	head, err := headOf(srcs[0])
	return err == nil && IsSavedReport(head)
}

// ReadRun reads the summary of a saved report for a diff, without decoding
// its rows into Go values (reports can hold millions).
func ReadRun(name string, data []byte) (*analyze.Run, error) { return reportjson.Load(name, data) }

// LoadRun returns one side of a diff: a saved report (ReadRun) or logs
// analysed for Diff. Sources must open more than once, as for Load.
func LoadRun(ctx context.Context, name string, srcs []input.Source, opt core.Options) (*analyze.Run, error) {
	if SavedReport(srcs) {
		data, err := readAll(srcs[0])
		if err != nil {
			return nil, err
		}
		return ReadRun(name, data)
	}
	rep, _, err := Load(ctx, srcs, Diff, opt)
	if err != nil {
		return nil, err
	}
	return analyze.RunOf(name, rep), nil
}

// ReadReport decodes a saved report.json named name.
func ReadReport(name string, r io.Reader) (*model.Report, error) {
	var rep model.Report
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return nil, fmt.Errorf("%s: not a readable report.json: %v", name, err)
	}
	if rep.Schema != model.Schema {
		return nil, fmt.Errorf("%s: %w", name, reportjson.ErrNotReport)
	}
	return &rep, nil
}

func headOf(src input.Source) ([]byte, error) {
	rc, err := src.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	head := make([]byte, SniffBytes)
	n, err := io.ReadFull(rc, head)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return head[:n], err
}

func openReport(src input.Source) (*model.Report, error) {
	rc, err := src.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", src.Name, err)
	}
	defer rc.Close()
	return ReadReport(src.Name, rc)
}

func readAll(src input.Source) ([]byte, error) {
	rc, err := src.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", src.Name, err)
	}
	defer rc.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(rc); err != nil {
		return nil, fmt.Errorf("%s: %v", src.Name, err)
	}
	return b.Bytes(), nil
}
