package gelog

import (
	"fmt"
	"strings"
	"testing"
)

func TestAnchorsCoverMarkers(t *testing.T) {
	for _, m := range Markers {
		found := false
		for _, a := range Anchors() {
			if strings.Contains(m, string(a)) {
				found = true
			}
		}
		if !found {
			t.Errorf("marker %q has no anchor", m)
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
	for _, m := range Markers {
		lines = append(lines, "x "+m+" y", "x "+m[:len(m)-1])
	}
	data := strings.Join(lines, "\n") + "\n"
	var want []int
	off := 0
	for _, l := range lines {
		if IsCandidate([]byte(l)) {
			want = append(want, off)
		}
		off += len(l) + 1
	}
	got := CandidateLines([]byte(data), nil)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}
