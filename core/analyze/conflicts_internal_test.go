package analyze

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"imas/core/model"
)

// TestByTime checks the time order of the sweep (counting sort, packed
// integers, general sort) against a comparison sort by (time, rank), on
// times that take each path.
func TestByTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		time func() int64
	}{
		{"steps", func() int64 { return rng.Int64N(50) }},
		{"steps far from 0", func() int64 { return 1<<40 + rng.Int64N(3000) }},
		{"forever", func() int64 { return []int64{0, 7, math.MaxUint32, math.MaxUint32 - 1}[rng.IntN(4)] }},
		{"negative", func() int64 { return rng.Int64N(20) - 10 }},
		{"huge", func() int64 { return rng.Int64N(5) + math.MaxUint32 - 2 }},
		{"extremes", func() int64 { return []int64{math.MinInt64, -1, 0, 1, math.MaxInt64}[rng.IntN(5)] }},
		{"sparse", func() int64 { return rng.Int64N(1 << 30) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := &scratch{}
			for _, n := range []int{1, 2, 17, 2000} {
				ts := make([]int64, n)
				for i := range ts {
					ts[i] = tc.time()
				}
				want := make([]int32, n)
				for i := range want {
					want[i] = int32(i)
				}
				slices.SortFunc(want, func(a, b int32) int { return cmp.Or(cmp.Compare(ts[a], ts[b]), cmp.Compare(a, b)) })
				var buf []int32
				if got := sc.byTime(ts, &buf); !slices.Equal(got, want) {
					t.Errorf("n=%d: byTime differs from sorting by (time, rank)", n)
				}
			}
		})
	}
}

// TestSortByAddress checks the packed sort of spans against a comparison
// sort by (lo, row), with offsets that fit the packing and some that do not.
func TestSortByAddress(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sc := &scratch{}
	for iter := 0; iter < 200; iter++ {
		spans := make([]span, 1+rng.IntN(300))
		for i := range spans {
			lo := int64(rng.IntN(40)) * 512
			switch {
			case iter%5 == 1 && i == 0:
				lo = -512
			case iter%5 == 2 && i == 0:
				lo = math.MaxInt64 - 10
			case iter%5 == 3:
				lo = int64(i) * 512 // already sorted
			}
			spans[i] = span{row: int32(i * 2), lo: lo, hi: lo + 512}
		}
		want := slices.Clone(spans)
		slices.SortFunc(want, func(a, b span) int { return cmp.Or(cmp.Compare(a.lo, b.lo), cmp.Compare(a.row, b.row)) })
		sc.sortByAddress(spans)
		if !slices.Equal(spans, want) {
			t.Fatalf("iteration %d: sortByAddress differs from sorting by (lo, row)", iter)
		}
	}
}

// TestAliasRoots checks the roots against the rule as written: the nearest
// previous isref[0] row at the same offset, found with a map.
func TestAliasRoots(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sc := &scratch{}
	for iter := 0; iter < 500; iter++ {
		rows := make([]model.Row, rng.IntN(60))
		// Offsets 512·1024 apart share a bit of the filter; some are not
		// 512-aligned or negative.
		offsets := []int64{0, 512, 1536, 512 * 1024, 512*1024 + 512, -512, 700, 1 << 40, math.MaxInt64}
		for i := range rows {
			rows[i].Offset = offsets[rng.IntN(len(offsets))]
			if rng.IntN(3) == 0 {
				rows[i].IsRef = 1
			}
		}
		last := map[int64]int32{}
		want := make([]int32, len(rows))
		for i, r := range rows {
			want[i] = int32(i)
			if r.IsRef == 0 {
				last[r.Offset] = int32(i)
			} else if j, ok := last[r.Offset]; ok {
				want[i] = j
			}
		}
		if got := aliasRoots(rows, sc); !slices.Equal(got, want) {
			t.Fatalf("iteration %d: roots %v, want %v", iter, got, want)
		}
	}
}

// TestSweepOverlapsMatchesBruteForce checks the sweep (blocks and the tree)
// against every pair, on layouts like GE's (blocks side by side, tenants
// one after another, some overlapping) with odd spans mixed in: child
// ranges inside a block, ranges across blocks, infinite ends.
func TestSweepOverlapsMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	sc := &scratch{}
	for iter := 0; iter < 3000; iter++ {
		var spans []span
		add := func(lo, hi, begin, end int64) {
			spans = append(spans, span{row: int32(len(spans)), root: int32(len(spans)), lo: lo, hi: hi, begin: begin, end: end})
		}
		var off int64
		for range rng.IntN(12) {
			size := int64(1+rng.IntN(4)) * 512
			var t0 int64
			for range rng.IntN(6) {
				b := t0 + int64(rng.IntN(4)) - 1 // sometimes before the last end
				e := b + int64(rng.IntN(5))
				if rng.IntN(10) == 0 {
					e = 4294967294 // the block's last tenant
				}
				add(off, off+size, b, e)
				if e == 4294967294 {
					break
				}
				t0 = e + 1
			}
			off += size
		}
		for range rng.IntN(3) * rng.IntN(3) { // odd spans, often none
			lo := int64(rng.IntN(int(off/512+2))) * 512
			b := int64(rng.IntN(30))
			add(lo, lo+int64(1+rng.IntN(3))*256, b, b+int64(rng.IntN(5)))
		}
		rng.Shuffle(len(spans), func(i, j int) { spans[i], spans[j] = spans[j], spans[i] })
		for i := range spans {
			spans[i].row = int32(i) // rows in the order given
		}
		want := map[[2]int32]bool{}
		for i := range spans {
			for j := i + 1; j < len(spans); j++ {
				x, y := &spans[i], &spans[j]
				if x.lo < y.hi && y.lo < x.hi && x.begin <= y.end && y.begin <= x.end {
					want[[2]int32{x.row, y.row}] = true
				}
			}
		}
		got := map[[2]int32]bool{}
		sc.sweepOverlaps(slices.Clone(spans), func(x, y *span) {
			k := [2]int32{min(x.row, y.row), max(x.row, y.row)}
			if got[k] {
				t.Fatalf("iteration %d: pair %v reported twice", iter, k)
			}
			got[k] = true
		})
		if len(got) != len(want) {
			t.Fatalf("iteration %d: %d pairs, want %d", iter, len(got), len(want))
		}
		for k := range want {
			if !got[k] {
				t.Fatalf("iteration %d: pair %v missing", iter, k)
			}
		}
	}
}
