package export_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"imas/core"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
)

// goldenRT compares got with testdata/golden/runtime/<name> (-update
// rewrites it).
func goldenRT(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", "runtime", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./core/export -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file (run go test ./core/export -update after checking the diff)\n%s", name, firstDiff(got, want))
	}
}

// variants analyses testdata/golden/runtime/input: one process whose debug
// and run plogs hold every load- and run-time record kind.
func variants(t *testing.T) *model.Report {
	t.Helper()
	root := filepath.Join("..", "..", "testdata", "golden", "runtime", "input")
	var srcs []input.Source
	for _, rel := range []string{"debug/plog-3000_20260812100000000.log", "run/plog-3000_20260812100100000.log"} {
		src := input.FileSource(filepath.Join(root, rel))
		src.Name = "/log/" + rel // stable, and "/run/" marks the run plog
		srcs = append(srcs, src)
	}
	rep, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep.Tool = "imas test"
	return rep
}

func write(t *testing.T, f func(io.Writer, *model.Report) error, rep *model.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRuntimeCSVGolden(t *testing.T) {
	v := variants(t)
	for _, c := range []struct {
		name string
		rep  *model.Report
		f    func(io.Writer, *model.Report) error
	}{
		{"variants_imas_mem_pool.csv", v, export.WritePoolCSV},
		{"variants_imas_mem_variable.csv", v, export.WriteVarCSV},
		{"variants_imas_mem_addr.csv", v, export.WriteAddrCSV},
		{"variants_total.txt", v, export.WriteTotal},
		{"variants_report.json", v, export.WriteJSON},
		{"pool_imas_mem_pool.csv", sample(t, "pool"), export.WritePoolCSV},
		{"pool_total.txt", sample(t, "pool"), export.WriteTotal},
		{"mixed_imas_mem_variable.csv", sample(t, "mixed"), export.WriteVarCSV},
		{"mixed_imas_mem_addr.csv", sample(t, "mixed"), export.WriteAddrCSV},
		{"conflicts_imas_mem_addr.csv", sample(t, "conflicts"), export.WriteAddrCSV},
	} {
		t.Run(c.name, func(t *testing.T) { goldenRT(t, c.name, write(t, c.f, c.rep)) })
	}
}

// The report directory lists every runtime CSV, in docs/figures.md's order.
func TestRuntimeOutputsListed(t *testing.T) {
	var names []string
	for _, o := range export.Outputs() {
		names = append(names, o.Name)
	}
	want := []string{"imas_mem_graph.csv", "imas_mem_pool.csv", "imas_mem_variable.csv", "imas_mem_addr.csv"}
	for i, n := range want {
		if i >= len(names) || names[i] != n {
			t.Fatalf("outputs %v, want them to start with %v", names, want)
		}
	}
}

func TestAllocatorID(t *testing.T) {
	for in, want := range map[string]string{"allocator_2": "ge_2", "rts_allocator_1": "rts_1", "ffts_allocator_3": "ffts_3", "unknown": "unknown"} {
		if got := export.AllocatorID(in); got != want {
			t.Errorf("AllocatorID(%q) = %q, want %q", in, got, want)
		}
	}
}
