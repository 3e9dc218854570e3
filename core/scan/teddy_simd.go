//go:build goexperiment.simd && amd64

package scan

import (
	"math/bits"
	"simd/archsimd"
)

// With GOEXPERIMENT=simd on amd64 (AVX2), candidate lines are found by the
// Teddy filter of teddy.go, 32 positions a VPSHUFB.

func simdScan() bool { return archsimd.X86.AVX2() }

func candidateLinesSIMD(data []byte, dst []int) []int {
	return planTeddy(data).scan(data, dst)
}

// scan appends the start of every line of data holding a marker.
func (p *teddyPlan) scan(data []byte, dst []int) []int {
	// VPSHUFB looks up each 128-bit lane in its own half of the table.
	var t [2 * teddyWindow][32]uint8
	for j := range p.tables {
		copy(t[j][:16], p.tables[j][:])
		copy(t[j][16:], p.tables[j][:])
	}
	lo0, hi0 := archsimd.LoadUint8x32(&t[0]), archsimd.LoadUint8x32(&t[teddyWindow])
	lo1, hi1 := archsimd.LoadUint8x32(&t[1]), archsimd.LoadUint8x32(&t[teddyWindow+1])
	lo2, hi2 := archsimd.LoadUint8x32(&t[2]), archsimd.LoadUint8x32(&t[teddyWindow+2])
	lo3, hi3 := archsimd.LoadUint8x32(&t[3]), archsimd.LoadUint8x32(&t[teddyWindow+3])
	nib := archsimd.BroadcastUint8x32(15)
	zero := archsimd.BroadcastUint8x32(0)
	// The high nibble by a per-lane shift (VPSRLVD) rather than
	// ShiftAllRight (VPSRLW): the compiler loads ShiftAllRight's count with a
	// legacy-SSE MOVQ inside the loop, and on Intel CPUs an SSE instruction
	// with the upper halves of the YMM registers dirty costs a state
	// transition each time (on a Xeon that costs more than the scan itself).
	four := archsimd.BroadcastUint32x8(4)
	look := func(v, lo, hi archsimd.Uint8x32) archsimd.Uint8x32 {
		l := lo.PermuteOrZeroGrouped(v.And(nib).AsInt8x32())
		h := hi.PermuteOrZeroGrouped(v.AsUint32x8().ShiftRight(four).AsUint8x32().And(nib).AsInt8x32())
		return l.And(h)
	}
	var hit [32]uint8
	i := 0
	for i+32+teddyWindow-1 <= len(data) {
		r := look(archsimd.LoadUint8x32Slice(data[i:]), lo0, hi0).
			And(look(archsimd.LoadUint8x32Slice(data[i+1:]), lo1, hi1)).
			And(look(archsimd.LoadUint8x32Slice(data[i+2:]), lo2, hi2)).
			And(look(archsimd.LoadUint8x32Slice(data[i+3:]), lo3, hi3))
		m := r.NotEqual(zero).ToBits()
		if m == 0 {
			i += 32
			continue
		}
		r.Store(&hit)
		// verify and take are plain Go (SSE moves among them): leave the
		// AVX state clean for them, the vectors are reloaded after the calls
		// anyway.
		archsimd.ClearAVXUpperBits()
		next := i + 32
		for m != 0 {
			k := bits.TrailingZeros32(m)
			m &= m - 1
			if s := p.verify(data, i+k, hit[k]); s >= 0 {
				if dst, next = take(data, s, dst); next < 0 {
					return dst
				}
				break
			}
		}
		i = next
	}
	archsimd.ClearAVXUpperBits()
	return p.tail(data, i, dst)
}
