//go:build goexperiment.simd && amd64

package scan

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"imas/core/gelog"
)

// TestTeddyMatchesBytePasses runs the vector scan and the byte passes on
// the same buffers: random noise with markers (whole and cut) at every
// alignment, lines longer than a vector, markers at the very end (the
// scalar tail) and split across the vector boundary.
func TestTeddyMatchesBytePasses(t *testing.T) {
	if !simdScan() {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabets := []string{"abc [IMAS MAS] Malloc Free", "xyz 0123456789 ", "MMMMFFFFkkkk_svm ", "IMASKernelTraceFreeblock[]:; ", "Mall Kern MAS] Free ::fr locM achi"}
	for round := 0; round < 400; round++ {
		alpha := alphabets[round%len(alphabets)]
		var b strings.Builder
		for n := rng.IntN(300); n > 0; n-- {
			for k := rng.IntN(120); k > 0; k-- {
				b.WriteByte(alpha[rng.IntN(len(alpha))])
			}
			if rng.IntN(4) == 0 {
				m := gelog.Markers[rng.IntN(len(gelog.Markers))]
				if rng.IntN(3) == 0 {
					m = m[:rng.IntN(len(m))]
				}
				b.WriteString(m)
			}
			if rng.IntN(3) > 0 {
				b.WriteByte('\n')
			}
		}
		if rng.IntN(3) == 0 { // a marker as the last bytes
			b.WriteString(gelog.Markers[rng.IntN(len(gelog.Markers))])
		}
		data := []byte(b.String())
		want := scanGroups(data, nil, planScan(data))
		got := candidateLinesSIMD(data, nil)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d (%d bytes): vector scan %v\nbyte passes %v", round, len(data), got, want)
		}
	}
}

func FuzzTeddy(f *testing.F) {
	f.Add([]byte("x [IMAS]Set y\nFree block \n"), uint8(0))
	f.Add([]byte("_svm_mem_stats_show"), uint8(31))
	f.Fuzz(func(t *testing.T, data []byte, shift uint8) {
		if !simdScan() {
			t.Skip("no AVX2")
		}
		data = append(make([]byte, int(shift%64)), data...)[shift%64:] // every alignment
		want := scanGroups(data, nil, planScan(data))
		if got := candidateLinesSIMD(data, nil); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("vector scan %v, byte passes %v", got, want)
		}
	})
}
