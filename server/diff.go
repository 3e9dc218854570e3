package server

import (
	"bufio"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"slices"

	"imas/core/analyze"
	"imas/core/export"
	"imas/core/input"
	"imas/internal/driver"
)

// diff answers "imas diff" as JSON for two multipart parts, "old" and
// "new", each a log (raw, gzip, tar or zip) or a saved report.json. Parts
// are read in turn and only their summaries (analyze.Run) are kept.
func (s *server) diff(w http.ResponseWriter, r *http.Request) *apiError {
	u, e := s.open(w, r, true)
	if e != nil {
		return e
	}
	release, e := s.acquire(r.Context(), u)
	if e != nil {
		return e
	}
	defer release()
	runs := map[string]*analyze.Run{}
	for p := range u.parts() {
		side := p.FormName()
		if side != "old" && side != "new" {
			continue
		}
		if runs[side] != nil {
			return errorf(http.StatusBadRequest, "two %s parts; send one old and one new", side)
		}
		u.taken++
		run, e := s.run(r.Context(), u, p)
		if e != nil {
			e.Message = side + ": " + e.Message
			return e
		}
		runs[side] = run
	}
	if e := u.failure(r.Context()); e != nil {
		return e
	}
	if runs["old"] == nil || runs["new"] == nil {
		return errorf(http.StatusBadRequest, "diff needs two parts, old and new (curl -F old=@A -F new=@B); the parts were: %s", u.seenText())
	}
	w.Header().Set("Content-Type", "application/json")
	export.WriteDiffJSON(w, analyze.Diff(runs["old"], runs["new"]))
	return nil
}

// run reads one side of a diff: a saved report (driver.IsSavedReport) or
// logs to analyse.
func (s *server) run(ctx context.Context, u *upload, p *multipart.Part) (*analyze.Run, *apiError) {
	name := partLabel(p, 0)
	br := bufio.NewReader(p)
	if head, _ := br.Peek(driver.SniffBytes); driver.IsSavedReport(head) {
		data, err := io.ReadAll(br) // bounded by the body limit
		if err != nil {
			if e := u.failure(ctx); e != nil {
				return nil, e
			}
			return nil, errorf(http.StatusBadRequest, "reading %s: %v", name, err)
		}
		run, err := driver.ReadRun(name, data)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, "%v", err)
		}
		return run, nil
	}
	rep, e := s.analyze(ctx, u, slices.Values([]input.Source{input.ReaderSource(name, -1, br)}), driver.Diff)
	if e != nil {
		return nil, e
	}
	return analyze.RunOf(name, rep), nil
}
