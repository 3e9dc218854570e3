package core_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"imas/core/model"
)

// TestSampleConflicts checks that the conflicts of every sample graph are
// exactly the injected ones listed in truth.json (none outside the
// conflicts sample), and that the waste parts of every graph add up.
func TestSampleConflicts(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/samples/*/truth.json")
	if len(dirs) == 0 {
		t.Fatal("no samples")
	}
	injected := 0
	for _, tj := range dirs {
		dir := filepath.Dir(tj)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var tr struct {
				Graphs []struct {
					PID       json.Number `json:"pid"`
					Graph     string      `json:"graph"`
					MemType   int64       `json:"memtype"`
					Conflicts [][2]string `json:"conflicts"`
				} `json:"graphs"`
			}
			b, err := os.ReadFile(tj)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &tr); err != nil {
				t.Fatal(err)
			}
			want := map[string][][2]string{}
			for _, g := range tr.Graphs {
				want[g.PID.String()+"/"+g.Graph+"/"+strconv.FormatInt(g.MemType, 10)] = g.Conflicts
				injected += len(g.Conflicts)
			}
			rep := analyzeDir(t, dir)
			for _, g := range rep.Graphs {
				key := g.PID + "/" + g.Graph + "/" + strconv.FormatInt(g.MemType, 10)
				var got [][2]string
				for _, c := range g.Conflicts {
					got = append(got, [2]string{c.A, c.B})
				}
				if w := want[key]; !reflect.DeepEqual(got, w) && len(got)+len(w) > 0 {
					t.Errorf("%s conflicts:\n got  %v\n want %v", key, got, w)
				}
				checkWaste(t, key, g)
			}
		})
	}
	if injected == 0 {
		t.Error("no sample has injected conflicts")
	}
}

// checkWaste checks that the waste parts add up to after_reuse − theory_min
// and that the bounded ones are in range.
func checkWaste(t *testing.T, key string, g *model.Graph) {
	t.Helper()
	w := g.Waste
	if w == nil {
		if len(g.Rows) > 0 {
			t.Errorf("%s: no waste", key)
		}
		return
	}
	if w.Gap != g.AfterReuse-g.TheoryMin {
		t.Errorf("%s: gap %d, want %d", key, w.Gap, g.AfterReuse-g.TheoryMin)
	}
	var sum int64
	for _, p := range w.Parts {
		sum += p.Bytes
		bounded := p.Cause == "alignment" || p.Cause == "continuous" || (p.Cause == "fragmentation" && len(g.Conflicts) == 0)
		if bounded && p.Bytes < 0 {
			t.Errorf("%s: %s is %d", key, p.Cause, p.Bytes)
		}
	}
	if sum != w.Gap {
		t.Errorf("%s: parts add up to %d, gap is %d", key, sum, w.Gap)
	}
}
