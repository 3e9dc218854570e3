package scan

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestLineStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	// Bytes next to '\n' in value and in position: 0x0b, 0x8a, 0x09, 0x00
	// and 0xff are the ones a carry or a sign bit would confuse.
	alphabet := []byte{'\n', 0x0b, 0x09, 0x8a, 0x00, 0xff, 0x01, 'a'}
	for n := 0; n < 40; n++ {
		for trial := 0; trial < 200; trial++ {
			data := make([]byte, n)
			for k := range data {
				data[k] = alphabet[rng.IntN(len(alphabet))]
			}
			for i := 0; i <= n; i++ {
				if got, want := lineStart(data, i), bytes.LastIndexByte(data[:i], '\n')+1; got != want {
					t.Fatalf("lineStart(%q, %d) = %d, want %d", data, i, got, want)
				}
			}
		}
	}
}

func BenchmarkLineStart(b *testing.B) {
	line := append(bytes.Repeat([]byte("x"), 100), '\n')
	data := bytes.Repeat(line, 4)
	for b.Loop() {
		lineStart(data, len(data)-2)
	}
}
