// Package scan finds the candidate lines of a buffer: the lines that carry
// one of gelog.Markers, which the statement parsers then read. It is the
// only step that touches every byte of the input.
package scan

import (
	"bytes"
	"slices"
	"sync"

	"imas/core/gelog"
)

// Finding candidate lines is the one step that touches every byte of the
// input, so it is built around bytes.IndexByte, which runs at memory speed
// (SIMD on amd64/arm64): each marker is searched through one of its bytes
// that is rare in the text at hand, markers that picked the same byte share
// one pass, and each hit is verified against the few markers of that byte.
// Which bytes are rare depends on the noise around the GE lines, so the
// choice is made per buffer from a small byte histogram instead of being
// fixed in advance (a log full of "Free" would otherwise make every 'F' a
// hit).

// pinned is a marker with the offset of its search byte.
type pinned struct {
	marker []byte
	off    int
}

// byteGroup is one pass: IndexByte for b, each hit verified against the
// markers pinned to b; or, when sub is set, bytes.Index for sub, a piece of
// the group's one marker starting at its pinned byte (for markers made only
// of bytes frequent in the text, where a hit every few dozen bytes would cost
// more than Go's vectorised search for a short substring).
type byteGroup struct {
	b       byte
	markers []pinned
	sub     []byte
}

// subLen is the longest substring searched in sub mode: up to 8 bytes
// bytes.Index compares whole words.
const subLen = 8

var (
	markerBytesOnce sync.Once
	markerBytes     [][]byte
)

func markersAsBytes() [][]byte {
	markerBytesOnce.Do(func() {
		for _, m := range gelog.Markers {
			markerBytes = append(markerBytes, []byte(m))
		}
	})
	return markerBytes
}

const (
	// sampleSpan is how much of a buffer the histogram reads, in
	// sampleParts pieces spread over the buffer.
	sampleSpan  = 16 << 10
	sampleParts = 4
	// passCost is what one more pass costs, in expected hits per sampled
	// byte. Measured on generated plogs (20 MB): a pass without hits takes
	// 0.47 ms, a hit ~32 ns, so a pass is worth one hit per ~1400 bytes.
	passCost = sampleSpan / 1400
	// wholeCost is one bytes.Index pass for a marker whose first byte is
	// frequent (4.5 ms per 20 MB): worth one hit per ~150 bytes.
	wholeCost = sampleSpan / 150
	// scanBlock keeps the passes of one block inside the CPU cache.
	scanBlock = 256 << 10
)

// planScan picks, for every marker, the byte it is searched by. It
// minimises (passes x passCost + expected hits) greedily: each marker takes
// the byte of lowest estimated cost, where bytes already chosen by other
// markers cost no extra pass.
func planScan(data []byte) []byteGroup {
	freq := sampleHistogram(data)
	markers := markersAsBytes()
	// Most constrained markers first: those whose rarest byte is most
	// frequent decide their pass, the others may join it.
	order := make([]int, len(markers))
	best := make([]int, len(markers))
	for i, m := range markers {
		order[i] = i
		best[i] = freq[m[0]]
		for _, c := range m {
			best[i] = min(best[i], freq[c])
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return best[b] - best[a] })
	var groups []byteGroup
	groupOf := map[byte]int{}
	for _, mi := range order {
		m := markers[mi]
		pick, pickCost := -1, 0
		for off, c := range m {
			if bytes.IndexByte(m[:off], c) >= 0 {
				continue // the first occurrence of a byte finds the marker first
			}
			cost := freq[c]
			if _, ok := groupOf[c]; !ok {
				cost += passCost
			}
			if pick < 0 || cost < pickCost {
				pick, pickCost = off, cost
			}
		}
		if freq[m[pick]] > wholeCost {
			groups = append(groups, byteGroup{b: m[pick], markers: []pinned{{m, pick}}, sub: m[pick:min(pick+subLen, len(m))]})
			continue
		}
		c := m[pick]
		g, ok := groupOf[c]
		if !ok {
			g = len(groups)
			groupOf[c] = g
			groups = append(groups, byteGroup{b: c})
		}
		groups[g].markers = append(groups[g].markers, pinned{m, pick})
	}
	return groups
}

// sampleHistogram counts the bytes of sampleSpan bytes of data, taken in
// sampleParts pieces spread over it.
func sampleHistogram(data []byte) (freq [256]int) {
	if len(data) <= sampleSpan {
		for _, c := range data {
			freq[c]++
		}
		return
	}
	part := sampleSpan / sampleParts
	step := (len(data) - part) / (sampleParts - 1)
	for p := 0; p < sampleParts; p++ {
		for _, c := range data[p*step : p*step+part] {
			freq[c]++
		}
	}
	return
}

// match reports whether one of g's markers has its search byte at i.
func (g *byteGroup) match(data []byte, i int) bool {
	for _, p := range g.markers {
		s := i - p.off
		if s >= 0 && s+len(p.marker) <= len(data) && bytes.Equal(data[s:s+len(p.marker)], p.marker) {
			return true
		}
	}
	return false
}

// CandidateLines appends to dst the start offsets (sorted, unique) of the
// lines of data that carry a marker. data holds whole '\n'-terminated lines
// (a last line without '\n' counts too).
func CandidateLines(data []byte, dst []int) []int {
	if useSIMD {
		return candidateLinesSIMD(data, dst)
	}
	if f := vectorFilter; f != nil {
		return planTeddy(data).scanVector(f, data, dst)
	}
	if useWordScan {
		return scanGroupsWords(data, dst, planScan(data))
	}
	return scanGroups(data, dst, planScan(data))
}

// useSIMD selects the one-pass vector scan (teddy_simd.go) where the build
// and the CPU have it.
var useSIMD = simdScan()

func scanGroups(data []byte, dst []int, groups []byteGroup) []int {
	start := len(dst)
	// Substring groups run once over the whole buffer: bytes.Index warms
	// up (IndexByte first, then its vectorised loop) on every call.
	for gi := range groups {
		if g := &groups[gi]; g.sub != nil {
			_, dst = g.scan(data, 0, len(data), dst)
		}
	}
	// Byte groups run block by block so that their passes share the cache.
	var nextBuf [32]int
	next := nextBuf[:0]
	for range groups {
		next = append(next, 0)
	}
	for blk := 0; blk < len(data); blk += scanBlock {
		end := min(blk+scanBlock, len(data))
		for gi := range groups {
			if g := &groups[gi]; g.sub == nil {
				next[gi], dst = g.scan(data, max(next[gi], blk), end, dst)
			}
		}
	}
	hits := dst[start:]
	if len(hits) > 1 {
		slices.Sort(hits)
		hits = slices.Compact(hits)
		dst = dst[:start+len(hits)]
	}
	return dst
}

// scan appends the start of every line with a match of g whose search byte
// lies in data[from:end]. It returns where the next search starts: past end,
// when the line of the last match runs on.
func (g *byteGroup) scan(data []byte, from, end int, dst []int) (int, []int) {
	for from < end {
		var j int
		if g.sub != nil {
			j = bytes.Index(data[from:end], g.sub)
		} else {
			j = bytes.IndexByte(data[from:end], g.b)
		}
		if j < 0 {
			return end, dst
		}
		i := from + j
		if !g.match(data, i) {
			from = i + 1
			continue
		}
		dst = append(dst, lineStart(data, i))
		// The rest of this line needs no more looking at.
		le := bytes.IndexByte(data[i:], '\n')
		if le < 0 {
			return len(data), dst
		}
		from = i + le + 1
	}
	return from, dst
}
