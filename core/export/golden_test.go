package export_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"imas/core"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
)

var update = flag.Bool("update", false, "rewrite golden files")

// sample analyses one bundled sample folder (its logs only).
func sample(t testing.TB, name string) *model.Report {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "samples", name, "*.log"))
	if len(files) == 0 {
		t.Fatalf("sample %s not found", name)
	}
	var srcs []input.Source
	for _, f := range files {
		src := input.FileSource(f)
		src.Name = filepath.Base(f) // golden files must not depend on the checkout path
		srcs = append(srcs, src)
	}
	rep, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", "export", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
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

func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y []byte
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if !bytes.Equal(x, y) {
			return "line " + itoa(i+1) + ":\n got: " + string(x) + "\nwant: " + string(y)
		}
	}
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestGraphCSVGolden(t *testing.T) {
	for _, s := range []string{"basic", "mixed"} {
		var buf bytes.Buffer
		if err := export.WriteGraphCSV(&buf, sample(t, s)); err != nil {
			t.Fatal(err)
		}
		golden(t, s+"_imas_mem_graph.csv", buf.Bytes())
	}
}

func TestTotalGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := export.WriteTotal(&buf, sample(t, "mixed")); err != nil {
		t.Fatal(err)
	}
	golden(t, "mixed_total.txt", buf.Bytes())
}

func TestJSONGolden(t *testing.T) {
	rep := sample(t, "basic")
	rep.Tool = "imas test" // independent of the version
	var buf bytes.Buffer
	if err := export.WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	golden(t, "basic_report.json", buf.Bytes())
}
