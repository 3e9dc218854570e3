package analyze

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortEvents checks the packed-integer sort against the comparison
// sort, on the fast path and on times that take the general one.
func TestSortEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		time func() int64
	}{
		{"steps", func() int64 { return rng.Int64N(50) }},
		{"forever", func() int64 { return []int64{0, 7, math.MaxUint32, math.MaxUint32 - 1}[rng.IntN(4)] }},
		{"negative", func() int64 { return rng.Int64N(20) - 10 }},
		{"huge", func() int64 { return rng.Int64N(5) + math.MaxUint32 - 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := make([]event, 2000)
			for i := range evs {
				evs[i] = event{t: tc.time(), rank: int32(rng.IntN(math.MaxInt32))}
			}
			want := slices.Clone(evs)
			slices.SortFunc(want, compareEvents)
			sortEvents(evs)
			if !slices.Equal(evs, want) {
				t.Error("sortEvents differs from sorting by compareEvents")
			}
		})
	}
}
