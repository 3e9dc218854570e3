package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestReportTraceFlags: -trace-format proto writes the .pftrace instead of
// the JSON trace, -rows=false a smaller report.json, and bad values are
// usage errors.
func TestReportTraceFlags(t *testing.T) {
	full, slim := t.TempDir(), t.TempDir()
	if code, _, errs := imas(t, "report", "-o", full, samples+"mixed"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, _, errs := imas(t, "report", "-o", slim, "-trace-format", "proto", "-trace-graphs", "1", "-rows=false", samples+"mixed"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(slim, "imas_graph_perfetto.json")); err == nil {
		t.Error("JSON trace written with -trace-format proto")
	}
	pb, err := os.ReadFile(filepath.Join(slim, "imas_graph_perfetto.pftrace"))
	if err != nil || len(pb) == 0 || pb[0] != 1<<3|2 {
		t.Errorf("pftrace: %v, %d bytes", err, len(pb))
	}
	a, _ := os.ReadFile(filepath.Join(full, "report.json"))
	b, _ := os.ReadFile(filepath.Join(slim, "report.json"))
	if len(b) == 0 || len(b) >= len(a) || !bytes.Contains(b, []byte(`"rows_omitted": true`)) {
		t.Errorf("report.json without rows: %d bytes (with rows %d)", len(b), len(a))
	}
	for _, bad := range [][]string{{"-trace-format", "xml"}, {"-trace-graphs", "0"}, {"-trace-graphs", "some"}} {
		args := append([]string{"report", "-o", t.TempDir()}, bad...)
		if code, _, _ := imas(t, append(args, samples+"basic")...); code != exitUsage {
			t.Errorf("%v: exit %d, want usage", bad, code)
		}
	}
}
