package engine

import (
	"strings"

	"imas/core/analyze"
)

// Diff compares the run with the baseline (analyze.Diff).
func (s *Session) Diff() (*analyze.DiffResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	base, run := s.runs[SlotBase], s.runs[SlotRun]
	if base == nil || run == nil {
		return nil, ErrNoRun
	}
	// The rows are read from the stores one graph at a time, not through
	// the session's decoded graphs: every graph of both runs is read once.
	old, err := analyze.RunWithRows(runName(base), base.Report)
	if err != nil {
		return nil, err
	}
	cur, err := analyze.RunWithRows(runName(run), run.Report)
	if err != nil {
		return nil, err
	}
	return analyze.Diff(old, cur), nil
}

func runName(r *Run) string { return strings.Join(r.Inputs, ", ") }
