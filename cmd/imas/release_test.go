package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestReleaseBinary checks a release build ("make test-dist" sets
// IMAS_DIST_BINARY to the linux/amd64 binary of the archive and
// IMAS_DIST_COMMIT to the commit it was built from): "imas version" names
// the commit, and "imas serve" serves the page built into it.
func TestReleaseBinary(t *testing.T) {
	bin := os.Getenv("IMAS_DIST_BINARY")
	if bin == "" {
		t.Skip("IMAS_DIST_BINARY is not set: run make test-dist")
	}
	commit := os.Getenv("IMAS_DIST_COMMIT")
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("imas version: %v\n%s", err, out)
	}
	for _, want := range []string{"imas ", "commit " + commit + "\n", "built 20", "go1."} {
		if !strings.Contains(string(out), want) {
			t.Errorf("imas version lacks %q:\n%s", want, out)
		}
	}
	if commit == "" || strings.Contains(string(out), "commit unknown") {
		t.Errorf("the release binary does not know its commit:\n%s", out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "-addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`serving on (http://\S+/)`)
	var base string
	for base == "" && sc.Scan() {
		if strings.Contains(sc.Text(), "not built") {
			t.Errorf("the release binary has no page: %s", sc.Text())
		}
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		t.Fatal("imas serve did not say where it listens")
	}
	go io.Copy(io.Discard, stderr)
	for path, want := range map[string]string{"": "<html", "imas.html": "<html", "healthz": `"commit":"` + commit + `"`} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(strings.ToLower(string(body)), strings.ToLower(want)) {
			t.Errorf("GET /%s: %d, %d bytes, want %q", path, resp.StatusCode, len(body), want)
		}
	}
}

// TestVersion: "imas version" of any build names the version, the commit
// (or "unknown"), the build date and the Go version.
func TestVersion(t *testing.T) {
	out := cli(t, 0, "version")
	re := regexp.MustCompile(`^imas \S+\ncommit \S+\nbuilt \S+\ngo\S+ \w+/\w+\n$`)
	if !re.MatchString(out) {
		t.Errorf("imas version printed %q", out)
	}
}
