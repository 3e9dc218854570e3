package gelog

import (
	"bytes"
	"sort"
	"sync"
)

// anchorOf maps a marker to a shorter substring of it that starts with a
// rarer byte, so that bytes.Index (which scans for the first byte) runs at
// memory speed over noise lines; markers sharing an anchor cost one pass.
// Markers without an entry are their own anchor.
var anchorOf = map[string]string{
	"[IMAS]":                              "IMAS]",
	"[KernelTrace][":                      "KernelTrace",
	"MallocMemory":                        "Malloc",
	"Malloc block ":                       "Malloc",
	"rtMallocPhysical success":            "Malloc",
	"MemoryAllocator::":                   "Allocator::",
	"RtMemAllocator::free":                "Allocator::",
	"Free block ":                         "Free",
	"aclrtFreePhysical success":           "Free",
	"create caching memory allocator":     "y allocator",
	"after append ws, origin memory size": "ws, origin memory size",
	"InitFeatureMapAndP2PMem":             "P2PMem",
	"_svm_mem_stats_show":                 "vm_mem_stats",
	"svm_mem_stats_show_device_proc_mem":  "vm_mem_stats",
	"Final StaticMemoryPolicy":            "StaticMemoryPolicy",
}

// anchor is one substring searched for, and the markers it stands for with
// the anchor's offset inside each.
type anchor struct {
	text    []byte
	markers []anchored
}

type anchored struct {
	marker []byte
	off    int
}

var (
	anchorsOnce sync.Once
	anchorList  []anchor
)

// anchors groups Markers by anchor; every marker has exactly one.
func anchors() []anchor {
	anchorsOnce.Do(func() {
		idx := map[string]int{}
		for _, m := range Markers {
			a, ok := anchorOf[m]
			off := bytes.Index([]byte(m), []byte(a))
			if !ok || off < 0 {
				a, off = m, 0
			}
			i, seen := idx[a]
			if !seen {
				i = len(anchorList)
				idx[a] = i
				anchorList = append(anchorList, anchor{text: []byte(a)})
			}
			anchorList[i].markers = append(anchorList[i].markers, anchored{[]byte(m), off})
		}
	})
	return anchorList
}

// Anchors returns the distinct substrings searched for.
func Anchors() [][]byte {
	var out [][]byte
	for _, a := range anchors() {
		out = append(out, a.text)
	}
	return out
}

// CandidateLines appends to dst the start offsets (sorted, unique) of the
// lines of data that carry a marker. data holds whole '\n'-terminated lines.
// It searches the whole buffer for each anchor instead of testing every line,
// which keeps noise lines at memory-scan speed, and checks only the markers
// of the anchor found.
func CandidateLines(data []byte, dst []int) []int {
	start := len(dst)
	for _, a := range anchors() {
		from := 0
		for from < len(data) {
			i := bytes.Index(data[from:], a.text)
			if i < 0 {
				break
			}
			i += from
			if !markerAt(data, i, a.markers) {
				from = i + 1
				continue
			}
			ls := bytes.LastIndexByte(data[:i], '\n') + 1
			le := bytes.IndexByte(data[i:], '\n')
			if le < 0 {
				le = len(data)
			} else {
				le += i
			}
			dst = append(dst, ls)
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

// markerAt reports whether one of ms is in data with its anchor at i.
func markerAt(data []byte, i int, ms []anchored) bool {
	for _, m := range ms {
		s := i - m.off
		if s >= 0 && s+len(m.marker) <= len(data) && bytes.Equal(data[s:s+len(m.marker)], m.marker) {
			return true
		}
	}
	return false
}
