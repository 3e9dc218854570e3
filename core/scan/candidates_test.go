package scan

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"imas/core/gelog"
)

// env25 is a plog envelope as GE writes it before a statement.
const env25 = "[INFO] GE(2617230,python3):2026-08-12-10:21:33.412.907 [block_mem_assigner.cc:2914]2617301 SetOffsetSize:"

func TestPlanScanPinsEveryMarkerOnce(t *testing.T) {
	for _, text := range []string{"", "plain noise", strings.Repeat("MMMM FFFF [IMAS] ", 5000), strings.Repeat("abcdefghijklmnopqrstuvwxyz", 3000)} {
		seen := map[string]int{}
		for _, g := range planScan([]byte(text)) {
			for _, p := range g.markers {
				if p.marker[p.off] != g.b {
					t.Errorf("marker %q pinned at %d to %q", p.marker, p.off, g.b)
				}
				seen[string(p.marker)]++
			}
		}
		for _, m := range gelog.Markers {
			if seen[m] != 1 {
				t.Errorf("text %.20q: marker %q pinned %d times", text, m, seen[m])
			}
		}
	}
}

// TestCandidateLinesRandom compares the scan with a line-by-line check on
// random lines whose noise alphabet varies, so that the byte chosen for each
// marker varies too, and on buffers longer than one scan block.
func TestCandidateLinesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabets := []string{"abc [IMAS MAS] Malloc Free\n", "xyz 0123456789 ", "MMMMFFFFkkkk_svm ", "IMASKernelTraceFreeblock[]:; "}
	for round := 0; round < 60; round++ {
		alpha := alphabets[round%len(alphabets)]
		nLines := 1 + rng.IntN(400)
		if round%10 == 0 {
			nLines = 9000 // > scanBlock
		}
		var lines []string
		for i := 0; i < nLines; i++ {
			var b strings.Builder
			for n := rng.IntN(90); n > 0; n-- {
				c := alpha[rng.IntN(len(alpha))]
				if c == '\n' {
					c = ' '
				}
				b.WriteByte(c)
			}
			if rng.IntN(8) == 0 {
				m := gelog.Markers[rng.IntN(len(gelog.Markers))]
				if rng.IntN(3) == 0 {
					m = m[:rng.IntN(len(m))] // a cut marker is no marker
				}
				b.WriteString(m)
			}
			for n := rng.IntN(20); n > 0; n-- {
				b.WriteByte(alpha[rng.IntN(len(alpha))%len(alpha)])
			}
			lines = append(lines, strings.ReplaceAll(b.String(), "\n", " "))
		}
		data := strings.Join(lines, "\n")
		if rng.IntN(2) == 0 {
			data += "\n"
		}
		var want []int
		off := 0
		for _, l := range strings.Split(data, "\n") {
			if gelog.IsCandidate([]byte(l)) {
				want = append(want, off)
			}
			off += len(l) + 1
		}
		got := CandidateLines([]byte(data), []int{-7})
		if got[0] != -7 || fmt.Sprint(got[1:]) != fmt.Sprint(want) {
			t.Fatalf("round %d: got %v\nwant %v", round, got, want)
		}
	}
}

func TestCandidateLinesMatchesLineByLine(t *testing.T) {
	lines := []string{
		"noise line with IMAS but no bracket",
		env25 + "[IMAS]Set g name[x] [IMAS] twice",
		"another [KernelTrace] without second bracket",
		env25 + "[KernelTrace][AllocMemHbm_1][MEM]Alloc memory at stream 0",
		"create caching memory allocator, [allocator_3]",
		"",
		"\r",
		"tail Free block device_id:0",
	}
	for _, m := range gelog.Markers {
		lines = append(lines, "x "+m+" y", "x "+m[:len(m)-1])
	}
	data := strings.Join(lines, "\n") + "\n"
	var want []int
	off := 0
	for _, l := range lines {
		if gelog.IsCandidate([]byte(l)) {
			want = append(want, off)
		}
		off += len(l) + 1
	}
	got := CandidateLines([]byte(data), nil)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// TestWordScanMatchesBytePasses runs the word-at-a-time scan (the one wasm
// uses) against the byte passes on every CPU, on random buffers whose noise
// makes different bytes rare, with markers at every alignment and at the end.
func TestWordScanMatchesBytePasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabets := []string{"abc [IMAS MAS] Malloc Free", "xyz 0123456789 ", "MMMMFFFFkkkk_svm ", "IMASKernelTraceFreeblock[]:; ", "yyyy create caching memory"}
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
		if rng.IntN(3) == 0 {
			b.WriteString(gelog.Markers[rng.IntN(len(gelog.Markers))])
		}
		data := []byte(b.String())
		groups := planScan(data)
		want := scanGroups(data, []int{-1}, groups)
		got := scanGroupsWords(data, []int{-1}, groups)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d (%d bytes): word scan %v\nbyte passes %v", round, len(data), got, want)
		}
	}
}

// The Teddy plan counts marker byte pairs in a table of maxMarkerPairs
// slots: pairs beyond it would all share slot 0 and misplace windows.
func TestMarkerPairsFit(t *testing.T) {
	pairs := map[[2]byte]bool{}
	for _, m := range gelog.Markers {
		for i := 0; i+1 < len(m); i++ {
			pairs[[2]byte{m[i], m[i+1]}] = true
		}
	}
	if len(pairs)+1 > maxMarkerPairs {
		t.Errorf("%d marker byte pairs, the plan has %d slots", len(pairs), maxMarkerPairs-1)
	}
}
