// Package server is the imas HTTP handler: the page and the JSON API on one
// http.Handler. The same handler runs under "imas serve" (net/http) and as
// the edge worker (syumai/workers on workerd or Cloudflare), so it keeps no
// state between requests and bounds what one request may cost: body size,
// archive expansion, time, and analyses running at once (by count and by
// the memory they are charged, budget.go).
//
//	GET  /             the page (index.html and its assets from Config.Public)
//	POST /api/report   one log (raw, gzip, tar, zip) or multipart "file" parts → report.json
//	POST /api/total    the same inputs → the "imas total" text
//	POST /api/diff     multipart parts "old" and "new" (logs or report.json) → the diff
//	GET  /healthz      liveness
package server

import (
	"encoding/json"
	"io/fs"
	"log"
	"net/http"
	"runtime/debug"
	"time"

	"imas/core/input"
	"imas/internal/driver"
)

// Config tunes the handler. The zero value serves the API with the defaults
// below and a note instead of the page.
type Config struct {
	// Public holds the built page: index.html and its assets.
	Public fs.FS
	// MaxBody is the largest request body, in bytes; a larger one gets 413.
	// Default 256 MiB.
	MaxBody int64
	// BodyNote says why MaxBody is what it is; it is added to the 413 error.
	BodyNote string
	// Timeout bounds one request, upload included. Default 5 minutes.
	Timeout time.Duration
	// OmitRows makes /api/report leave out per-tensor rows unless the
	// request asks for them with ?rows=1 (the edge worker has 128 MB).
	OmitRows bool
	// MaxConcurrent bounds the analyses running at once; further requests
	// wait for a slot (within their Timeout). Default 4.
	MaxConcurrent int
	// Budget bounds the memory of the analyses running at once, in bytes:
	// each request is charged what its body is expected to need (its
	// length times ChargePerByte; a body of unknown length counts as
	// MaxBody, a compressed one as the whole budget) and starts when its
	// charge fits. Default DefaultBudget.
	Budget int64
	// ChargePerByte is the memory charged per byte of body. Default
	// DefaultChargePerByte.
	ChargePerByte float64
	// QueueBytes bounds the charges of requests waiting for the budget, in
	// arrival order; beyond it a request gets 503 with Retry-After at once.
	// 0: as much as Budget; negative: nothing waits.
	QueueBytes int64
	// Limits bound archive expansion inside one body. Zero fields take
	// input.DefaultLimits, except MaxZipSpool which defaults to MaxBody.
	Limits input.Limits
	// Workers is the number of parsers per analysis (0: GOMAXPROCS).
	Workers int
	// ErrorLog receives recovered panics. Default: log.Default().
	ErrorLog *log.Logger
}

// Defaults of Config.
const (
	DefaultMaxBody       = 256 << 20
	DefaultTimeout       = 5 * time.Minute
	DefaultMaxConcurrent = 4
)

func (c Config) withDefaults() Config {
	if c.MaxBody <= 0 {
		c.MaxBody = DefaultMaxBody
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = DefaultMaxConcurrent
	}
	if c.Budget <= 0 {
		c.Budget = DefaultBudget
	}
	if c.ChargePerByte <= 0 {
		c.ChargePerByte = DefaultChargePerByte
	}
	switch {
	case c.QueueBytes == 0:
		c.QueueBytes = c.Budget
	case c.QueueBytes < 0:
		c.QueueBytes = 0
	}
	if c.Limits.MaxZipSpool <= 0 {
		// A zip needs random access, so a streamed one is held in memory;
		// it cannot be bigger than the body anyway.
		c.Limits.MaxZipSpool = c.MaxBody
	}
	if c.ErrorLog == nil {
		c.ErrorLog = log.Default()
	}
	return c
}

// EdgeMaxBody is the request body limit of Cloudflare's Free and Pro zones.
const EdgeMaxBody = 100_000_000

// Edge is the configuration of the edge worker: Cloudflare Workers refuse
// bodies above 100 MB and give an isolate 128 MB of memory, so the worker
// refuses bigger bodies itself (with a JSON reason), omits rows by default,
// holds at most 16 MiB of a streamed zip, and stops expanding archives at
// 1 GiB.
func Edge(public fs.FS) Config {
	return Config{
		Public:   public,
		MaxBody:  EdgeMaxBody,
		BodyNote: "Cloudflare Workers accept at most 100 MB per request; for bigger logs use the page (it parses in the browser) or imas serve",
		OmitRows: true,
		Limits:   input.Limits{MaxZipSpool: 16 << 20, MaxExpanded: 1 << 30},
	}
}

// server holds the configuration only: nothing of one request outlives it.
type server struct {
	cfg    Config
	slots  chan struct{} // analyses running; a semaphore, not shared data
	budget *budget       // memory charged to the analyses in flight; counters only
}

// New returns the imas handler.
func New(cfg Config) http.Handler { return newServer(cfg).handler() }

func newServer(cfg Config) *server {
	s := &server{cfg: cfg.withDefaults()}
	s.slots = make(chan struct{}, s.cfg.MaxConcurrent)
	s.budget = newBudget(s.cfg.Budget, s.cfg.QueueBytes, s.cfg.ChargePerByte)
	return s
}

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/report", s.post(s.report))
	mux.Handle("/api/total", s.post(s.total))
	mux.Handle("/api/diff", s.post(s.diff))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errorf(http.StatusNotFound, "no API route %s; see /api/report, /api/total, /api/diff", r.URL.Path))
	})
	mux.Handle("/healthz", readOnly(http.HandlerFunc(health)))
	mux.Handle("/", readOnly(&page{fsys: s.cfg.Public}))
	return recoverer(secure(mux), s.cfg.ErrorLog)
}

func health(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	b := driver.BuildInfo()
	json.NewEncoder(w).Encode(struct {
		Status  string `json:"status"`
		Version string `json:"version"`
		Commit  string `json:"commit"`
	}{"ok", b.Version, b.Commit})
}

// readOnly answers 405 to anything but GET and HEAD.
func readOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, errorf(http.StatusMethodNotAllowed, "method %s not allowed; use GET", r.Method))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// secure sets the headers every response carries. The API gets a policy
// that allows nothing; the page sets its own (page.go). There is no
// Cross-Origin-Opener-Policy: same-origin would cut the link between the
// page and the ui.perfetto.dev tab it opens and posts the trace to.
func secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Content-Security-Policy", apiPolicy)
		h.ServeHTTP(w, r)
	})
}

const apiPolicy = "default-src 'none'; frame-ancestors 'none'"

// recoverer turns a panic into a 500 (when nothing was sent yet) and a log
// line, so one bad request cannot take the process, or the worker instance,
// down with it.
func recoverer(h http.Handler, logger *log.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &sentWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v) // net/http's way to abort a response; it logs nothing
			}
			logger.Printf("imas: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
			if !sw.sent {
				writeError(w, errorf(http.StatusInternalServerError, "internal error (logged on the server)"))
			}
		}()
		h.ServeHTTP(sw, r)
	})
}

// sentWriter records whether the status line went out.
type sentWriter struct {
	http.ResponseWriter
	sent bool
}

func (w *sentWriter) WriteHeader(code int) {
	w.sent = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *sentWriter) Write(b []byte) (int, error) {
	w.sent = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's deadlines.
func (w *sentWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
