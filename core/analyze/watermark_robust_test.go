package analyze

import (
	"math"
	"testing"
)

// watermark must not index its step array with steps a hostile log made up
// (FuzzReport found end = MaxInt64: end+1 wrapped and the array was too
// short). Such steps go the sorted way; figures built on them may be
// meaningless, but both ways must agree and nothing may panic.
func TestWatermarkHostileSteps(t *testing.T) {
	const m = math.MaxInt64
	for _, tc := range []struct {
		name  string
		items []liveItem
		peak  int64 // -1: only agreement with the sorted way is checked
	}{
		{"dense", []liveItem{{0, 2, 10}, {1, 3, 5}, {3, 3, 1}}, 15},
		{"sparse", []liveItem{{0, 2, 10}, {1 << 40, 1 << 41, 5}}, 10},
		{"largest step", []liveItem{{m, m, 7}}, -1},
		{"largest step among small ones", []liveItem{{0, 1, 3}, {m - 1, m, 7}}, -1},
		{"end before begin", []liveItem{{5, 1, 4}, {0, 0, 2}}, -1},
		{"negative step", []liveItem{{-3, 0, 4}, {0, 1, 1}}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			peak, step := watermark(tc.items)
			sp, ss := watermarkSorted(tc.items)
			if peak != sp || step != ss || (tc.peak >= 0 && peak != tc.peak) {
				t.Errorf("watermark %d at %d, sorted %d at %d, want %d", peak, step, sp, ss, tc.peak)
			}
		})
	}
}
