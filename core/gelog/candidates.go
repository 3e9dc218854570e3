package gelog

import (
	"bytes"
	"sort"
	"sync"
)

// anchorOf maps a marker to a shorter substring that starts with a rarer
// byte, so that bytes.Index (which scans for the first byte) runs at memory
// speed over noise lines. Markers without an entry are their own anchor.
var anchorOf = map[string]string{
	"[IMAS]":                              "IMAS]",
	"[KernelTrace][":                      "KernelTrace",
	"create caching memory allocator":     "caching memory allocator",
	"rtMallocPhysical success":            "MallocPhysical success",
	"aclrtFreePhysical success":           "FreePhysical success",
	"after append ws, origin memory size": "ws, origin memory size",
	"InitFeatureMapAndP2PMem":             "P2PMem",
	"_svm_mem_stats_show":                 "_svm_mem_stats",
}

var (
	anchorsOnce sync.Once
	anchors     [][]byte
)

// Anchors returns the distinct substrings whose presence makes a line worth
// the exact marker test; every marker contains one of them.
func Anchors() [][]byte {
	anchorsOnce.Do(func() {
		seen := map[string]bool{}
		for _, m := range Markers {
			a, ok := anchorOf[m]
			if !ok || !bytes.Contains([]byte(m), []byte(a)) {
				a = m
			}
			if !seen[a] {
				seen[a] = true
				anchors = append(anchors, []byte(a))
			}
		}
	})
	return anchors
}

// CandidateLines appends to dst the start offsets (sorted, unique) of the
// lines of data that carry a marker. data holds whole '\n'-terminated lines.
// It searches the whole buffer for each anchor instead of testing every line,
// which keeps noise lines at memory-scan speed.
func CandidateLines(data []byte, dst []int) []int {
	start := len(dst)
	for _, a := range Anchors() {
		from := 0
		for from < len(data) {
			i := bytes.Index(data[from:], a)
			if i < 0 {
				break
			}
			i += from
			ls := bytes.LastIndexByte(data[:i], '\n') + 1
			le := bytes.IndexByte(data[i:], '\n')
			if le < 0 {
				le = len(data)
			} else {
				le += i
			}
			if IsCandidate(data[ls:le]) {
				dst = append(dst, ls)
			}
			from = le + 1
		}
	}
	hits := dst[start:]
	if len(hits) > 1 {
		sort.Ints(hits)
		w := 1
		for r := 1; r < len(hits); r++ {
			if hits[r] != hits[w-1] {
				hits[w] = hits[r]
				w++
			}
		}
		dst = dst[:start+w]
	}
	return dst
}
