package server

import (
	"context"
	"errors"
	"iter"
	"math"
	"net/http"
	"strconv"

	"imas/core"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
	"imas/internal/driver"
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
	spend, e := s.budget.admit(ctx, s.charge(u))
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

// charge is the memory an upload is expected to need (budget.go): its
// length (the body limit when unknown) times ChargePerByte. A compressed
// raw body (gzip, tar.gz, zip) expands by a ratio known only once it is
// read, so it is charged the whole budget and runs alone; every input is
// also held to what the budget can analyse (limitsFor).
func (s *server) charge(u *upload) int64 {
	if u.mr == nil && u.compressed() != "" {
		return s.budget.limit
	}
	size := u.size
	if size < 0 {
		size = s.cfg.MaxBody
	}
	return s.budget.cost(int64(math.Ceil(float64(size) * s.cfg.ChargePerByte)))
}

// limitsFor bounds the bytes of log each input of u may expand to: the
// configured limit, and at most what the memory budget can analyse beside
// what the upload holds itself (a zip body is held whole in memory, since
// it needs random access), so that a compressed body cannot outgrow the
// budget it was charged.
func (s *server) limitsFor(u *upload) input.Limits {
	l := s.cfg.Limits
	room := s.cfg.Budget
	if u.mr == nil && u.compressed() == "zip" {
		size := u.size
		if size < 0 {
			size = min(s.cfg.MaxBody, l.MaxZipSpool)
		}
		room = max(room-size, 0)
	}
	most := max(int64(float64(room)/s.cfg.ChargePerByte), 1)
	if l.MaxExpanded <= 0 || l.MaxExpanded > most {
		l.MaxExpanded = most
	}
	return l
}

// load reads the run of an upload for command c: one saved report.json
// (driver.IsSavedReport, whatever its name) or logs, from the raw body or
// its "file" parts, which are read as they arrive.
func (s *server) load(ctx context.Context, u *upload, c driver.Command) (*model.Report, *apiError) {
	next, stop := iter.Pull(u.streams("file"))
	defer stop()
	first, ok := next()
	if !ok {
		if e := u.failure(ctx); e != nil {
			return nil, e
		}
		return nil, u.missing()
	}
	if head, _ := first.r.Peek(driver.SniffBytes); driver.IsSavedReport(head) {
		rep, err := driver.ReadReport(first.name, first.r)
		if e := u.failure(ctx); e != nil {
			return nil, e
		}
		if err != nil {
			return nil, errorf(http.StatusBadRequest, "%v", err)
		}
		if more, ok := next(); ok {
			return nil, errorf(http.StatusBadRequest, "%s is a saved report.json: send it alone, without %s", first.name, more.name)
		}
		return rep, nil
	}
	srcs := func(yield func(input.Source) bool) {
		for st, ok := first, true; ok; st, ok = next() {
			if !yield(input.ReaderSource(st.name, st.size, st.r)) {
				return
			}
		}
	}
	return s.analyze(ctx, u, srcs, c)
}

// analyze runs the analyses of c on logs and turns every way it can fail
// into an answer.
func (s *server) analyze(ctx context.Context, u *upload, srcs iter.Seq[input.Source], c driver.Command) (*model.Report, *apiError) {
	limits := s.limitsFor(u)
	rep, err := driver.Analyze(ctx, srcs, c, core.Options{Limits: limits, Workers: s.cfg.Workers})
	if e := u.failure(ctx); e != nil {
		return nil, e
	}
	var unusable *driver.Unusable
	switch {
	case errors.As(err, &unusable):
		e := unusableError(unusable)
		if unusable.Problem == driver.TooLarge {
			e.Message += "; this server expands an input to at most " + driver.SizeText(limits.MaxExpanded)
			if cfg := s.cfg.Limits.MaxExpanded; cfg <= 0 || limits.MaxExpanded < cfg {
				e.Message += ", what its memory budget (-budget) can analyse"
			}
		}
		return nil, e
	case err != nil:
		return nil, errorf(http.StatusServiceUnavailable, "analysis stopped: %v", err)
	}
	return rep, nil
}

// loadUpload reads the request's run for command c.
func (s *server) loadUpload(w http.ResponseWriter, r *http.Request, c driver.Command) (*model.Report, *apiError) {
	u, e := s.open(w, r, false)
	if e != nil {
		return nil, e
	}
	release, e := s.acquire(r.Context(), u)
	if e != nil {
		return nil, e
	}
	defer release()
	return s.load(r.Context(), u, c)
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
	rep, e := s.loadUpload(w, r, driver.Report)
	if e != nil {
		return e
	}
	w.Header().Set("Content-Type", "application/json")
	// An error here is the client going away.
	if keep {
		export.WriteJSON(w, rep)
	} else {
		export.WriteJSONWithoutRows(w, rep) // as imas report -rows=false
	}
	return nil
}

// total answers the text of "imas total": the same command, so the same
// analyses and the same text.
func (s *server) total(w http.ResponseWriter, r *http.Request) *apiError {
	rep, e := s.loadUpload(w, r, driver.Total)
	if e != nil {
		return e
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	driver.Total.Text(w, rep) // an error here is the client going away
	return nil
}
