package scan

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"slices"
)

// In WebAssembly Go has no vector instructions: bytes.IndexByte is a loop
// over 4-byte words, ~3 operations per byte, and scanGroups makes ~10
// passes. scanGroupsWords makes one pass over 8-byte words instead: the
// word's eight bytes index a 256-entry table of the rare bytes, and only a
// word with one of them is looked at byte by byte. The groups
// searched by substring (markers made only of frequent bytes) keep their
// own bytes.Index pass. The page runs a WebAssembly SIMD kernel instead
// (teddy_vector.go); this pass is for wasm without it (a browser without
// SIMD, Node).

// useWordScan selects scanGroupsWords for the byte groups where IndexByte is slow.
var useWordScan = runtime.GOARCH == "wasm"

func scanGroupsWords(data []byte, dst []int, groups []byteGroup) []int {
	start := len(dst)
	var which [256]int8 // rare byte → its group + 1; 0 for the others
	n := 0
	for gi := range groups {
		g := &groups[gi]
		if g.sub != nil {
			_, dst = g.scan(data, 0, len(data), dst)
			continue
		}
		which[g.b] = int8(gi + 1)
		n++
	}
	if n > 0 {
		dst = wordPass(data, dst, groups, &which)
	}
	hits := dst[start:]
	if len(hits) > 1 {
		slices.Sort(hits)
		hits = slices.Compact(hits)
		dst = dst[:start+len(hits)]
	}
	return dst
}

func wordPass(data []byte, dst []int, groups []byteGroup, which *[256]int8) []int {
	i := 0
	for i < len(data) {
		if i+8 <= len(data) {
			w := binary.LittleEndian.Uint64(data[i:])
			if which[byte(w)]|which[byte(w>>8)]|which[byte(w>>16)]|which[byte(w>>24)]|
				which[byte(w>>32)]|which[byte(w>>40)]|which[byte(w>>48)]|which[byte(w>>56)] == 0 {
				i += 8
				continue
			}
		}
		// Some byte of this word is a rare one: check each.
		end := min(i+8, len(data))
		for ; i < end; i++ {
			gi := which[data[i]]
			if gi == 0 || !groups[gi-1].match(data, i) {
				continue
			}
			dst = append(dst, lineStart(data, i))
			le := bytes.IndexByte(data[i:], '\n') // the rest of the line needs no look
			if le < 0 {
				return dst
			}
			i += le + 1
			break
		}
	}
	return dst
}
