package gen

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestManyLoadedGraphsFinish generates more loaded graphs than the device
// address range has distinct 16 MiB slots (each graph's feature map takes
// one): the base draw must move on instead of redrawing forever. The
// harness bounds the run so a loop fails the test instead of hanging it.
func TestManyLoadedGraphsFinish(t *testing.T) {
	p, err := ProfileByName("smallgraphs", 0, 40<<20)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	type result struct {
		tr  *Truth
		err error
	}
	done := make(chan result, 1)
	go func() {
		var w countWriter
		tr, err := GenerateStream(p, &w, "small.log")
		done <- result{tr, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		t.Fatal("generation did not finish: the device base draw loops")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.tr.Regions) <= baseSlots {
		t.Fatalf("%d loaded graphs: not more than the %d base slots, the test proves nothing", len(r.tr.Regions), baseSlots)
	}
	seen := map[string]bool{}
	for _, rg := range r.tr.Regions {
		k := fmt.Sprintf("%d/%s", rg.PID, rg.Base)
		if seen[k] {
			t.Fatalf("two feature maps at %s", k)
		}
		seen[k] = true
	}
}

// TestSizedProfilesMatchTruth reads small instances of the benchmark
// mixes back and compares them with their truth, and checks that each
// mix has the shape its name promises.
func TestSizedProfilesMatchTruth(t *testing.T) {
	const size = 3 << 20
	for _, name := range Profiles() {
		if !Sized(name) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			checkReparseSized(t, name, 0, size)
			p, err := ProfileByName(name, 0, size)
			if err != nil {
				t.Fatal(err)
			}
			var w countWriter
			tr, err := GenerateStream(p, &w, name+".log")
			if err != nil {
				t.Fatal(err)
			}
			// Every process writes at least one graph, so a target below
			// that is overshot; above it the output stops near the target.
			if name != "hugegraph" && w.n < size {
				t.Errorf("%d bytes for a %d target", w.n, size)
			}
			switch name {
			case "poolheavy":
				if len(tr.Pools) != 12 || len(tr.Graphs) < 6 {
					t.Errorf("%d allocators, %d graphs", len(tr.Pools), len(tr.Graphs))
				}
				for _, pl := range tr.Pools {
					if pl.Allocs < 100 {
						t.Errorf("allocator %d/%s: only %d allocations", pl.PID, pl.Allocator, pl.Allocs)
					}
				}
			case "ranks":
				if len(tr.Generations) != 16 {
					t.Errorf("%d processes", len(tr.Generations))
				}
			case "smallgraphs":
				if len(tr.Graphs) < 50 {
					t.Errorf("%d graphs", len(tr.Graphs))
				}
			case "allkinds":
				if len(tr.Generations) != 8 || len(tr.Pools) < 4 {
					t.Errorf("%d processes, %d allocators", len(tr.Generations), len(tr.Pools))
				}
			case "hugegraph":
				ids := map[string]bool{}
				for _, g := range tr.Graphs {
					ids[g.Graph] = true
				}
				if len(ids) != 1 || tr.Graphs[0].Tensors < size/hugeGraphBytesPerTensor/2 {
					t.Errorf("graphs %v, %d tensors", ids, tr.Graphs[0].Tensors)
				}
			}
		})
	}
}
