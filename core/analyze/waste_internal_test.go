package analyze

import (
	"math/rand/v2"
	"testing"
)

// TestWatermarkPaths checks the difference-array watermark against the
// sorted-events one, on dense and on sparse steps.
func TestWatermarkPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for iter := 0; iter < 500; iter++ {
		spread := int64(20)
		if iter%2 == 1 {
			spread = 1 << 40 // too sparse for the array: sorted path
		}
		items := make([]liveItem, rng.IntN(30))
		for i := range items {
			b := rng.Int64N(spread)
			items[i] = liveItem{b, b + rng.Int64N(5), 512 * (1 + rng.Int64N(4))}
		}
		p1, s1 := watermark(items)
		p2, s2 := watermarkSorted(items)
		if p1 != p2 || s1 != s2 {
			t.Fatalf("items %v: array (%d at %d), sorted (%d at %d)", items, p1, s1, p2, s2)
		}
	}
}
