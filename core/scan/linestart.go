package scan

import (
	"encoding/binary"
	"math/bits"
)

// NewlineMask returns the high bit of each byte of w that is '\n', the
// other bits clear: the word-at-a-time test of the scanners and the line
// counter. No carry crosses bytes, unlike the shorter (x-0x01..)&^x, so it
// is exact for every byte.
func NewlineMask(w uint64) uint64 {
	const (
		low7 = 0x7f7f7f7f7f7f7f7f
		nl   = 0x0a0a0a0a0a0a0a0a
	)
	x := w ^ nl // '\n' bytes are now 0
	return ^(((x & low7) + low7) | x | low7)
}

// lineStart returns the offset of the first byte of the line holding
// data[i-1] (0 when no '\n' comes before i): bytes.LastIndexByte(data[:i],
// '\n')+1, a word at a time. The standard one goes byte by byte, and the
// scanners call it for every candidate, about 100 bytes after its line
// start.
func lineStart(data []byte, i int) int {
	for ; i >= 8; i -= 8 {
		if z := NewlineMask(binary.LittleEndian.Uint64(data[i-8 : i])); z != 0 {
			return i - 8 + (63-bits.LeadingZeros64(z))/8 + 1
		}
	}
	for ; i > 0; i-- {
		if data[i-1] == '\n' {
			return i
		}
	}
	return 0
}
