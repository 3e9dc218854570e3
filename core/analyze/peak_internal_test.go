package analyze

import (
	"cmp"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"imas/core/model"
)

// peakRef is the peak breakdown as the rule reads (docs/analyses.md, "3. Peak breakdown"), with a
// map per question: the reference for peakAt.
func peakRef(g *model.Graph, theory, step int64, top int) *model.Peak {
	if len(g.Rows) == 0 {
		return nil
	}
	p := &model.Peak{Step: step, Theory: theory, Tensors: []model.PeakItem{}}
	tenants := map[int64]int{}
	for i := range g.Rows {
		tenants[g.Rows[i].Offset]++
	}
	var blocks, aliases []model.PeakItem
	live := map[int64]bool{}
	lastRef0 := map[int64]*model.Row{}
	for i := range g.Rows {
		r := &g.Rows[i]
		var root *model.Row
		if r.IsRef == 0 {
			lastRef0[r.Offset] = r
		} else {
			root = lastRef0[r.Offset]
		}
		if r.Child != 0 || r.LifeBegin > step || max(r.LifeEnd, r.LifeBegin) < step {
			continue
		}
		it := model.PeakItem{Key: r.Key(), OpType: r.OpType, Offset: r.Offset, Size: r.Size,
			Life: model.FormatLife(r.LifeBegin, r.LifeEnd), Shared: tenants[r.Offset], Flags: flags(r)}
		if root != nil {
			it.AliasOf = root.Key()
			aliases = append(aliases, it)
		} else if !live[r.Offset] {
			live[r.Offset] = true
			blocks = append(blocks, it)
		}
	}
	byOffset := map[int64][]model.PeakItem{}
	for _, a := range aliases {
		if live[a.Offset] {
			byOffset[a.Offset] = append(byOffset[a.Offset], a)
		} else {
			live[a.Offset] = true
			blocks = append(blocks, a)
		}
	}
	for _, b := range blocks {
		p.Live += b.Size
	}
	p.Blocks = len(blocks)
	slices.SortStableFunc(blocks, func(a, b model.PeakItem) int {
		return cmp.Or(cmp.Compare(b.Size, a.Size), cmp.Compare(a.Offset, b.Offset))
	})
	for i, b := range blocks {
		if i == top {
			break
		}
		p.Tensors = append(p.Tensors, b)
		p.Tensors = append(p.Tensors, byOffset[b.Offset]...)
	}
	return p
}

// TestPeakMatchesReference compares peakAt with peakRef on random graphs
// dense in aliases, child rows, blocks of equal size and rows sharing an
// offset, with steps inside and outside the lifetimes and several tops.
func TestPeakMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	sc := &scratch{}
	for iter := 0; iter < 2000; iter++ {
		g := &model.Graph{}
		for i := range rng.IntN(50) {
			b := int64(rng.IntN(12))
			r := model.Row{Node: "n" + strconv.Itoa(i), Kind: "output", Offset: int64(rng.IntN(10)) * 512,
				Size: int64(1+rng.IntN(3)) * 512, LifeBegin: b, LifeEnd: b + int64(rng.IntN(6)) - 1, Reuse: 1}
			if rng.IntN(4) == 0 {
				r.IsRef = 1
			}
			if rng.IntN(8) == 0 {
				r.Child = 1
			}
			if rng.IntN(10) == 0 {
				r.LifeEnd = model.LifeDefault
			}
			g.Rows = append(g.Rows, r)
		}
		step := int64(rng.IntN(14))
		top := []int{0, 1, 3, PeakTop, -1}[rng.IntN(5)]
		got, want := peakAt(g, 7, step, top, aliasRoots(g.Rows, sc), sc), peakRef(g, 7, step, top)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("iteration %d (step %d, top %d):\n got  %+v\nwant %+v", iter, step, top, got, want)
		}
	}
}
