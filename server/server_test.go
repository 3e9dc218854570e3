package server

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"imas/core"
	"imas/core/analyze"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
	"imas/core/reportjson"
	"imas/public"
)

// sample is one testdata/samples folder: its logs, by base name.
type sample struct {
	name  string
	files []namedLog
}

type namedLog struct {
	name string
	data []byte
}

var (
	samplesOnce sync.Once
	samples     []sample
)

func loadSamples(t testing.TB) []sample {
	samplesOnce.Do(func() {
		dirs, _ := filepath.Glob("../testdata/samples/*")
		for _, d := range dirs {
			logs, _ := filepath.Glob(filepath.Join(d, "*.log"))
			if len(logs) == 0 {
				continue
			}
			s := sample{name: filepath.Base(d)}
			for _, l := range logs {
				b, err := os.ReadFile(l)
				if err != nil {
					panic(err)
				}
				s.files = append(s.files, namedLog{filepath.Base(l), b})
			}
			samples = append(samples, s)
		}
	})
	if len(samples) == 0 {
		t.Fatal("no samples in testdata/samples")
	}
	return samples
}

func basicLog(t testing.TB) []byte {
	for _, s := range loadSamples(t) {
		if s.name == "basic" {
			return s.files[0].data
		}
	}
	t.Fatal("no basic sample")
	return nil
}

// coreAnswer is what the CLI computes for the same inputs: report.json and
// the total text from core.Analyze; "" when core finds no record in them.
func coreAnswer(t testing.TB, files []namedLog) (reportJSON, total string) {
	t.Helper()
	var srcs []input.Source
	for _, f := range files {
		srcs = append(srcs, input.BytesSource(f.name, f.data))
	}
	rep, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Inputs.Records == 0 {
		return "", ""
	}
	var js, tot bytes.Buffer
	if err := export.WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	if err := export.WriteTotal(&tot, rep); err != nil {
		t.Fatal(err)
	}
	return js.String(), tot.String()
}

