package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"imas/core"
	"imas/core/analyze"
	"imas/core/export"
	"imas/core/input"
)

const sample = "../../testdata/samples/basic/plog-1311101_20261202080000000.log"

// TestWorkerd runs the worker the way it is deployed: the js/wasm build
// with syumai/workers' shim under npm's workerd, on a loopback socket, and
// checks its answers against core.Analyze on the same log. It uses the
// "make worker" output in $IMAS_WORKER_DIR, or builds one; with
// $IMAS_WORKER_COMMIT, /healthz must name that commit.
func TestWorkerd(t *testing.T) {
	workerd, err := filepath.Abs("../../node_modules/.bin/workerd")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(workerd); err != nil {
		if os.Getenv("IMAS_REQUIRE_TOOLS") == "1" {
			t.Fatalf("workerd missing (%v): run npm install", err)
		}
		t.Skipf("workerd missing (%v): run npm install, or set IMAS_REQUIRE_TOOLS=1 to fail instead", err)
	}
	dir := os.Getenv("IMAS_WORKER_DIR")
	if dir == "" {
		dir = buildWorker(t)
	}
	base := startWorkerd(t, workerd, filepath.Join(dir, "config.capnp"))

	log, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(sample)
	// A stamped release bundle names its own version in report.json's
	// "tool"; the answers expected are computed as that version.
	if v := workerVersion(t, base); v != core.Version {
		defer func(v string) { core.Version = v }(core.Version)
		core.Version = v
	}
	want := expect(t, name, log)

	// A release bundle (make test-dist) must name the commit it was built
	// from, as the other release binaries do.
	health := `"status":"ok"`
	if c := os.Getenv("IMAS_WORKER_COMMIT"); c != "" {
		health = `"commit":"` + c + `"`
	}
	client := &http.Client{Timeout: 60 * time.Second}
	for _, tc := range []struct {
		name, path string
		body       func() (io.Reader, string)
		status     int
		want       string // the body, when set
		canonical  bool   // compare the JSON with sorted keys
		contains   string
	}{
		{"health", "/healthz", nil, 200, "", false, health},
		{"report with rows", "/api/report?rows=1", multipartBody(name, log, "file"), 200, want.json, false, ""},
		{"report, rows omitted by default", "/api/report", multipartBody(name, log, "file"), 200, want.noRows, true, ""},
		{"total, raw body", "/api/total", rawBody(log), 200, want.total, false, ""},
		{"diff", "/api/diff", multipartBody(name, log, "old", "new"), 200, want.diff, false, ""},
		{"no GE lines", "/api/report", rawBody([]byte("hello\nworld\n")), 422, "", false, `"missing_markers"`},
	} {
		start := time.Now()
		var res *http.Response
		if tc.body == nil {
			res, err = client.Get(base + tc.path)
		} else {
			body, ct := tc.body()
			res, err = client.Post(base+tc.path, ct, body)
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		t.Logf("%s: %d, %d bytes in %s", tc.name, res.StatusCode, len(got), time.Since(start).Round(time.Millisecond))
		if res.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, res.StatusCode, tc.status, got)
			continue
		}
		if tc.canonical {
			var v any
			if err := json.Unmarshal(got, &v); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			got = []byte(canonical(t, v))
		}
		if tc.want != "" && string(got) != tc.want {
			t.Errorf("%s: answer differs from core.Analyze: %s", tc.name, firstDiff(string(got), tc.want))
		}
		if !strings.Contains(string(got), tc.contains) {
			t.Errorf("%s: answer lacks %s: %.300s", tc.name, tc.contains, got)
		}
	}

	// Bodies above the Workers limit are refused from their Content-Length,
	// before any byte is read: send only the headers of a bigger body.
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(60 * time.Second))
	io.WriteString(conn, "POST /api/report HTTP/1.1\r\nHost: imas\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000001\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("oversized body: %v", err)
	}
	got, _ := io.ReadAll(res.Body)
	if res.StatusCode != 413 || !strings.Contains(string(got), "Cloudflare Workers accept at most 100 MB") {
		t.Errorf("oversized body: %d %s", res.StatusCode, got)
	}
}

type expected struct{ json, noRows, total, diff string }

