package core_test

import (
	"strconv"
	"testing"

	"imas/core/model"
	"imas/internal/gen"
)

// The generator's memory errors (each form, 50 ms apart) come out one for
// one: size, device, code and the number of lines of each.
func TestGeneratedMemoryErrors(t *testing.T) {
	var profiles []gen.Profile
	for _, seed := range []int64{1, 2, 3} {
		p, err := gen.ProfileByName("hostile", seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		profiles = append(profiles, p)
		// Every form twice, a process of each generation.
		profiles = append(profiles, gen.Profile{Name: "memerr", Seed: seed, Processes: []gen.ProcessSpec{
			{PID: 7100, Generation: gen.Gen2025, Graphs: 1, Ops: 6, Streams: 1, MemErrors: 8},
			{PID: 7200, Generation: gen.Gen2021, Graphs: 1, Ops: 6, Streams: 1, MemErrors: 4},
		}})
	}
	for _, p := range profiles {
		seed := p.Seed
		dir := t.TempDir()
		tr, err := gen.Generate(p, dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.MemErrors) == 0 {
			t.Fatalf("the %s profile writes no memory errors", p.Name)
		}
		rep := analyzeDir(t, dir)
		if len(rep.MemoryErrors) != len(tr.MemErrors) {
			t.Fatalf("%s seed %d: %d memory errors, want %d", p.Name, seed, len(rep.MemoryErrors), len(tr.MemErrors))
		}
		// Each process's errors in the order written; the report merges
		// the processes by time.
		got := map[int][]*model.MemoryError{}
		for _, e := range rep.MemoryErrors {
			pid, _ := strconv.Atoi(e.PID)
			got[pid] = append(got[pid], e)
		}
		seen := map[int]int{}
		for _, w := range tr.MemErrors {
			i := seen[w.PID]
			seen[w.PID]++
			if i >= len(got[w.PID]) {
				t.Errorf("%s seed %d: pid %d: error %d missing", p.Name, seed, w.PID, i)
				continue
			}
			e := got[w.PID][i]
			if e.Size != w.Size || e.Device != int64(w.Device) || e.Code != w.Code || len(e.Statements) != w.Statements {
				t.Errorf("%s seed %d pid %d error %d: size %d device %d code %q statements %d; want %+v",
					p.Name, seed, w.PID, i, e.Size, e.Device, e.Code, len(e.Statements), w)
			}
		}
	}
}
