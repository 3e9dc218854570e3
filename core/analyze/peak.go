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
// build their "Top 10" tables (docs/analyses.md, "3. Peak breakdown"): main
// blocks only (child = 0); one item per block offset, the first live row printed there
// (Shared counts every row printed at that offset in the graph); largest
// first; each live isref[1] row right after its block, naming the row it
// aliases (AliasOf), or as a block of its own when no isref[0] row of its
// block is live. Live is Σ size of the live blocks; top keeps the largest.
func Peak(g *model.Graph, top int) *model.Peak {
	theory, step := PeakStep(g.Rows)
	sc := getScratch(len(g.Rows))
	defer putScratch(sc)
	return peakAt(g, theory, step, top, aliasRoots(g.Rows, sc), sc)
}

// peakAt is Peak with theory_min's peak and the rows' alias roots
// (aliasRoots: roots[i] != i when row i is an alias) already known, with
// sc's buffers.
func peakAt(g *model.Graph, theory, step int64, top int, roots []int32, sc *scratch) *model.Peak {
	if len(g.Rows) == 0 {
		return nil
	}
	p := &model.Peak{Step: step, Theory: theory, Tensors: []model.PeakItem{}}
	// Rows (indexes) live at the step: blocks, the first one printed at
	// each offset; aliases, the isref[1] rows.
	var blocks, aliases []int32
	listed := map[int64]bool{} // offsets of blocks
	for i := range g.Rows {
		r := &g.Rows[i]
		if r.Child != 0 || r.LifeBegin > step || max(r.LifeEnd, r.LifeBegin) < step {
			continue
		}
		if roots[i] != int32(i) {
			aliases = append(aliases, int32(i))
		} else if !listed[r.Offset] {
			listed[r.Offset] = true
			blocks = append(blocks, int32(i))
		}
	}
	// An alias whose block has no live isref[0] row holds the block itself.
	byOffset := map[int64][]int32{}
	for _, a := range aliases {
		off := g.Rows[a].Offset
		if listed[off] {
			byOffset[off] = append(byOffset[off], a)
		} else {
			listed[off] = true
			blocks = append(blocks, a)
		}
	}
	for _, b := range blocks {
		p.Live += g.Rows[b].Size
	}
	p.Blocks = len(blocks)
	slices.SortStableFunc(blocks, func(a, b int32) int {
		ra, rb := &g.Rows[a], &g.Rows[b]
		return cmp.Or(cmp.Compare(rb.Size, ra.Size), cmp.Compare(ra.Offset, rb.Offset))
	})
	// The listed rows, and the offsets of their blocks for Shared: counted
	// for these few, not for every offset of the graph.
	shown := sc.rows[:0]
	offs := sc.shownOffs[:0]
	for i, b := range blocks {
		if i == top {
			break
		}
		shown = append(shown, b)
		shown = append(shown, byOffset[g.Rows[b].Offset]...)
		offs = append(offs, g.Rows[b].Offset)
	}
	sc.rows, sc.shownOffs = shown, offs
	slices.Sort(offs)
	tenants := rowsAt(g.Rows, offs, sc)
	for _, i := range shown {
		r := &g.Rows[i]
		k, _ := slices.BinarySearch(offs, r.Offset)
		it := model.PeakItem{Key: r.Key(), OpType: r.OpType, Offset: r.Offset, Size: r.Size,
			Life: model.FormatLife(r.LifeBegin, r.LifeEnd), Shared: int(tenants[k]), Flags: flags(r)}
		if j := roots[i]; j != i {
			it.AliasOf = g.Rows[j].Key()
		}
		p.Tensors = append(p.Tensors, it)
	}
	return p
}

// rowsAt counts the rows printed at each of the sorted offsets offs, in a
// buffer of sc.
func rowsAt(rows []model.Row, offs []int64, sc *scratch) []int32 {
	n := grow(sc.count, len(offs))
	sc.count = n
	clear(n)
	var f offsetFilter
	for _, o := range offs {
		f.add(o)
	}
	for i := range rows {
		o := rows[i].Offset
		if !f.has(o) {
			continue
		}
		if k, ok := slices.BinarySearch(offs, o); ok {
			n[k]++
		}
	}
	return n
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

// PeakAt is Peak at any step: what is live there, listed as Peak lists
// the peak step's (Theory is still theory_min's peak).
func PeakAt(g *model.Graph, step int64, top int) *model.Peak {
	theory, _ := PeakStep(g.Rows)
	sc := getScratch(len(g.Rows))
	defer putScratch(sc)
	return peakAt(g, theory, step, top, aliasRoots(g.Rows, sc), sc)
}
