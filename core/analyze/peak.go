package analyze

import (
	"cmp"
	"slices"
	"strconv"

	"imas/core/model"
)

// PeakTop is how many blocks the report keeps per graph.
const PeakTop = 20

// Peak returns what is live at theory_min's peak step, the way experts
// build their "Top 10" tables (imas-legacy §5.1): main blocks only
// (child = 0); one item per block offset, the first live row printed there
// (Shared counts every row printed at that offset in the graph); largest
// first; each live isref[1] row right after its block, naming the row it
// aliases (AliasOf), or as a block of its own when no isref[0] row of its
// block is live. Live is Σ size of the live blocks; top keeps the largest.
func Peak(g *model.Graph, top int) *model.Peak {
	theory, step := PeakStep(g.Rows)
	return peakAt(g, theory, step, top)
}

// peakAt is Peak with theory_min's peak already known.
func peakAt(g *model.Graph, theory, step int64, top int) *model.Peak {
	if len(g.Rows) == 0 {
		return nil
	}
	p := &model.Peak{Step: step, Theory: theory, Tensors: []model.PeakItem{}}
	tenants := map[int64]int{}
	for i := range g.Rows {
		tenants[g.Rows[i].Offset]++
	}
	var blocks, aliases []model.PeakItem
	live := map[int64]bool{} // offsets of listed blocks
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
			Life: LifeText(r.LifeBegin, r.LifeEnd), Shared: tenants[r.Offset], Flags: flags(r)}
		if root != nil {
			it.AliasOf = root.Key()
			aliases = append(aliases, it)
		} else if !live[r.Offset] {
			live[r.Offset] = true
			blocks = append(blocks, it)
		}
	}
	// An alias whose block has no live isref[0] row holds the block itself.
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

// flags is the r:c:z:s part of child[...]: reuse, continuous, zero-copy,
// same stream.
func flags(r *model.Row) string {
	b := make([]byte, 0, 7)
	for i, v := range []int8{r.Reuse, r.Continuous, r.ZeroCopy, r.SameStream} {
		if i > 0 {
			b = append(b, ':')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return string(b)
}
