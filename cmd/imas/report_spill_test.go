package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReportRemovesSpill: "imas report" keeps finished graphs' rows in a
// directory under $TMPDIR, and removes it however the run ends: written,
// failing to write its outputs, or interrupted.
func TestReportRemovesSpill(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		out  string
		ok   bool
	}{
		{"written", context.Background(), "", true},
		{"output is a file", context.Background(), notDir, false},
		{"interrupted", cancelled, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			out := tc.out
			if out == "" {
				out = filepath.Join(t.TempDir(), "r")
			}
			var stdout, stderr bytes.Buffer
			code := run(tc.ctx, []string{"report", "-o", out, samples + "mixed"}, &stdout, &stderr)
			if (code == exitOK) != tc.ok {
				t.Fatalf("exit %d (want success %v): %s", code, tc.ok, stderr.String())
			}
			left, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range left {
				t.Errorf("left in $TMPDIR: %s", e.Name())
			}
		})
	}
}
