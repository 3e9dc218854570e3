package core

import (
	"encoding/binary"
	"math/bits"
)

// countNLWords counts '\n' in b eight bytes at a time. bytes.Count is
// vectorised on amd64 and arm64 but a byte loop in wasm, where it was a
// tenth of the page's analysis time; countNL picks per architecture.
func countNLWords(b []byte) int {
	const (
		nl   = 0x0a0a0a0a0a0a0a0a
		low7 = 0x7f7f7f7f7f7f7f7f
		high = 0x8080808080808080
	)
	n := 0
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b) ^ nl // zero bytes where b had '\n'
		// The high bit of each byte is set unless the byte is zero; no
		// carry crosses bytes, so the count is exact.
		nonzero := ((x & low7) + low7 | x) & high
		n += 8 - bits.OnesCount64(nonzero)
		b = b[8:]
	}
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
