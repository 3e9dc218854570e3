package core_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"imas/internal/gen"
)

// TestGeneratedMatchTruth analyses logs that internal/gen writes for every
// profile and several seeds — logs the parser was never tuned on — and
// compares every figure with the generator's own ground truth.
func TestGeneratedMatchTruth(t *testing.T) {
	seeds := []int64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, name := range []string{"basic", "mixed", "conflicts", "pool", "hostile"} {
		for _, seed := range seeds {
			t.Run(name+"/"+strconv.FormatInt(seed, 10), func(t *testing.T) {
				p, err := gen.ProfileByName(name, seed, 0)
				if err != nil {
					t.Fatal(err)
				}
				dir := t.TempDir()
				tr, err := gen.Generate(p, dir)
				if err != nil {
					t.Fatal(err)
				}
				f, err := os.Create(filepath.Join(dir, "truth.json"))
				if err != nil {
					t.Fatal(err)
				}
				if err := tr.WriteJSON(f); err != nil {
					t.Fatal(err)
				}
				f.Close()
				rep := analyzeDir(t, dir)
				checkAccounting(t, rep)
				checkGraphTruth(t, dir, rep)
				if name != "hostile" { // hostile lines are rejected on purpose
					checkRuntimeTruth(t, dir, rep)
				}
			})
		}
	}
}