// expect is what the CLI computes for the log (the same core call).
func expect(t *testing.T, name string, log []byte) expected {
	t.Helper()
	rep, err := core.Analyze(context.Background(), []input.Source{input.BytesSource(name, log)}, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var js, total, diff bytes.Buffer
	if err := export.WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	if err := export.WriteTotal(&total, rep); err != nil {
		t.Fatal(err)
	}
	run := analyze.RunOf(name, rep)
	if err := export.WriteDiffJSON(&diff, analyze.Diff(run, run)); err != nil {
		t.Fatal(err)
	}
	return expected{json: js.String(), noRows: withoutRows(t, js.Bytes()), total: total.String(), diff: diff.String()}
}

// workerVersion is the version the worker's /healthz names.
func workerVersion(t *testing.T, base string) string {
	res, err := (&http.Client{Timeout: 60 * time.Second}).Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var h struct{ Version string }
	if err := json.NewDecoder(res.Body).Decode(&h); err != nil || h.Version == "" {
		t.Fatalf("/healthz: %v, version %q", err, h.Version)
	}
	return h.Version
}

// withoutRows is report.json as the worker sends it by default: the
// per-tensor lists emptied, everything else as it was.
func withoutRows(t *testing.T, report []byte) string {
	var m map[string]any
	if err := json.Unmarshal(report, &m); err != nil {
		t.Fatal(err)
	}
	graphs, _ := m["graphs"].([]any)
	for _, g := range graphs {
		for _, k := range []string{"rows", "reassign", "atomic_pieces"} {
			g.(map[string]any)[k] = []any{}
		}
		delete(g.(map[string]any), "live") // one point a step: row-sized too
	}
	// Variables and pools are lists when there are none, address checks
	// null.
	for _, k := range []string{"variables", "pools", "address_checks"} {
		list, _ := m[k].([]any)
		for _, v := range list {
			v.(map[string]any)["rows"] = []any{}
		}
	}
	if m["variables"] == nil {
		m["variables"] = []any{}
	}
	if m["pools"] == nil {
		m["pools"] = []any{}
	}
	m["extra"] = map[string]any{"rows_omitted": true}
	return canonical(t, m)
}

// canonical is v as JSON with sorted keys, for comparing documents.
func canonical(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// multipartBody sends data as one file part per field.
func multipartBody(name string, data []byte, fields ...string) func() (io.Reader, string) {
	return func() (io.Reader, string) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		for _, f := range fields {
			fw, _ := mw.CreateFormFile(f, name)
			fw.Write(data)
		}
		mw.Close()
		return &b, mw.FormDataContentType()
	}
}

func rawBody(data []byte) func() (io.Reader, string) {
	return func() (io.Reader, string) { return bytes.NewReader(data), "application/octet-stream" }
}

// buildWorker does what "make worker" does, into a temporary directory.
func buildWorker(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	start := time.Now()
	for _, args := range [][]string{
		{"run", "github.com/syumai/workers/cmd/workers-assets-gen", "-mode=go", "-o", filepath.Join(dir, "build")},
		{"build", "-o", filepath.Join(dir, "build", "app.wasm"), "."},
	} {
		cmd := exec.Command("go", args...) // go test puts its own go first on PATH
		cmd.Env = os.Environ()
		if args[0] == "build" {
			cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	cfg, err := os.ReadFile("config.capnp")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.capnp"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("worker built in %s", time.Since(start).Round(time.Millisecond))
	return dir
}

// startWorkerd serves config on a loopback socket opened here and handed to
// workerd (--socket-fd): no port race, and requests sent before workerd is
// ready wait in the socket's backlog instead of failing.
func startWorkerd(t *testing.T, workerd, config string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var logs bytes.Buffer
	cmd := exec.Command(workerd, "serve", config, "--socket-fd", "http=3")
	cmd.ExtraFiles = []*os.File{f} // fd 3 in the child
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("workerd output:\n%s", logs.String())
		}
	})
	return "http://" + addr
}

// firstDiff shows where two long texts part.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-80)
	return "at byte " + strconv.Itoa(i) + ":\n got: " + excerpt(got, from, i) + "\nwant: " + excerpt(want, from, i)
}

func excerpt(s string, from, at int) string {
	return s[from:min(len(s), at+80)]
}
