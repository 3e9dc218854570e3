package analyze

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"imas/core/model"
)

// mapRegionsByScan is MapRegions the direct way, every region against
// every graph of its process: the reference the indexed one must match.
func mapRegionsByScan(rep *model.Report) {
	byPID := map[string][]*model.Graph{}
	for _, g := range rep.Graphs {
		byPID[g.PID] = append(byPID[g.PID], g)
	}
	taken := map[*model.Graph]bool{}
	for i := range rep.Regions {
		r := &rep.Regions[i]
		r.Graph = ""
		if r.GraphID < 0 || r.Type != "F" {
			continue
		}
		mt := staticMemType(r)
		var named, fitting []*model.Graph
		var hinted *model.Graph
		suffix := "_" + strconv.FormatInt(r.GraphID, 10)
		for _, g := range byPID[r.PID] {
			if g.MemType != mt {
				continue
			}
			fit := fits(g, r.Size)
			if strings.HasSuffix(baseName(g.Graph), suffix) {
				named = append(named, g)
			}
			if fit && !taken[g] {
				fitting = append(fitting, g)
			}
			if g.Graph == r.Hint && fit {
				hinted = g
			}
		}
		var pick *model.Graph
		for _, g := range named {
			if fits(g, r.Size) {
				pick = g
			}
		}
		switch {
		case pick != nil:
		case hinted != nil:
			pick = hinted
		case len(fitting) == 1:
			pick = fitting[0]
		case len(named) == 1:
			pick = named[0]
		default:
			continue
		}
		taken[pick] = true
		r.Graph = pick.Graph
	}
}

// TestMapRegionsIndexed: on random runs where names, ids and sizes
// collide often, the indexed MapRegions maps every region as the scan of
// every graph does.
func TestMapRegionsIndexed(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 23))
	names := []string{"g", "g_1", "g_2", "net_12", "net_112", "a_b_3", "_3", "12", "x#2", "g_1#2", "ge_default_1"}
	sizes := []int64{512, 1024, 1536, 2048}
	mapped := 0
	for run := 0; run < 2000; run++ {
		rep := &model.Report{}
		for i := rng.IntN(12); i > 0; i-- {
			g := &model.Graph{PID: strconv.Itoa(1 + rng.IntN(2)), Graph: names[rng.IntN(len(names))], MemType: []int64{2, 16}[rng.IntN(2)]}
			g.MemorySize = sizes[rng.IntN(len(sizes))]
			if rng.IntN(3) == 0 {
				g.ZeroCopy = 512
			}
			if rng.IntN(4) == 0 {
				g.AppendWs = &model.AppendWsTotal{LastSize: sizes[rng.IntN(len(sizes))]}
			}
			rep.Graphs = append(rep.Graphs, g)
		}
		for i := rng.IntN(10); i > 0; i-- {
			r := model.Region{PID: strconv.Itoa(1 + rng.IntN(2)), GraphID: int64(rng.IntN(14)) - 1, Type: []string{"F", "F", "F", "W"}[rng.IntN(4)],
				Size: sizes[rng.IntN(len(sizes))] - int64(rng.IntN(2))*512, MemType: []int64{0, 16}[rng.IntN(2)]}
			if rng.IntN(2) == 0 {
				r.Hint = names[rng.IntN(len(names))]
			}
			rep.Regions = append(rep.Regions, r)
		}
		want := &model.Report{Graphs: rep.Graphs, Regions: append([]model.Region(nil), rep.Regions...)}
		mapRegionsByScan(want)
		MapRegions(rep)
		for i := range rep.Regions {
			if got, w := rep.Regions[i].Graph, want.Regions[i].Graph; got != w {
				t.Fatalf("run %d, region %d %+v: mapped to %q, the scan maps it to %q", run, i, rep.Regions[i], got, w)
			}
			if rep.Regions[i].Graph != "" {
				mapped++
			}
		}
	}
	if mapped < 1000 {
		t.Errorf("only %d regions mapped: the runs test little", mapped)
	}
}
