package input

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestWordSum checks the wasm block hash natively: deterministic, and
// every change of one bit, of the length or of the order of two words of a
// block gives another sum (no collisions among these, as a hash of this
// quality must give).
func TestWordSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 3, 4, 7, 8, 31, 32, 33, 63, 64, 100, 4096, hashBlock} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		sum := wordSum(b)
		if wordSum(bytes.Clone(b)) != sum {
			t.Fatalf("%d bytes: two sums", n)
		}
		seen := map[uint64]string{sum: "original"}
		add := func(what string, v uint64) {
			if prev, dup := seen[v]; dup {
				t.Fatalf("%d bytes: %s and %s hash alike", n, what, prev)
			}
			seen[v] = what
		}
		for i := 0; i < min(n, 300); i++ {
			for bit := 0; bit < 8; bit += 3 {
				c := bytes.Clone(b)
				c[i] ^= 1 << bit
				add("a flipped bit", wordSum(c))
			}
		}
		add("one more byte", wordSum(append(bytes.Clone(b), 0)))
		if n >= 16 {
			c := bytes.Clone(b)
			copy(c[0:8], b[8:16])
			copy(c[8:16], b[0:8])
			if !bytes.Equal(c, b) {
				add("two words swapped", wordSum(c))
			}
		}
	}
}

// TestBlockHashWithWordSum runs the streaming block hash on the wasm sum:
// the result depends on the bytes only, not on how the writes split them.
func TestBlockHashWithWordSum(t *testing.T) {
	defer func(f func([]byte) uint64) { blockSum = f }(blockSum)
	blockSum = wordSum
	data := make([]byte, 3*hashBlock+12345)
	for i := range data {
		data[i] = byte(i * 7 / 5)
	}
	sum := func(parts ...int) uint64 {
		h := blockHash{buf: make([]byte, 0, hashBlock)}
		p := data
		for _, n := range parts {
			h.Write(p[:n])
			p = p[n:]
		}
		h.Write(p)
		return h.sum64()
	}
	want := sum()
	for _, parts := range [][]int{{1}, {hashBlock - 1, 2}, {100, hashBlock, 7}, {len(data)}} {
		if got := sum(parts...); got != want {
			t.Errorf("writes %v: %x, want %x", parts, got, want)
		}
	}
	other := bytes.Clone(data)
	other[len(other)-1] ^= 1
	h := blockHash{buf: make([]byte, 0, hashBlock)}
	h.Write(other)
	if h.sum64() == want {
		t.Error("a different last byte hashes alike")
	}
}

func BenchmarkBlockSum(b *testing.B) {
	data := make([]byte, hashBlock)
	for name, f := range map[string]func([]byte) uint64{"word": wordSum, "block": blockSum} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				f(data)
			}
		})
	}
}
