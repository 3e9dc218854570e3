package core

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLongLinesWindowed compares the windowed search for over-long lines
// with the line-by-line one on random chunks.
func TestLongLinesWindowed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 300; round++ {
		maxLine := 1 + rng.IntN(40)
		var b strings.Builder
		for n := rng.IntN(30); n >= 0; n-- {
			b.WriteString(strings.Repeat("x", rng.IntN(3*maxLine)))
			b.WriteByte('\n')
		}
		data := []byte(b.String())
		got := longLines(data, maxLine, nil)
		want := longLinesEach(data, maxLine, nil)
		if len(data) <= maxLine {
			want = nil
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("maxLine %d, %q:\n got %v\nwant %v", maxLine, data, got, want)
		}
	}
}
