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
	return analyze.Diff(analyze.RunOf(runName(base), base.Report), analyze.RunOf(runName(run), run.Report)), nil
}

func runName(r *Run) string { return strings.Join(r.Inputs, ", ") }
