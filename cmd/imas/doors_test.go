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

// TestDoorsAgree: for the same logs, "imas total DIR", "imas total FILES",
// "imas total" of the saved report.json, POST /api/total with the logs and
// with the report, and the page's engine opening the logs and the report
// print the same text. The saved report is named report.txt for the page
// and the server: what it is comes from its content, never its name.
func TestDoorsAgree(t *testing.T) {
	// Each run is read from inside its folder, so that every door names
	// the files alike: an upload's part carries a file's base name.
	type run struct {
		name  string
		dir   string   // imas total .
		files []string // the same files' names, as the walk of dir lists them
	}
	var runs []run
	for _, sample := range []string{"basic", "conflicts", "mixed", "pool"} {
		logs, err := filepath.Glob(filepath.Join("../../testdata/samples", sample, "*.log"))
		if err != nil || len(logs) == 0 {
			t.Fatalf("no logs in sample %s: %v", sample, err)
		}
		dir := t.TempDir()
		var files []string
		for _, l := range logs {
			b, err := os.ReadFile(l)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, filepath.Base(l))
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, filepath.Base(p))
		}
		runs = append(runs, run{sample, dir, files})
	}
	if dir, files := realLogFiles(t); files != nil {
		runs = append(runs, run{"real-logs", dir, files})
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			t.Chdir(r.dir)
			want := cli(t, 0, "total", ".")
			if !strings.Contains(want, ",") {
				t.Fatalf("imas total printed no summary line:\n%s", want)
			}
			if got := cli(t, 0, append([]string{"total"}, r.files...)...); got != want {
				t.Errorf("imas total FILES:\n%s\nimas total DIR:\n%s", got, want)
			}
			out := t.TempDir()
			cli(t, 0, "report", "-o", out, ".")
			saved := filepath.Join(out, "report.json")
			if got := cli(t, 0, "total", saved); got != want {
				t.Errorf("imas total report.json:\n%s\nimas total of the logs:\n%s", got, want)
			}
			h := server.New(server.Config{})
			if got := post(t, h, "/api/total", r.files...); got != want {
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
			var logs []input.Source
			for _, f := range r.files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				logs = append(logs, input.BytesSource(f, b))
			}
			for _, c := range []struct {
				what   string
				srcs   []input.Source
				loaded bool
			}{
				{"the logs", logs, false},
				{"report.json", []input.Source{input.BytesSource("report.txt", report)}, true},
			} {
				run, err := engine.NewSession().AnalyzeShowing(context.Background(), engine.SlotRun, c.srcs, nil, &engine.EarlyList{}) // as the page analyses: its finished graphs shown
				if err != nil {
					t.Fatalf("the page opening %s: %v", c.what, err)
				}
				var page bytes.Buffer
				export.WriteTotal(&page, run.Report)
				if run.Loaded != c.loaded || page.String() != want {
					t.Errorf("the page opened %s as loaded=%v (want %v), total:\n%s\nimas total:\n%s", c.what, run.Loaded, c.loaded, page.String(), want)
				}
			}
		})
	}
}

// realLogsDir holds real GE logs from public sources, beside the worktree.
const realLogsDir = "../../../shared/real-logs"

// realLogFiles returns realLogsDir, absolute, and the names of its files in
// the order a walk of it reads them, or skips that part of a test without
// them (fails in CI).
func realLogFiles(t *testing.T) (string, []string) {
	t.Helper()
	dir, err := filepath.Abs(realLogsDir)
	if err != nil {
		t.Fatal(err)
	}
	srcs, diags := input.FromPaths([]string{dir})
	if len(srcs) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s: no real logs (required in CI): %v", dir, diags)
		}
		t.Logf("%s absent: the doors are compared on the samples only", dir)
		return "", nil
	}
	var files []string
	for _, s := range srcs {
		rel, err := filepath.Rel(dir, s.Name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, rel)
	}
	return dir, files
}

// TestDoorsExplainAlike: an input imas cannot use is explained with the
// same text by the CLI, the server and the page: no GE marker at all, an
// empty file, and GE lines none of which can be used.
func TestDoorsExplainAlike(t *testing.T) {
	const cut = "[INFO] GE(1,python3):2026-02-20-10:00:00.000.123 [block_mem_assigner.cc:2914]2 SetOffsetSize:[IMAS]Set g name[n] optype[Op] output[0] offset to [0] stre\n"
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"notes.log", "training started\nloss 0.25\n", []string{"no GE memory records in 2 lines of 1 input", `"[IMAS]"`, "ASCEND_GLOBAL_LOG_LEVEL=1"}},
		{"empty.log", "", []string{"the input is empty", "ASCEND_GLOBAL_LOG_LEVEL=1"}},
		{"cut.log", cut, []string{"1 of 1 lines looked like GE memory records but none could be used", "cut.log:1: "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir) // every door names the file alike
			if err := os.WriteFile(c.name, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			if code := run(context.Background(), []string{"total", c.name}, io.Discard, &stderr); code != exitNoInput {
				t.Fatalf("exit %d, want %d", code, exitNoInput)
			}
			cliText := strings.TrimPrefix(stderr.String(), "imas: ")
			for _, want := range c.want {
				if !strings.Contains(cliText, want) {
					t.Errorf("CLI explanation lacks %q:\n%s", want, cliText)
				}
			}
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			w, _ := mw.CreateFormFile("file", c.name)
			io.WriteString(w, c.text)
			mw.Close()
			req := httptest.NewRequest("POST", "/api/total", &body)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			rec := httptest.NewRecorder()
			server.New(server.Config{}).ServeHTTP(rec, req)
			var answer struct{ Explanation string }
			if err := json.NewDecoder(rec.Body).Decode(&answer); err != nil || rec.Code < 400 {
				t.Fatalf("server: %d %v", rec.Code, err)
			}
			_, err := engine.NewSession().Analyze(context.Background(), engine.SlotRun, []input.Source{input.BytesSource(c.name, []byte(c.text))}, nil)
			if err == nil {
				t.Fatal("the page accepted it")
			}
			if answer.Explanation != cliText || err.Error() != cliText {
				t.Errorf("explanations differ:\nCLI:\n%s\nserver (%d):\n%s\npage:\n%s", cliText, rec.Code, answer.Explanation, err.Error())
			}
		})
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
