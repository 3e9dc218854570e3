package spill

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestDecoderVarints: the one-byte fast path and binary's reading agree on
// the numbers around its edge.
func TestDecoderVarints(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, -64, 64, -65, 127, 128, -129, 1 << 20, math.MaxInt64, math.MinInt64} {
		d := &decoder{b: binary.AppendVarint(nil, v)}
		if got := d.int(); got != v || d.err != nil || d.p != len(d.b) {
			t.Errorf("int %d: got %d, err %v, read %d of %d bytes", v, got, d.err, d.p, len(d.b))
		}
		u := uint64(v)
		d = &decoder{b: binary.AppendUvarint(nil, u)}
		if got := d.uint(); got != u || d.err != nil || d.p != len(d.b) {
			t.Errorf("uint %d: got %d, err %v, read %d of %d bytes", u, got, d.err, d.p, len(d.b))
		}
	}
}
