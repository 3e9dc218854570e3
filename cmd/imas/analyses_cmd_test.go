package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const samples = "../../testdata/samples/"

// imas runs the CLI and returns its exit code and output.
func imas(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := run(context.Background(), args, &out, &errs)
	return code, out.String(), errs.String()
}

func TestAnalysesCommands(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := imas(t, "report", "-o", dir, samples+"basic"); code != exitOK {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	saved := filepath.Join(dir, "report.json")
	// A report saved under another name is still recognised by its content.
	renamed := filepath.Join(dir, "run1.txt")
	if b, err := os.ReadFile(saved); err != nil || os.WriteFile(renamed, b, 0o644) != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		out  []string // substrings of stdout
	}{
		{[]string{"check", samples + "conflicts"}, exitFinding, []string{"check: 10 reuse conflicts in 4 of 4 graphs", "matmul_6:output:0 × transpose_4:output:0"}},
		{[]string{"check", samples + "basic"}, exitOK, []string{"check: no reuse conflicts in 3 graphs"}},
		// total runs only the summary analyses, which include the conflicts.
		{[]string{"total", samples + "conflicts"}, exitOK, []string{"reuse conflicts: ", "matmul_6:output:0 × transpose_4:output:0"}},
		{[]string{"check"}, exitUsage, nil},
		{[]string{"peak", samples + "basic"}, exitOK, []string{"## pid 1311101 kernel_graph2_3 memtype 2", "| 7 | add_29 | output_0 |"}},
		{[]string{"peak", "-n", "25", samples + "mixed"}, exitOK, []string{"| 11 |"}},
		{[]string{"peak", "-n", "0", samples + "basic"}, exitUsage, nil},
		{[]string{"diff", saved, samples + "basic"}, exitOK, []string{"matched by name)\n  no change"}},
		{[]string{"diff", renamed, saved}, exitOK, []string{"old: " + renamed}},
		{[]string{"diff", saved}, exitUsage, nil},
		{[]string{"diff", saved, saved, saved}, exitUsage, nil},
		{[]string{"diff", samples + "basic", filepath.Join(dir, "missing")}, exitNoInput, nil},
		{[]string{"compare", samples + "mixed", saved, samples + "conflicts"}, exitOK, []string{"| 1 |", "| 3 |", "best: " + saved}},
	}
	for _, tt := range tests {
		code, out, errs := imas(t, tt.args...)
		if code != tt.code {
			t.Errorf("imas %s: exit %d, want %d\n%s", strings.Join(tt.args, " "), code, tt.code, errs)
		}
		for _, s := range tt.out {
			if !strings.Contains(out, s) {
				t.Errorf("imas %s: output lacks %q:\n%s", strings.Join(tt.args, " "), s, out)
			}
		}
	}
}

func TestDiffJSON(t *testing.T) {
	code, out, errs := imas(t, "diff", "-json", samples+"basic", samples+"conflicts")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var d struct {
		Graphs  []json.RawMessage        `json:"graphs"`
		OnlyOld []struct{ Graph string } `json:"only_old"`
		OnlyNew []struct{ Graph string } `json:"only_new"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	// kernel_graph<i>_<id> and conflict_graph_<i> share no base name.
	if len(d.Graphs) != 0 || len(d.OnlyOld) != 3 || len(d.OnlyNew) != 4 {
		t.Errorf("matched %d, only old %d, only new %d", len(d.Graphs), len(d.OnlyOld), len(d.OnlyNew))
	}
}
