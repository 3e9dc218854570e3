package core

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestCountNLWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := []byte{'\n', 'a', 0, 0x0b, 0x09, 0x8a, 0xff, 0x0a ^ 0x80}
	for round := 0; round < 2000; round++ {
		b := make([]byte, rng.IntN(100))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if got, want := countNLWords(b), bytes.Count(b, []byte{'\n'}); got != want {
			t.Fatalf("%x: %d, want %d", b, got, want)
		}
	}
}
