package server

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"imas/core/gelog"
	"imas/core/input"
)

var fzRoutes = []string{"/api/report", "/api/total", "/api/diff"}

// FuzzHandler posts arbitrary bodies, content types and encodings to the
// API. Every answer must be a 2xx with the documented body or a 4xx JSON
// error: a 5xx is what a recovered panic (500) or a hang that runs into the
// request's time limit (503) would give.
func FuzzHandler(f *testing.F) {
	var panics bytes.Buffer
	h := New(Config{
		MaxBody: 1 << 20,
		Timeout: 30 * time.Second,
		Workers: 1,
		Limits:  input.Limits{MaxExpanded: 16 << 20, MaxZipSpool: 1 << 20},
		// The recoverer logs panics here; any line is a finding.
		ErrorLog: log.New(&panics, "", 0),
	})

	plog := fzSampleLog(f)
	mp, mpType := fzMultipart(map[string][]byte{"file": plog})
	diff, diffType := fzMultipart(map[string][]byte{"old": plog, "new": plog})
	report, total, diffRoute := uint8(0), uint8(1), uint8(2)
	for _, s := range []struct {
		route           uint8
		ctype, encoding string
		chunked         bool
		body            []byte
	}{
		{report, "", "", false, plog},
		{total, "text/plain", "", true, plog},
		{report, "application/gzip", "", false, fzGzip(plog)},
		{report, "application/octet-stream", "gzip", true, fzGzip(plog)},
		{report, "", "gzip", false, []byte("not gzip")},
		{total, "application/zip", "", false, fzZip("plog.log", plog)},
		{report, "application/x-tar", "", false, fzTar(plog, "a/plog.log", "../evil.log")},
		{report, mpType, "", false, mp},
		{total, mpType, "", true, mp},
		{diffRoute, diffType, "", false, diff},
		{report, "multipart/form-data", "", false, []byte("--x\r\n")},
		{report, "application/json", "", false, []byte(`{"schema":"imas.report/v1"}`)},
		{report, "", "br", false, []byte("x")},
		{report, "text/plain; charset=\"", "", false, []byte("x")},
		{total, "", "", false, nil},
		{report, "", "", false, []byte("\x00\xff[IMAS]\r\n[INFO] GE(1,p):2026-01-01-00:00:00.000.000 [a.cc:1]1 F:[IMAS]Set g name[x")},
	} {
		f.Add(s.route, s.ctype, s.encoding, s.chunked, s.body)
	}

	f.Fuzz(func(t *testing.T, route uint8, ctype, encoding string, chunked bool, body []byte) {
		path := fzRoutes[int(route)%len(fzRoutes)]
		r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		if chunked { // no Content-Length: the limits must hold while streaming
			r.ContentLength = -1
			r.Body = io.NopCloser(struct{ io.Reader }{bytes.NewReader(body)})
		}
		if ctype != "" {
			r.Header.Set("Content-Type", ctype)
		}
		if encoding != "" {
			r.Header.Set("Content-Encoding", encoding)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)

		if panics.Len() > 0 {
			t.Fatalf("handler panicked: %s", panics.String())
		}
		if w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("answer without nosniff")
		}
		ct := w.Header().Get("Content-Type")
		switch {
		case w.Code >= 400 && w.Code < 500:
			var e struct {
				Error string `json:"error"`
			}
			if ct != "application/json" || json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error == "" {
				t.Fatalf("%d answer is not a JSON error (%s): %.300q", w.Code, ct, w.Body.String())
			}
		case w.Code == http.StatusOK && path == "/api/total":
			if !strings.HasPrefix(ct, "text/plain") {
				t.Fatalf("total answered %s", ct)
			}
		case w.Code == http.StatusOK:
			if ct != "application/json" || !json.Valid(w.Body.Bytes()) {
				t.Fatalf("%s answered invalid JSON (%s): %.300q", path, ct, w.Body.String())
			}
			if path == "/api/report" {
				fzCheckReport(t, w.Body.Bytes())
			}
		default:
			t.Fatalf("status %d: %.300q", w.Code, w.Body.String())
		}
	})
}

// fzCheckReport checks the accounting of a report.json answer.
func fzCheckReport(t *testing.T, b []byte) {
	t.Helper()
	var rep struct {
		Schema string `json:"schema"`
		Inputs struct {
			Files []struct {
				Lines, Candidates, Records int64
			} `json:"files"`
			Lines, Candidates, Records, Rejected int64
		} `json:"inputs"`
	}
	if err := json.Unmarshal(b, &rep); err != nil || rep.Schema != "imas.report/v1" {
		t.Fatalf("not a report.json (%v): %.300q", err, b)
	}
	in := rep.Inputs
	var lines, cands, recs int64
	for _, f := range in.Files {
		lines, cands, recs = lines+f.Lines, cands+f.Candidates, recs+f.Records
	}
	if in.Records == 0 || in.Candidates != in.Records+in.Rejected || lines != in.Lines || cands != in.Candidates || recs != in.Records {
		t.Fatalf("inputs do not add up: %+v", in)
	}
}

// fzSampleLog is a small log: the candidate lines of the basic sample and
// the noise line before each.
func fzSampleLog(f *testing.F) []byte {
	logs, _ := filepath.Glob("../testdata/samples/basic/*.log")
	if len(logs) == 0 {
		f.Fatal("no testdata/samples/basic log")
	}
	data, err := os.ReadFile(logs[0])
	if err != nil {
		f.Fatal(err)
	}
	var out bytes.Buffer
	prev := ""
	for l := range strings.Lines(string(data)) {
		if gelog.IsCandidate([]byte(l)) {
			out.WriteString(prev + l)
			prev = ""
			if out.Len() > 16<<10 {
				break
			}
			continue
		}
		prev = l
	}
	return out.Bytes()
}

func fzGzip(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func fzZip(name string, b []byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create(name)
	w.Write(b)
	zw.Close()
	return buf.Bytes()
}

// fzTar is a tar of b under each name.
func fzTar(b []byte, names ...string) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range names {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg})
		tw.Write(b)
	}
	tw.Close()
	return buf.Bytes()
}

func fzMultipart(parts map[string][]byte) (body []byte, contentType string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, field := range []string{"file", "old", "new"} {
		if b, ok := parts[field]; ok {
			w, _ := mw.CreateFormFile(field, field+".log")
			w.Write(b)
		}
	}
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}