// multipartOf builds a multipart/form-data body with one part per file.
func multipartOf(field string, files ...namedLog) (body []byte, contentType string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range files {
		w, _ := mw.CreateFormFile(field, f.name)
		w.Write(f.data)
	}
	mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

func gzipOf(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

func zipOf(files ...namedLog) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range files {
		w, _ := zw.Create("plog/" + f.name)
		w.Write(f.data)
	}
	zw.Close()
	return b.Bytes()
}

func tarOf(files ...namedLog) []byte {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, f := range files {
		tw.WriteHeader(&tar.Header{Name: "plog/" + f.name, Mode: 0o644, Size: int64(len(f.data)), Typeflag: tar.TypeReg})
		tw.Write(f.data)
	}
	tw.Close()
	return b.Bytes()
}

// do sends one request to h and returns the recorded answer.
func do(h http.Handler, method, target, contentType string, body io.Reader, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, body)
	if body == nil {
		r.ContentLength = 0
	}
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// streamed hides a reader's length, as a chunked upload does.
type streamed struct{ io.Reader }

func TestRoutes(t *testing.T) {
	basic := basicLog(t)
	page := fstest.MapFS{
		"index.html":     {Data: []byte(`<html><script src="app.js"></script><script>go.run()</script></html>`)},
		"app.js":         {Data: []byte("console.log(1)")},
		"assets/app.css": {Data: []byte("body{}")},
	}
	withPage := New(Config{Public: page})
	noPage := New(Config{})
	small := New(Config{MaxBody: 1000})
	mp, mpType := multipartOf("logs", namedLog{"a.log", basic})
	saved := do(noPage, "POST", "/api/report", "", bytes.NewReader(basic)).Body.Bytes()
	savedThenLog, savedThenLogType := multipartOf("file", namedLog{"report.txt", saved}, namedLog{"a.log", basic})
	for _, tc := range []struct {
		name         string
		h            http.Handler
		method, path string
		ctype        string
		body         []byte
		header       []string
		status       int
		contains     string
	}{
		{"health", noPage, "GET", "/healthz", "", nil, nil, 200, `"status":"ok"`},
		{"health HEAD", noPage, "HEAD", "/healthz", "", nil, nil, 200, ""},
		{"health POST", noPage, "POST", "/healthz", "", nil, nil, 405, "use GET"},
		{"report GET", noPage, "GET", "/api/report", "", nil, nil, 405, "use POST"},
		{"unknown API route", noPage, "POST", "/api/nothing", "", nil, nil, 404, "no API route"},
		{"page", withPage, "GET", "/", "", nil, nil, 200, "go.run()"},
		{"asset", withPage, "GET", "/assets/app.css", "", nil, nil, 200, "body{}"},
		{"no directory listing", withPage, "GET", "/assets/", "", nil, nil, 404, ""},
		{"not in the page", withPage, "GET", "/server.go", "", nil, nil, 404, ""},
		{"page PUT", withPage, "PUT", "/", "", nil, nil, 405, ""},
		{"page not built", noPage, "GET", "/", "", nil, nil, 404, "./build.sh"},
		{"report raw", noPage, "POST", "/api/report", "application/octet-stream", basic, nil, 200, `"schema": "imas.report/v1"`},
		{"report text/plain", noPage, "POST", "/api/report", "text/plain", basic, nil, 200, `"graphs"`},
		{"total", noPage, "POST", "/api/total", "", basic, nil, 200, "Process_1311101,"},
		{"empty body", noPage, "POST", "/api/report", "application/octet-stream", nil, nil, 400, "empty body"},
		{"JSON body", noPage, "POST", "/api/report", "application/json", []byte("{}"), nil, 415, "not a log"},
		{"form body", noPage, "POST", "/api/total", "application/x-www-form-urlencoded", basic, nil, 415, "curl -F file=@FILE"},
		{"bad content type", noPage, "POST", "/api/report", "text/", basic, nil, 415, "unreadable Content-Type"},
		{"brotli", noPage, "POST", "/api/report", "", basic, []string{"Content-Encoding", "br"}, 415, "Content-Encoding"},
		{"gzip label, text body", noPage, "POST", "/api/report", "", basic, []string{"Content-Encoding", "gzip"}, 400, "not gzip data"},
		{"gzip", noPage, "POST", "/api/report", "", gzipOf(basic), []string{"Content-Encoding", "gzip"}, 200, `"graphs"`},
		{"gzip multipart", noPage, "POST", "/api/report", mpType, mp, []string{"Content-Encoding", "gzip"}, 415, "send .gz files as parts"},
		{"binary junk", noPage, "POST", "/api/report", "", []byte("\x00\x01\x02\xff\xfe junk\n\x7f"), nil, 422, `"missing_markers"`},
		{"no GE lines", noPage, "POST", "/api/total", "", []byte("a\nb\n"), nil, 422, "ASCEND_GLOBAL_LOG_LEVEL"},
		{"rejected lines only", noPage, "POST", "/api/report", "", []byte("[INFO] GE(1,p):2026-04-18-10:00:00.000.000 [x.cc:1]1 F:[IMAS]Set garbage\n"), nil, 422, "none could be used"},
		{"truncated gzip", noPage, "POST", "/api/report", "", gzipOf(basic)[:200], nil, 400, "could not be read"},
		{"corrupt gzip", noPage, "POST", "/api/report", "", []byte("\x1f\x8b\x08junk"), nil, 400, "corrupt-archive"},
		{"multipart without file", noPage, "POST", "/api/report", mpType, mp, nil, 400, "has no file part"},
		{"multipart, bad boundary", noPage, "POST", "/api/report", "multipart/form-data; boundary=nope", mp, nil, 400, "malformed multipart"},
		{"multipart, no boundary", noPage, "POST", "/api/report", "multipart/form-data", mp, nil, 400, "boundary"},
		{"rows=maybe", noPage, "POST", "/api/report?rows=maybe", "", basic, nil, 400, "want 0 or 1"},
		{"over limit", small, "POST", "/api/report", "", basic, nil, 413, "larger than 1000 bytes"},
		{"saved report on total", noPage, "POST", "/api/total", "", saved, nil, 200, "Process_1311101,"},
		{"saved report on report", noPage, "POST", "/api/report", "", saved, nil, 200, `"schema": "imas.report/v1"`},
		{"foreign JSON as a log", noPage, "POST", "/api/total", "", []byte(`{"hello": 1}`), nil, 400, "not an imas report.json"},
		{"saved report with logs", noPage, "POST", "/api/total", savedThenLogType, savedThenLog, nil, 400, "send it alone"},
		{"diff not multipart", noPage, "POST", "/api/diff", "application/octet-stream", basic, nil, 415, "multipart/form-data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.body != nil {
				body = bytes.NewReader(tc.body)
			}
			w := do(tc.h, tc.method, tc.path, tc.ctype, body, tc.header...)
			got := w.Body.String()
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d: %.500s", w.Code, tc.status, got)
			}
			if !strings.Contains(got, tc.contains) {
				t.Errorf("body lacks %q: %.500s", tc.contains, got)
			}
			h := w.Header()
			if h.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("X-Content-Type-Options = %q", h.Get("X-Content-Type-Options"))
			}
			if v := h.Get("Cross-Origin-Opener-Policy"); v != "" {
				t.Errorf("Cross-Origin-Opener-Policy = %q: it cuts the Perfetto hand-over", v)
			}
			if h.Get("Content-Security-Policy") == "" {
				t.Error("no Content-Security-Policy")
			}
			if w.Code >= 400 && strings.HasPrefix(tc.path, "/api/") {
				var e struct{ Error string }
				if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" {
					t.Errorf("error answer is not {\"error\": ...}: %v %.300s", err, got)
				}
			}
			if w.Code == 405 && h.Get("Allow") == "" {
				t.Error("405 without Allow")
			}
		})
	}
}

