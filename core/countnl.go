package core

import (
	"encoding/binary"
	"math/bits"

	"imas/core/scan"
)

// countNLWords counts '\n' in b eight bytes at a time. bytes.Count is
// vectorised on amd64 and arm64 but a byte loop in wasm, where it would be
// a large share of the page's analysis time; countNL picks per architecture.
func countNLWords(b []byte) int {
	n := 0
	for len(b) >= 8 {
		n += bits.OnesCount64(scan.NewlineMask(binary.LittleEndian.Uint64(b)))
		b = b[8:]
	}
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
