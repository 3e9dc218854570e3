package core_test

import (
	"strconv"
	"testing"

	"imas/internal/gen"
)

// The generator's memory errors (each form, 50 ms apart) come out one for
// one: size, device, code and the number of lines of each.
func TestGeneratedMemoryErrors(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		p, err := gen.ProfileByName("hostile", seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		tr, err := gen.Generate(p, dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.MemErrors) == 0 {
			t.Fatal("the hostile profile writes no memory errors")
		}
		rep := analyzeDir(t, dir)
		if len(rep.MemoryErrors) != len(tr.MemErrors) {
			t.Fatalf("seed %d: %d memory errors, want %d", seed, len(rep.MemoryErrors), len(tr.MemErrors))
		}
		for i, w := range tr.MemErrors {
			e := rep.MemoryErrors[i]
			if e.PID != strconv.Itoa(w.PID) || e.Size != w.Size || e.Device != int64(w.Device) || e.Code != w.Code || len(e.Statements) != w.Statements {
				t.Errorf("seed %d error %d: pid %s size %d device %d code %q statements %d; want %+v",
					seed, i, e.PID, e.Size, e.Device, e.Code, len(e.Statements), w)
			}
		}
	}
}
