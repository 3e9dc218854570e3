package server

import (
	"context"
	"iter"
	"net/http"
	"strconv"

	"imas/core"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
)

// apiHandler serves one API request; an error it returns is written as JSON.
type apiHandler func(w http.ResponseWriter, r *http.Request) *apiError

// post runs h for POST requests under the request's time limit. The limit
// is a context deadline for the analysis and, on net/http, a read and write
// deadline on the connection, so a stalled upload cannot hold a slot.
func (s *server) post(h apiHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			writeError(w, errorf(http.StatusMethodNotAllowed, "method %s not allowed; use POST", r.Method))
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
		defer cancel()
		deadline, _ := ctx.Deadline()
		rc := http.NewResponseController(w)
		rc.SetReadDeadline(deadline) // ErrNotSupported off net/http: the context still bounds the work
		rc.SetWriteDeadline(deadline)
		if e := h(w, r.WithContext(ctx)); e != nil {
			writeError(w, e)
		}
	})
}

// acquire waits for the upload's share of the memory budget (budget.go)
// and an analysis slot; the caller must call release.
func (s *server) acquire(ctx context.Context, u *upload) (release func(), e *apiError) {
	spend, e := s.budget.admit(ctx, s.budget.cost(u.size, s.cfg.MaxBody))
	if e != nil {
		return nil, e
	}
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots; spend() }, nil
	case <-ctx.Done():
		spend()
		return nil, errorf(http.StatusServiceUnavailable, "server busy: no analysis slot within the time limit")
	}
}

// analyze runs core on srcs and turns every way it can fail into an answer.
func (s *server) analyze(ctx context.Context, u *upload, srcs iter.Seq[input.Source]) (*model.Report, *apiError) {
	rep, err := core.AnalyzeSeq(ctx, srcs, core.Options{Limits: s.cfg.Limits, Workers: s.cfg.Workers})
	if e := u.failure(ctx); e != nil {
		return nil, e
	}
	if err != nil {
		return nil, errorf(http.StatusServiceUnavailable, "analysis stopped: %v", err)
	}
	if u.mr != nil && u.taken == 0 {
		return nil, u.missing()
	}
	if rep.Inputs.Records == 0 {
		return nil, unusable(rep)
	}
	return rep, nil
}

// analyzeUpload reads the request's log(s): the raw body or its "file" parts.
func (s *server) analyzeUpload(w http.ResponseWriter, r *http.Request) (*model.Report, *apiError) {
	u, e := s.open(w, r, false)
	if e != nil {
		return nil, e
	}
	release, e := s.acquire(r.Context(), u)
	if e != nil {
		return nil, e
	}
	defer release()
	return s.analyze(r.Context(), u, u.sources("file"))
}

// report answers report.json. ?rows=0 leaves out the per-tensor rows, which
// are most of the size of a big report; ?rows=1 keeps them.
func (s *server) report(w http.ResponseWriter, r *http.Request) *apiError {
	keep := !s.cfg.OmitRows
	if v := r.URL.Query().Get("rows"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errorf(http.StatusBadRequest, "rows=%q: want 0 or 1", v)
		}
		keep = b
	}
	rep, e := s.analyzeUpload(w, r)
	if e != nil {
		return e
	}
	if !keep {
		omitRows(rep)
	}
	w.Header().Set("Content-Type", "application/json")
	export.WriteJSON(w, rep) // an error here is the client going away
	return nil
}

// total answers the text of "imas total".
func (s *server) total(w http.ResponseWriter, r *http.Request) *apiError {
	rep, e := s.analyzeUpload(w, r)
	if e != nil {
		return e
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	export.WriteTotal(w, rep)
	return nil
}

// omitRows empties the per-tensor lists of rep and says so in the report.
func omitRows(rep *model.Report) {
	for _, g := range rep.Graphs {
		g.Rows, g.Reassign, g.AtomicPieces = []model.Row{}, []model.Reassign{}, []model.AtomicPiece{}
	}
	for _, v := range rep.Variables {
		v.Rows = []model.VarRow{}
	}
	if rep.Extra == nil {
		rep.Extra = map[string]any{}
	}
	rep.Extra["rows_omitted"] = true
}
