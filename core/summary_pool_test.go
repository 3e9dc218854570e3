package core

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"imas/core/export"
	"imas/core/input"
	"imas/internal/gen"
)

// TestSummaryStreamsPools: a summary build keeps no per-allocation rows
// (its pools are aggregated while the lines stream), and "imas total"
// prints the same text, byte for byte, as from the full analysis.
func TestSummaryStreamsPools(t *testing.T) {
	dirs := []string{"../testdata/samples/pool", "../testdata/samples/mixed"}
	for _, prof := range []string{"pool", "poolheavy"} {
		p, err := gen.ProfileByName(prof, 0, 2<<20)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := gen.Generate(p, dir); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	for _, dir := range dirs {
		srcs, _ := input.FromPaths([]string{dir})
		full, err := Analyze(context.Background(), srcs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sum, err := Analyze(context.Background(), srcs, Options{Summary: true})
		if err != nil {
			t.Fatal(err)
		}
		rows := 0
		for i, p := range sum.Pools {
			rows += len(full.Pools[i].Rows)
			if len(p.Rows) != 0 || p.Streamed == nil {
				t.Errorf("%s %s: the summary keeps %d rows", dir, p.Allocator, len(p.Rows))
			}
			if a, b := export.PoolSummaryLine(full.Pools[i]), export.PoolSummaryLine(p); a != b {
				t.Errorf("%s: pool line\n%s\nsummary\n%s", dir, a, b)
			}
			// Every figure of the pool, not only those the line prints.
			f, s := *full.Pools[i], *p
			f.Rows, s.Rows, s.Streamed = nil, nil, nil
			if !reflect.DeepEqual(f, s) {
				t.Errorf("%s %s: pool figures\n%+v\nsummary\n%+v", dir, p.Allocator, f, s)
			}
		}
		if rows == 0 && dir != "../testdata/samples/mixed" {
			t.Errorf("%s: no pool allocations: the comparison checked nothing", dir)
		}
		var a, b bytes.Buffer
		export.WriteTotal(&a, full)
		export.WriteTotal(&b, sum)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: imas total differs between the full and the summary analysis", dir)
		}
	}
}