// TestFiguresEqualCore: every way of uploading a sample gives exactly what
// core.Analyze gives on the same bytes under the same names.
func TestFiguresEqualCore(t *testing.T) {
	h := New(Config{})
	for _, s := range loadSamples(t) {
		whole := namedLog{"body", nil}
		for _, f := range s.files {
			whole.data = append(whole.data, f.data...)
		}
		mp, mpType := multipartOf("file", s.files...)
		tarball := tarOf(s.files...)
		for _, tc := range []struct {
			how   string
			ctype string
			body  []byte
			want  []namedLog
		}{
			{"multipart", mpType, mp, s.files},
			{"raw", "application/octet-stream", whole.data, []namedLog{whole}},
			{"gzip", "application/gzip", gzipOf(whole.data), []namedLog{{"body", gzipOf(whole.data)}}},
			{"tar", "application/x-tar", tarball, []namedLog{{"body", tarball}}},
			{"zip", "application/zip", zipOf(s.files...), []namedLog{{"body", zipOf(s.files...)}}},
		} {
			t.Run(s.name+"/"+tc.how, func(t *testing.T) {
				wantJSON, wantTotal := coreAnswer(t, tc.want)
				if wantJSON == "" {
					t.Skip("core finds no records in this sample yet")
				}
				w := do(h, "POST", "/api/report", tc.ctype, streamed{bytes.NewReader(tc.body)})
				if w.Code != 200 || w.Body.String() != wantJSON {
					t.Errorf("report: status %d; body differs from core.Analyze: %s", w.Code, firstDiff(w.Body.String(), wantJSON))
				}
				w = do(h, "POST", "/api/total", tc.ctype, bytes.NewReader(tc.body))
				if w.Code != 200 || w.Body.String() != wantTotal {
					t.Errorf("total: status %d\n got: %s\nwant: %s", w.Code, w.Body.String(), wantTotal)
				}
			})
		}
	}
}

