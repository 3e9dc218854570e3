package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServe runs "imas serve" on a loopback port, uses it, and stops it the
// way SIGINT does (the context main gives run).
func TestServe(t *testing.T) {
	log, err := os.ReadFile("../../testdata/samples/basic/plog-1311101_20261202080000000.log")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- runServe(ctx, []string{"-addr", "127.0.0.1:0", "-max-body", "1MiB"}, io.Discard, pw)
		pw.Close()
	}()
	// The first log line names the address; the rest is kept for below.
	var mu sync.Mutex
	var logs strings.Builder
	addr := make(chan string, 1)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		re := regexp.MustCompile(`serving on (http://\S+/)`)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
			mu.Lock()
			logs.WriteString(sc.Text() + "\n")
			mu.Unlock()
		}
	}()
	var base string
	select {
	case base = <-addr:
	case c := <-code:
		t.Fatalf("serve exited with %d", c)
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for _, tc := range []struct {
		method, path string
		body         []byte
		status       int
	}{
		{"GET", "healthz", nil, 200},
		{"POST", "api/report", log, 200},
		{"POST", "api/total", bytes.Repeat(log, 7), 413}, // over -max-body
	} {
		req, _ := http.NewRequest(tc.method, base+tc.path, bytes.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/octet-stream")
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.method, tc.path, err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, res.StatusCode, tc.status)
		}
	}
	cancel()
	if c := <-code; c != exitOK {
		t.Errorf("exit code %d after shutdown", c)
	}
	<-drained
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"GET /healthz 200 ", "POST /api/report 200 ", "POST /api/total 413 ", "shutting down"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-max-body", "lots"},
		{"-public", t.TempDir()}, // no index.html
		{"extra"},
		{"-nosuchflag"},
	} {
		var stderr bytes.Buffer
		if c := runServe(context.Background(), args, io.Discard, &stderr); c != exitUsage {
			t.Errorf("serve %q: exit %d, want %d; %s", args, c, exitUsage, stderr.String())
		}
	}
}

func TestPositiveSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"1048576", 1 << 20},
		{"256MiB", 256 << 20},
		{"256M", 256 << 20},
		{"100MB", 100_000_000},
		{"1g", 1 << 30},
		{"2 GiB", 2 << 30},
		{"10KB", 10_000},
		{"512b", 512},
		{"", -1},
		{"0", -1},
		{"-5", -1},
		{"1.5G", 3 << 29},
		{"9999999999G", -1},
		{"MiB", -1},
	} {
		got, err := positiveSize(tc.in)
		if tc.want < 0 {
			if err == nil {
				t.Errorf("positiveSize(%q) = %d, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("positiveSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}
