package core

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"imas/core/input"
	"imas/core/model"
)

// analyzeFiles runs the pipeline on files in the given order and reports
// whether the consumer's in-order build held.
func analyzeFiles(t *testing.T, files []string, opt Options) (*model.Report, bool) {
	t.Helper()
	srcs, diags := input.FromPaths(files)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	rep, inOrder, _ := analyzePlanned(t, srcs, opt)
	return rep, inOrder
}

// analyzePlanned runs the pipeline as Analyze does (plan first) and
// reports whether the in-order build held and whether the merge ran in
// steps while the files were parsed.
func analyzePlanned(t *testing.T, srcs []input.Source, opt Options) (*model.Report, bool, bool) {
	t.Helper()
	p, srcs := planned(context.Background(), srcs, opt)
	p.readAll(srcs)
	rep, err := p.finish()
	if err != nil {
		t.Fatal(err)
	}
	return rep, p.consumer.inOrder, p.consumer.merge != nil
}

// sameReport fails t where the reports' JSON differ, showing the place.
func sameReport(t *testing.T, got, want *model.Report) {
	t.Helper()
	if g, w := reportJSON(t, got), reportJSON(t, want); g != w {
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		lo := max(0, i-300)
		t.Errorf("reports differ at byte %d:\n got …%.500s\nwant …%.500s", i, g[lo:], w[lo:])
	}
}

func reportJSON(t *testing.T, rep *model.Report) string {
	t.Helper()
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestInOrderBuildEqualsMerge checks the consumer's speculation: for files
// in time order it builds while parsing, for files out of order it falls
// back to the merge, and either way the report is the one the merge alone
// gives.
func TestInOrderBuildEqualsMerge(t *testing.T) {
	logs := func(dir string) []string {
		var out []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".log" {
				out = append(out, p)
			}
			return nil
		})
		slices.Sort(out)
		return out
	}
	mixed := logs("../testdata/gen/mixed")
	one := logs("../testdata/gen/mixed")[2:5] // one process, rotated files
	reversed := slices.Clone(one)
	slices.Reverse(reversed)
	cases := []struct {
		name    string
		files   []string
		inOrder bool
	}{
		{"rotated files in order", one, true},
		{"rotated files reversed", reversed, false},
		{"three processes side by side", mixed, false},
		{"run and debug logs", logs("../testdata/gen/hostile"), false},
		{"samples", logs("../testdata/samples"), false},
		{"one file", logs("../testdata/gen/basic"), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, inOrder := analyzeFiles(t, c.files, Options{})
			if inOrder != c.inOrder {
				t.Errorf("in-order build held: %v, want %v", inOrder, c.inOrder)
			}
			want, _ := analyzeFiles(t, c.files, Options{alwaysMerge: true})
			sameReport(t, got, want)
			if len(got.Graphs) == 0 {
				t.Error("no graphs")
			}
		})
	}
}