func TestRows(t *testing.T) {
	basic := basicLog(t)
	for _, tc := range []struct {
		name     string
		cfg      Config
		query    string
		wantRows bool
	}{
		{"server default keeps rows", Config{}, "", true},
		{"rows=0", Config{}, "?rows=0", false},
		{"edge default omits rows", Edge(nil), "", false},
		{"edge rows=1", Edge(nil), "?rows=1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := do(New(tc.cfg), "POST", "/api/report"+tc.query, "", bytes.NewReader(basic))
			if w.Code != 200 {
				t.Fatalf("status %d: %s", w.Code, w.Body.String())
			}
			var rep model.Report
			if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			rows := 0
			for _, g := range rep.Graphs {
				rows += len(g.Rows)
				if g.Tensors == 0 {
					t.Errorf("graph %s lost its figures", g.Graph)
				}
			}
			if got := rows > 0; got != tc.wantRows {
				t.Errorf("%d rows, want rows: %v", rows, tc.wantRows)
			}
			if omitted := rep.Extra["rows_omitted"] == true; omitted == tc.wantRows {
				t.Errorf("extra.rows_omitted = %v with %d rows", rep.Extra["rows_omitted"], rows)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	basic := basicLog(t)
	// A body that ends only when the limit stops it: the log repeated.
	endless := func() io.Reader {
		return streamed{io.MultiReader(bytes.NewReader(basic), bytes.NewReader(basic), bytes.NewReader(basic))}
	}
	zeros := gzipOf(make([]byte, 4<<20))
	mp, mpType := multipartOf("file", namedLog{"a.log", basic}, namedLog{"b.log", basic})
	for _, tc := range []struct {
		name     string
		cfg      Config
		ctype    string
		body     io.Reader
		length   int64 // Content-Length to claim; 0: as the body is
		status   int
		contains string
	}{
		{"streamed body over the limit", Config{MaxBody: 300 << 10}, "", endless(), 0, 413, "larger than 307200 bytes"},
		{"multipart over the limit", Config{MaxBody: 200 << 10}, mpType, streamed{bytes.NewReader(mp)}, 0, 413, "larger than"},
		{"Content-Length over the limit", Config{MaxBody: 1 << 20}, "", strings.NewReader("x"), 1<<20 + 1, 413, "1 MiB"},
		{"edge limit says why", Edge(nil), "", strings.NewReader("x"), EdgeMaxBody + 1, 413, "Cloudflare Workers accept at most 100 MB"},
		{"edge, small body", Edge(nil), "", bytes.NewReader(basic), 0, 200, ""},
		{"expansion limit", Config{Limits: input.Limits{MaxExpanded: 1 << 20}}, "", bytes.NewReader(zeros), 0, 413, "decompression limit"},
		{"expansion within the memory budget", Config{Budget: 1 << 20, ChargePerByte: 1}, "", bytes.NewReader(zeros), 0, 413, "at most 1 MiB (1048576 bytes), what its memory budget (-budget) can analyse"},
		{"zip held in memory", Config{Limits: input.Limits{MaxZipSpool: 1 << 10}}, "", bytes.NewReader(zipOf(namedLog{"a.log", basic})), 0, 413, "in-memory limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/api/report", tc.body)
			if tc.length != 0 {
				r.ContentLength = tc.length
			}
			if tc.ctype != "" {
				r.Header.Set("Content-Type", tc.ctype)
			}
			w := httptest.NewRecorder()
			New(tc.cfg).ServeHTTP(w, r)
			if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.contains) {
				t.Errorf("status %d, want %d with %q: %.400s", w.Code, tc.status, tc.contains, w.Body.String())
			}
		})
	}
}

// endlessLog is a body that never ends: the request can only stop at its
// deadline, whatever the machine's speed.
type endlessLog struct{ line []byte }

