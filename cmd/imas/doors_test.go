package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"imas/core/export"
	"imas/core/input"
	"imas/server"
	"imas/wasm/engine"
)

// TestDoorsAgree: for the same logs, "imas total", "imas total" of the
// saved report.json, POST /api/total with the logs and with the report, and
// the page's engine opening the report print the same text. The saved
// report is named report.txt for the page and the server: what it is comes
// from its content, never its name.
func TestDoorsAgree(t *testing.T) {
	for _, sample := range []string{"basic", "conflicts", "mixed", "pool"} {
		t.Run(sample, func(t *testing.T) {
			logs, err := filepath.Glob(filepath.Join("../../testdata/samples", sample, "*.log"))
			if err != nil || len(logs) == 0 {
				t.Fatalf("no logs in sample %s: %v", sample, err)
			}
			want := cli(t, 0, append([]string{"total"}, logs...)...)
			if !strings.Contains(want, ",") {
				t.Fatalf("imas total printed no summary line:\n%s", want)
			}
			doorsAgree(t, want, logs)
		})
	}
}

// doorsAgree checks that the doors other than "imas total" of the logs
// print want: "imas total" of the saved report.json, POST /api/total with
// the logs and with the report, and the page's engine opening the report.
func doorsAgree(t *testing.T, want string, logs []string) {
	t.Helper()
	dir := t.TempDir()
	cli(t, 0, append([]string{"report", "-o", dir}, logs...)...)
	saved := filepath.Join(dir, "report.json")
	if got := cli(t, 0, "total", saved); got != want {
		t.Errorf("imas total report.json:\n%s\nimas total of the logs:\n%s", got, want)
	}
	h := server.New(server.Config{})
	if got := post(t, h, "/api/total", logs...); got != want {
		t.Errorf("POST /api/total with the logs:\n%s\nimas total:\n%s", got, want)
	}
	report, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	asText := filepath.Join(t.TempDir(), "report.txt")
	if err := os.WriteFile(asText, report, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := post(t, h, "/api/total", asText); got != want {
		t.Errorf("POST /api/total with report.json:\n%s\nimas total:\n%s", got, want)
	}
	s := engine.NewSession()
	run, err := s.Analyze(context.Background(), engine.SlotRun, []input.Source{input.BytesSource("report.txt", report)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	export.WriteTotal(&page, run.Report)
	if !run.Loaded || page.String() != want {
		t.Errorf("the page opened report.json as loaded=%v, total:\n%s\nimas total:\n%s", run.Loaded, page.String(), want)
	}
}

// TestDoorsAgreeOnRealLogs: the doors agree on every real log imas reads
// (../shared/real-logs; skipped without it, required in CI). The CLI reads
// them by base name, as the server and the page name them.
func TestDoorsAgreeOnRealLogs(t *testing.T) {
	const dir = "../../../shared/real-logs"
	logs, err := filepath.Glob(filepath.Join(dir, "*.*"))
	if err == nil && len(logs) == 0 {
		err = os.ErrNotExist
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs the real logs in %s: %v", dir, err)
		}
		t.Skipf("no real logs in %s: %v", dir, err)
	}
	t.Chdir(dir)
	read := 0
	for _, p := range logs {
		name := filepath.Base(p)
		if !strings.HasSuffix(name, ".log") && !strings.HasSuffix(name, ".txt") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"total", name}, &stdout, &stderr)
			if code == exitNoInput {
				// Nothing imas reads: the server explains it alike.
				data, err := os.ReadFile(name)
				if err != nil {
					t.Fatal(err)
				}
				rec := httptest.NewRecorder()
				server.New(server.Config{}).ServeHTTP(rec, httptest.NewRequest("POST", "/api/total", bytes.NewReader(data)))
				var body struct{ Explanation string }
				if err := json.NewDecoder(rec.Body).Decode(&body); err != nil || rec.Code != http.StatusUnprocessableEntity ||
					body.Explanation != strings.TrimPrefix(stderr.String(), "imas: ") {
					t.Errorf("server: %d %v %q; CLI: %s", rec.Code, err, body.Explanation, stderr.String())
				}
				return
			}
			if code != exitOK {
				t.Fatalf("imas total: exit %d\n%s", code, stderr.String())
			}
			read++
			doorsAgree(t, stdout.String(), []string{name})
		})
	}
	if read < 15 {
		t.Errorf("%d real logs read, want at least 15", read)
	}
}

// TestDoorsExplainAlike: a file without GE lines is explained with the same
// text by the CLI, the server and the page.
func TestDoorsExplainAlike(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.log")
	text := "training started\nloss 0.25\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"total", path}, io.Discard, &stderr); code != exitNoInput {
		t.Fatalf("exit %d, want %d", code, exitNoInput)
	}
	cliText := strings.TrimPrefix(stderr.String(), "imas: ")
	for _, want := range []string{"no GE memory records in 2 lines of 1 input", `"[IMAS]"`, "ASCEND_GLOBAL_LOG_LEVEL=1"} {
		if !strings.Contains(cliText, want) {
			t.Errorf("CLI explanation lacks %q:\n%s", want, cliText)
		}
	}
	rec := httptest.NewRecorder()
	server.New(server.Config{}).ServeHTTP(rec, httptest.NewRequest("POST", "/api/total", strings.NewReader(text)))
	var body struct{ Explanation string }
	if err := json.NewDecoder(rec.Body).Decode(&body); err != nil || rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("server: %d %v", rec.Code, err)
	}
	_, err := engine.NewSession().Analyze(context.Background(), engine.SlotRun, []input.Source{input.BytesSource(path, []byte(text))}, nil)
	if err == nil {
		t.Fatal("the page accepted a file without GE lines")
	}
	if body.Explanation != cliText || err.Error() != cliText {
		t.Errorf("explanations differ:\nCLI:\n%s\nserver:\n%s\npage:\n%s", cliText, body.Explanation, err.Error())
	}
}

// cli runs imas with args and returns its stdout; the exit code must be code.
func cli(t *testing.T, code int, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if c := run(context.Background(), args, &stdout, &stderr); c != code {
		t.Fatalf("imas %s: exit %d, want %d\n%s", strings.Join(args, " "), c, code, stderr.String())
	}
	return stdout.String()
}

// post sends files as multipart "file" parts and returns the answer, which
// must be 200.
func post(t *testing.T, h http.Handler, route string, files ...string) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := mw.CreateFormFile("file", filepath.Base(f))
		w.Write(b)
	}
	mw.Close()
	req := httptest.NewRequest("POST", route, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("POST %s: %d %s", route, rec.Code, rec.Body.String())
	}
	return rec.Body.String()
}
