package reportjson_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"imas/core"
	"imas/core/analyze"
	"imas/core/export"
	"imas/core/input"
	"imas/core/reportjson"
)

// TestLoadMatchesRunOf saves each sample's report and reads it back: the
// run must equal the one taken from the report in memory.
func TestLoadMatchesRunOf(t *testing.T) {
	dirs, _ := filepath.Glob("../../testdata/samples/*/truth.json")
	for _, tj := range dirs {
		dir := filepath.Dir(tj)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
			var srcs []input.Source
			for _, f := range files {
				srcs = append(srcs, input.FileSource(f))
			}
			rep, err := core.Analyze(context.Background(), srcs, core.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := export.WriteJSON(&buf, rep); err != nil {
				t.Fatal(err)
			}
			got, err := reportjson.Load("run", buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			want := analyze.RunOf("run", rep)
			if !reflect.DeepEqual(got, want) {
				for i := range want.Graphs {
					if i < len(got.Graphs) && !reflect.DeepEqual(got.Graphs[i], want.Graphs[i]) {
						t.Fatalf("graph %d:\n got  %+v\n want %+v", i, *got.Graphs[i], *want.Graphs[i])
					}
				}
				t.Fatalf("got %d graphs, want %d", len(got.Graphs), len(want.Graphs))
			}
		})
	}
}

func TestIsReport(t *testing.T) {
	for _, tt := range []struct {
		data string
		want bool
	}{
		{`{"schema": "imas.report/v1", "graphs": []}`, true},
		{"\xef\xbb\xbf \n {\"schema\":\"imas.report/v1\"}", true},
		{`{"schema": "imas.report/v2"}`, false},
		{`{"graphs": []}`, false},
		{`[INFO] GE(1,python3):2026-08-12-10:21:33.412.907 [a.cc:1]1 F:{"schema":"imas.report/v1"}`, false},
		{"", false},
	} {
		if got := reportjson.IsReport([]byte(tt.data)); got != tt.want {
			t.Errorf("IsReport(%q) = %v, want %v", tt.data, got, tt.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := reportjson.Load("x", []byte(`{"schema": "imas.report/v1", "graphs": [`)); err == nil {
		t.Error("truncated JSON: no error")
	}
	if _, err := reportjson.Load("x", []byte(`{"schema": "other"}`)); !errors.Is(err, reportjson.ErrNotReport) {
		t.Errorf("other schema: %v", err)
	}
	run, err := reportjson.Load("x", []byte(`{"schema": "imas.report/v1", "graphs": [{"pid": "7", "graph": "g_0", "memtype": 2, "after_reuse": 1024,
		"logged": {"mop": "MemoryPriority"}, "conflicts": [{}, {}],
		"rows": [{"node": "a", "kind": "output", "index": 1, "size": 1024, "realsize": 1000, "counted": true}, {"node": "b", "counted": false}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	g := run.Graphs[0]
	want := []analyze.RunTensor{{Key: "a:output:1", Size: 1024, RealSize: 1000}}
	if g.PID != "7" || g.Figures.AfterReuse != 1024 || g.Policy != "MemoryPriority" || g.Conflicts != 2 || !reflect.DeepEqual(g.Tensors, want) {
		t.Errorf("graph %+v", *g)
	}
}