func (e endlessLog) Read(p []byte) (int, error) {
	n := 0
	for n+len(e.line) <= len(p) {
		n += copy(p[n:], e.line)
	}
	return n, nil
}

func TestTimeout(t *testing.T) {
	h := New(Config{Timeout: 20 * time.Millisecond, MaxBody: 1 << 62})
	line := []byte("[INFO] GE(1,p):2026-04-18-10:00:00.000.000 [x.cc:1]1 F:noise\n")
	w := do(h, "POST", "/api/report", "", streamed{endlessLog{line}})
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "time limit") {
		t.Errorf("status %d: %s", w.Code, w.Body.String())
	}
}

func TestRecover(t *testing.T) {
	for _, tc := range []struct {
		name       string
		h          http.HandlerFunc
		wantStatus int
		wantBody   string
	}{
		{"before the answer", func(http.ResponseWriter, *http.Request) { panic("boom") }, 500, "internal error"},
		{"after the answer started", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(202)
			io.WriteString(w, "partial")
			panic("boom")
		}, 202, "partial"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			w := httptest.NewRecorder()
			recoverer(tc.h, log.New(&logs, "", 0)).ServeHTTP(w, httptest.NewRequest("GET", "/x", nil))
			if w.Code != tc.wantStatus || !strings.Contains(w.Body.String(), tc.wantBody) {
				t.Errorf("got %d %q", w.Code, w.Body.String())
			}
			if !strings.Contains(logs.String(), "panic serving GET /x: boom") {
				t.Errorf("log: %q", logs.String())
			}
		})
	}
	// net/http's abort panic must reach net/http.
	defer func() {
		if v := recover(); v != http.ErrAbortHandler {
			t.Errorf("recovered %v, want http.ErrAbortHandler", v)
		}
	}()
	recoverer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }), log.New(io.Discard, "", 0)).
		ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
}

func TestPagePolicy(t *testing.T) {
	page := fstest.MapFS{
		"index.html": {Data: []byte("<html><SCRIPT type=module>main()</SCRIPT><script\nsrc=\"x.js\"></script></html>")},
		"app.js":     {Data: []byte("1")},
	}
	h := New(Config{Public: page})
	// sha256("main()"), as a browser computes it for the inline script.
	const hash = "'sha256-6hoPkQIwXgLxKsWKzAGrY2XKW7XlbiW5FxOYCLnJMsE='"
	for _, tc := range []struct {
		path, want string
		hashed     bool
	}{
		{"/", "script-src 'self' " + hash + " 'unsafe-eval' 'wasm-unsafe-eval'", true},
		{"/app.js", "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'", false},
	} {
		w := do(h, "GET", tc.path, "", nil)
		csp := w.Header().Get("Content-Security-Policy")
		if !strings.Contains(csp, tc.want) || strings.Contains(csp, "sha256") != tc.hashed {
			t.Errorf("%s: policy %q, want %q", tc.path, csp, tc.want)
		}
		for _, d := range []string{"frame-ancestors 'none'", "object-src 'none'", "frame-src https://ui.perfetto.dev"} {
			if !strings.Contains(csp, d) {
				t.Errorf("%s: policy lacks %s", tc.path, d)
			}
		}
	}
	if got := do(h, "POST", "/api/nothing", "", nil).Header().Get("Content-Security-Policy"); got != apiPolicy {
		t.Errorf("API policy %q", got)
	}
}

// TestPageEscape: the page handler itself never leaves its file system,
// even for paths the mux would have cleaned first.
func TestPageEscape(t *testing.T) {
	p := &page{fsys: fstest.MapFS{"index.html": {Data: []byte("x")}}}
	for _, path := range []string{"/../index.html", "/../../etc/passwd", "/a/../../server.go"} {
		r := httptest.NewRequest("GET", "/", nil)
		r.URL.Path = path
		w := httptest.NewRecorder()
		p.ServeHTTP(w, r)
		want := 404
		if path == "/../index.html" { // cleaned to /index.html: inside the page
			want = 200
		}
		if w.Code != want {
			t.Errorf("%s: status %d, want %d", path, w.Code, want)
		}
	}
}

