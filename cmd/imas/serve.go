package main

import (
	"context"
	"fmt"
	"imas/internal/driver"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"imas/public"
	"imas/server"
)

func init() {
	register(&command{
		name:    "serve",
		usage:   "serve [-addr 127.0.0.1:8080] [-max-body N] [-budget N] [-queue N] [-public DIR]",
		summary: "serve the page and the HTTP API (/api/report, /api/total, /api/diff) until SIGINT or SIGTERM",
		run:     runServe,
	})
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(commands["serve"], stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address; uploads are logs of your models, so think twice before a non-loopback one")
	maxBody := fs.String("max-body", "256MiB", "largest request body: bytes, or K/KiB, M/MiB, G/GiB (binary) or KB, MB, GB (decimal); larger gets 413")
	timeout := fs.Duration("timeout", server.DefaultTimeout, "time limit of one request, upload included")
	budget := fs.String("budget", envOr(envServeBudget, "1GiB"), fmt.Sprintf("memory of the analyses running at once: each upload is charged %.1f bytes per byte of log (a compressed one the whole budget) and waits in arrival order until it fits; also the Go memory limit (env %s)", server.DefaultChargePerByte, envServeBudget))
	queue := fs.String("queue", envOr(envServeQueue, ""), "memory charged to uploads that may wait for the budget; beyond it 503 with Retry-After; 0: none waits (default: as much as -budget; env "+envServeQueue+")")
	pub := fs.String("public", "", "serve the page from `DIR` (a ./build.sh output) instead of the one built into imas")
	if code := parseFlags(fs, args, false); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "imas serve: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	limit, err := positiveSize(*maxBody)
	if err != nil {
		fmt.Fprintf(stderr, "imas serve: -max-body: %v\n", err)
		return exitUsage
	}
	budgetBytes, err := driver.ParseSize(*budget)
	if err != nil || budgetBytes <= 0 {
		fmt.Fprintf(stderr, "imas serve: -budget %q: want a positive size\n", *budget)
		return exitUsage
	}
	var queueBytes int64 // 0: the server's default (as much as the budget)
	if *queue != "" {
		if queueBytes, err = driver.ParseSize(*queue); err != nil {
			fmt.Fprintf(stderr, "imas serve: -queue: %v\n", err)
			return exitUsage
		}
		if queueBytes == 0 {
			queueBytes = -1 // nothing waits
		}
	}
	// The garbage collector works harder as the heap nears the budget,
	// instead of letting garbage double it; an explicit GOMEMLIMIT wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(budgetBytes)
	}
	page, err := pageFS(*pub, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "imas serve: -public: %v\n", err)
		return exitUsage
	}
	logger := log.New(stderr, "imas: ", log.LstdFlags)
	h := server.New(server.Config{
		Public:     page,
		MaxBody:    limit,
		BodyNote:   "the limit of this imas serve (-max-body); for bigger inputs run imas report on the files",
		Timeout:    *timeout,
		Budget:     budgetBytes,
		QueueBytes: queueBytes,
		ErrorLog:   logger,
	})
	srv := &http.Server{
		Handler:           logRequests(h, logger),
		ReadHeaderTimeout: 10 * time.Second,
		// Defaults for the page; the API extends both to -timeout per request.
		ReadTimeout:    time.Minute,
		WriteTimeout:   time.Minute,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       logger,
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "imas serve:", err)
		return exitNoInput // the general failure code: nothing was served
	}
	// main stops on SIGINT; a service manager sends SIGTERM.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	logger.Printf("serving on http://%s/ (body limit %s, time limit %s)", ln.Addr(), *maxBody, *timeout)
	if most := int64(float64(budgetBytes) / server.DefaultChargePerByte); limit > most {
		logger.Printf("note: the budget %s can analyse at most %s of log at once; bigger uploads stop there (raise -budget, or lower -max-body)", *budget, driver.SizeText(most))
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintln(stderr, "imas serve:", err)
		return exitNoInput
	case <-ctx.Done():
	}
	logger.Printf("shutting down: waiting up to 30s for requests in flight")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		logger.Printf("shutdown: %v", err)
		srv.Close()
	}
	return exitOK
}

// Environment defaults of the serve flags -budget and -queue.
const (
	envServeBudget = "IMAS_SERVE_BUDGET"
	envServeQueue  = "IMAS_SERVE_QUEUE"
)

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// pageFS returns the page to serve: DIR when given, else the embedded one.
func pageFS(dir string, stderr io.Writer) (fs.FS, error) {
	if dir != "" {
		fsys := os.DirFS(dir)
		if _, err := fs.Stat(fsys, "index.html"); err != nil {
			return nil, fmt.Errorf("%s has no index.html; build the page with ./build.sh", dir)
		}
		return fsys, nil
	}
	if !public.Built() {
		fmt.Fprintln(stderr, "imas serve: the page was not built into this imas (run ./build.sh, then rebuild imas, or pass -public DIR); serving the API only")
	}
	return public.FS(), nil
}

// logRequests logs one line per request: method, path, status, bytes
// written and duration.
func logRequests(h http.Handler, logger *log.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			logger.Printf("%s %s %d %dB %s", r.Method, r.URL.Path, sw.status, sw.bytes, time.Since(start).Round(time.Microsecond))
		}()
		h.ServeHTTP(sw, r)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
