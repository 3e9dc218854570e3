package main

import "strings"

// Base85 is the alphabet of the inlined wasm: printable ASCII without
// quotes, backquote, backslash, ampersand and less-than, so that no sequence of it can end or
// confuse the <script> element that holds it ("</script", "<!--"). Four
// bytes take five characters (base64 takes 5⅓): the page is 6% smaller.
// page.js (fromBase85) decodes it.
const Base85 = "!#$%()*+,-./0123456789:;=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_abcdefghijklmnopqrstuvwxyz{"

// EncodeBase85 writes each 4-byte group, big-endian, as five digits, most
// significant first; a last group of n < 4 bytes is padded with zeros and
// written as its first n+1 digits (the decoder pads with the top digit).
func EncodeBase85(b []byte) string {
	var s strings.Builder
	s.Grow((len(b) + 3) / 4 * 5)
	var d [5]byte
	for i := 0; i < len(b); i += 4 {
		var g [4]byte
		n := copy(g[:], b[i:])
		v := uint32(g[0])<<24 | uint32(g[1])<<16 | uint32(g[2])<<8 | uint32(g[3])
		for k := 4; k >= 0; k-- {
			d[k] = Base85[v%85]
			v /= 85
		}
		s.Write(d[:n+1])
	}
	return s.String()
}

// DecodeBase85 is EncodeBase85's inverse (for tests; page.js decodes in
// the browser). ok is false on a character outside the alphabet.
func DecodeBase85(s string) (out []byte, ok bool) {
	for i := 0; i < len(s); i += 5 {
		n := min(5, len(s)-i)
		var v uint64
		for k := 0; k < 5; k++ {
			digit := 84
			if k < n {
				if digit = strings.IndexByte(Base85, s[i+k]); digit < 0 {
					return nil, false
				}
			}
			v = v*85 + uint64(digit)
		}
		g := []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
		out = append(out, g[:n-1]...)
	}
	return out, true
}