func TestInlineScripts(t *testing.T) {
	for _, tc := range []struct {
		html string
		want []string
	}{
		{"", nil},
		{"<script src=a.js></script>", nil},
		{"<script>a()</script><p><script type=\"module\">b()</script>", []string{"a()", "b()"}},
		{"<Script>\n x \n</sCRIPT>", []string{"\n x \n"}},
		{"<script\tsrc = 'a.js'></script><script>c</script>", []string{"c"}},
		{"<script>unterminated", nil},
	} {
		var got []string
		for _, s := range inlineScripts([]byte(tc.html)) {
			got = append(got, string(s))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("inlineScripts(%q) = %q, want %q", tc.html, got, tc.want)
		}
	}
}

// TestConcurrentUploads: 16 uploads of different samples at once; each
// answer must equal the answer to the same request made alone.
func TestConcurrentUploads(t *testing.T) {
	h := New(Config{})
	type job struct {
		ctype  string
		body   []byte
		status int
		want   string
	}
	var jobs []job
	for i := 0; len(jobs) < 16; i++ {
		s := loadSamples(t)[i%len(loadSamples(t))]
		files := s.files
		if i >= len(loadSamples(t)) { // then a different mix: the first file only
			files = files[:1]
		}
		body, ctype := multipartOf("file", files...)
		w := do(h, "POST", "/api/report", ctype, bytes.NewReader(body))
		jobs = append(jobs, job{ctype, body, w.Code, w.Body.String()})
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(jobs))
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := do(h, "POST", "/api/report", j.ctype, bytes.NewReader(j.body))
			if w.Code != j.status || w.Body.String() != j.want {
				errs <- fmt.Errorf("upload %d: status %d (alone %d), differs from alone: %s", i, w.Code, j.status, firstDiff(w.Body.String(), j.want))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestLoopbackLoad: 200 requests, 16 at a time, over real loopback TCP.
func TestLoopbackLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	basic := basicLog(t)
	_, want := coreAnswer(t, []namedLog{{"body", basic}})
	const total, parallel = 200, 16
	client := &http.Client{Timeout: 30 * time.Second}
	next := make(chan int, total)
	for i := range total {
		next <- i
	}
	close(next)
	errs := make(chan error, total)
	start := time.Now()
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				res, err := client.Post(srv.URL+"/api/total", "application/octet-stream", bytes.NewReader(basic))
				if err != nil {
					errs <- err
					continue
				}
				got, err := io.ReadAll(res.Body)
				res.Body.Close()
				if err != nil || res.StatusCode != 200 || string(got) != want {
					errs <- fmt.Errorf("status %d, %v: %.200s", res.StatusCode, err, got)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	el := time.Since(start)
	t.Logf("%d requests of %d KiB, %d in parallel: %s, %.0f req/s", total, len(basic)>>10, parallel, el.Round(time.Millisecond), total/el.Seconds())
}

func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	if i == len(got) && i == len(want) {
		return "(same)"
	}
	from := max(0, i-60)
	return fmt.Sprintf("at byte %d:\n got: %q\nwant: %q", i, got[from:min(len(got), i+60)], want[from:min(len(want), i+60)])
}

// TestDiff: the two sides may be logs or saved reports, in either order;
// the answer is exactly what analyze.Diff gives on the same runs.
func TestDiff(t *testing.T) {
	h := New(Config{})
	var basic, conflicts namedLog
	for _, s := range loadSamples(t) {
		switch s.name {
		case "basic":
			basic = s.files[0]
		case "conflicts":
			conflicts = s.files[0]
		}
	}
	savedJSON, _ := coreAnswer(t, []namedLog{conflicts})
	saved := namedLog{"report.json", []byte(savedJSON)}
	runOf := func(f namedLog) *analyze.Run {
		if f.name == "report.json" {
			run, err := reportjson.Load(f.name, f.data)
			if err != nil {
				t.Fatal(err)
			}
			return run
		}
		rep, err := core.Analyze(context.Background(), []input.Source{input.BytesSource(f.name, f.data)}, core.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return analyze.RunOf(f.name, rep)
	}
	want := func(old, new namedLog) string {
		var b bytes.Buffer
		export.WriteDiffJSON(&b, analyze.Diff(runOf(old), runOf(new)))
		return b.String()
	}
	type part struct {
		field string
		log   namedLog
	}
	junk := namedLog{"junk.log", []byte("no memory lines here\n")}
	notReport := namedLog{"other.json", []byte(`{"schema": "something else"}`)}
	for _, tc := range []struct {
		name     string
		parts    []part
		status   int
		want     string // whole answer
		contains string
	}{
		{"log vs log", []part{{"old", basic}, {"new", basic}}, 200, want(basic, basic), ""},
		{"report vs log", []part{{"old", saved}, {"new", basic}}, 200, want(saved, basic), ""},
		{"new first", []part{{"new", saved}, {"other", junk}, {"old", conflicts}}, 200, want(conflicts, saved), ""},
		{"missing new", []part{{"old", basic}}, 400, "", "the parts were: old"},
		{"two olds", []part{{"old", basic}, {"old", basic}, {"new", basic}}, 400, "", "two old parts"},
		{"no GE lines", []part{{"old", junk}, {"new", basic}}, 422, "", "old: no GE memory records"},
		{"JSON that is no report", []part{{"old", basic}, {"new", notReport}}, 400, "", "new: other.json: not an imas report.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			mw := multipart.NewWriter(&b)
			for _, p := range tc.parts {
				w, _ := mw.CreateFormFile(p.field, p.log.name)
				w.Write(p.log.data)
			}
			mw.Close()
			w := do(h, "POST", "/api/diff", mw.FormDataContentType(), &b)
			got := w.Body.String()
			if w.Code != tc.status || !strings.Contains(got, tc.contains) {
				t.Fatalf("status %d, want %d with %q: %.400s", w.Code, tc.status, tc.contains, got)
			}
			if tc.want != "" && got != tc.want {
				t.Errorf("differs from analyze.Diff: %s", firstDiff(got, tc.want))
			}
		})
	}
}

// TestBuiltPage: the page as ./build.sh wrote it, when it did. Its own
// <meta> policy lists the hashes of its inline scripts; the header policy
// must allow each of them, or the browser would block the page.
func TestBuiltPage(t *testing.T) {
	if !public.Built() {
		t.Skip("public/index.html not built (./build.sh)")
	}
	h := New(Config{Public: public.FS()})
	meta := regexp.MustCompile(`http-equiv="Content-Security-Policy" content="[^"]*?script-src ([^;"]*)`)
	hash := regexp.MustCompile(`'sha256-[^']+'`)
	for _, name := range []string{"index.html", "imas.html"} {
		w := do(h, "GET", "/"+name, "", nil)
		if name == "index.html" {
			w = do(h, "GET", "/", "", nil)
		}
		if w.Code == 404 && name != "index.html" {
			continue
		}
		if w.Code != 200 {
			t.Fatalf("%s: status %d", name, w.Code)
		}
		header := w.Header().Get("Content-Security-Policy")
		m := meta.FindStringSubmatch(w.Body.String())
		if m == nil {
			continue // no policy of its own: nothing to agree with
		}
		for _, want := range hash.FindAllString(m[1], -1) {
			if !strings.Contains(header, want) {
				t.Errorf("%s: header policy lacks the page's own %s:\n%s", name, want, header)
			}
		}
	}
	if w := do(h, "GET", "/embed.go", "", nil); w.Code != 404 {
		t.Errorf("/embed.go: status %d, want 404 (Go sources are not part of the page)", w.Code)
	}
}
