package gen

import "math/bits"

// rng is a small deterministic generator (xoshiro256**, seeded through
// splitmix64). It is implemented here rather than taken from math/rand so
// that a seed produces the same bytes with every Go release: committed
// fixtures must never change because the toolchain changed.
type rng struct{ s [4]uint64 }

func splitmix(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func newRNG(seed uint64) *rng {
	r := &rng{}
	x := seed
	for i := range r.s {
		r.s[i] = splitmix(&x)
	}
	return r
}

// fork derives an independent generator for a labelled sub-task, so that
// adding draws in one part of a profile does not shift another part.
func (r *rng) fork(label uint64) *rng {
	return newRNG(r.s[0] ^ bits.RotateLeft64(r.s[2], 17) ^ (label * 0x9e3779b97f4a7c15))
}

func (r *rng) u64() uint64 {
	s := &r.s
	res := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return res
}

// intn returns a value in [0, n) (Lemire's multiply-shift, no modulo bias
// worth mentioning for the ranges used here). n <= 0 gives 0.
func (r *rng) intn(n int) int {
	if n <= 1 {
		return 0
	}
	hi, _ := bits.Mul64(r.u64(), uint64(n))
	return int(hi)
}

// between returns a value in [lo, hi] (inclusive).
func (r *rng) between(lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	span := uint64(hi - lo + 1)
	h, _ := bits.Mul64(r.u64(), span)
	return lo + int64(h)
}

// float returns a value in [0, 1).
func (r *rng) float() float64 { return float64(r.u64()>>11) / (1 << 53) }

// chance is true with probability p.
func (r *rng) chance(p float64) bool { return r.float() < p }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }
