package core_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"imas/core"
	"imas/core/input"
	"imas/core/model"
)

// truth is the subset of testdata/samples/*/truth.json checked here.
type truth struct {
	Graphs []struct {
		PID             int64       `json:"pid"`
		Graph           string      `json:"graph"`
		MemType         int64       `json:"memtype"`
		MemorySize      int64       `json:"memory_size"`
		AfterReuse      int64       `json:"after_reuse"`
		Total           int64       `json:"total"`
		GETotal         int64       `json:"ge_total"`
		NoReuse         int64       `json:"no_reuse"`
		Atomic          int64       `json:"atomic"`
		TheoryMin       int64       `json:"theory_min"`
		ZeroCopy        int64       `json:"zero_copy"`
		Streams         int64       `json:"streams"`
		Tensors         int64       `json:"tensors"`
		ReuseRate       float64     `json:"reuse_rate"`
		ReachTheoryRate float64     `json:"reach_theory_rate"`
		Topo            string      `json:"topo"`
		TensorKeys      []string    `json:"tensor_keys"`
		Truncated       int64       `json:"truncated_rows"`
		Conflicts       [][2]string `json:"conflicts"`
	} `json:"graphs"`
}

func analyzeDir(t *testing.T, dir string) *model.Report {
	t.Helper()
	srcs, diags := input.FromPaths([]string{dir})
	if len(diags) > 0 {
		t.Fatalf("inputs: %v", diags)
	}
	var logs []input.Source
	for _, s := range srcs {
		if strings.HasSuffix(s.Name, ".json") {
			continue
		}
		logs = append(logs, s)
	}
	rep, err := core.Analyze(context.Background(), logs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestSamplesMatchTruth(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/samples/*")
	gen, _ := filepath.Glob("../testdata/gen/*")
	dirs = append(dirs, gen...)
	if len(dirs) < 5 {
		t.Fatal("no samples")
	}
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			checkGraphTruth(t, dir, analyzeDir(t, dir))
		})
	}
}

// checkGraphTruth compares every graph of rep with dir/truth.json.
func checkGraphTruth(t *testing.T, dir string, rep *model.Report) {
	t.Helper()
	var tr truth
	b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatal(err)
	}
	got := map[string]*model.Graph{}
	for _, g := range rep.Graphs {
		got[fmt.Sprintf("%s/%s/%d", g.PID, g.Graph, g.MemType)] = g
	}
	if len(rep.Graphs) != len(tr.Graphs) {
		t.Errorf("graphs: got %d, want %d", len(rep.Graphs), len(tr.Graphs))
	}
	for _, w := range tr.Graphs {
		key := fmt.Sprintf("%d/%s/%d", w.PID, w.Graph, w.MemType)
		g := got[key]
		if g == nil {
			t.Errorf("%s: missing", key)
			continue
		}
		f := g.Figures
		check := func(name string, got, want any) {
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %s: got %v, want %v", key, name, got, want)
			}
		}
		check("memory_size", f.MemorySize, w.MemorySize)
		check("after_reuse", f.AfterReuse, w.AfterReuse)
		check("total", f.Total, w.Total)
		check("ge_total", f.GETotal, w.GETotal)
		check("no_reuse", f.NoReuse, w.NoReuse)
		check("atomic", f.Atomic, w.Atomic)
		check("theory_min", f.TheoryMin, w.TheoryMin)
		check("zero_copy", f.ZeroCopy, w.ZeroCopy)
		check("streams", f.Streams, w.Streams)
		check("tensors", f.Tensors, w.Tensors)
		check("reuse_rate", f.ReuseRate, w.ReuseRate)
		check("reach_theory_rate", f.ReachTheoryRate, w.ReachTheoryRate)
		check("topo", f.Topo, w.Topo)
		check("truncated_rows", g.Truncated, w.Truncated)
		var keys []string
		for _, r := range g.Rows {
			if r.Counted {
				keys = append(keys, r.Key())
			}
		}
		sort.Strings(keys)
		sort.Strings(w.TensorKeys)
		if len(w.TensorKeys) > 0 || w.MemType == 2 {
			check("tensor_keys", keys, w.TensorKeys)
		}
	}
}
