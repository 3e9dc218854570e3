package scan

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"imas/core/gelog"
)

// refFilter is VectorFilter's contract in plain Go: positions in blocks of
// block (1-16), at most maxHits hits a call, stopping before a block whose
// hits do not fit or whose windows do not. With block 16 and maxHits at
// least the buffer it does what the WebAssembly kernel does.
func refFilter(block, maxHits int, calls *int) VectorFilter {
	return func(data []byte, t *VectorTables, out []VectorHit) (int, int) {
		*calls++
		out = out[:min(len(out), maxHits)]
		n, i := 0, 0
		for len(data)-i >= block+teddyWindow-1 {
			var hits []VectorHit
			for k := i; k < i+block; k++ {
				if set := lookup(t, data, k); set != 0 {
					hits = append(hits, VectorHit{Pos: uint32(k), Buckets: uint32(set)})
				}
			}
			if n+len(hits) > len(out) {
				break
			}
			n += copy(out[n:], hits)
			i += block
		}
		return n, i
	}
}

// filters are the shapes the Go side must handle: the kernel's, and
// smaller blocks and buffers, so that calls stop at every kind of place.
var filters = []struct {
	name           string
	block, maxHits int
}{
	{"kernel", 16, vectorOutLen},
	{"bytes", 1, VectorMinHits},
	{"odd", 7, 19},
	{"vectors", 16, VectorMinHits},
}

// vectorBuffers are the adversarial inputs: every marker at every offset
// across two vectors, as the last bytes, cut, after its own prefix, in
// CRLF and NUL text, and hits by the ten thousand, in one line and in many.
func vectorBuffers() []string {
	var out []string
	for _, m := range gelog.Markers {
		for pad := 0; pad < 40; pad++ {
			x := strings.Repeat("x", pad)
			out = append(out, x+m, x+m+"\n"+x, x+m[:len(m)-1], x+m[:len(m)/2]+m, x+"\n"+m[:len(m)-1]+"\n"+m[1:])
		}
	}
	return append(out,
		"x [IMAS]y\r\n\r\nFree block \r\nMalloc block\r\n",
		"\x00\x00[IMAS]\x00\n\x00Free block\x00 \n\x00\x00\x00MallocMemory",
		"\xff\xfe\x80\x8f[IMAS]\xf0\n\xc3\xa9Free block \x7f\n",
		strings.Repeat("Free block ", 3000)+"\n"+strings.Repeat("[IMA", 5000)+"\n[IMAS]",
		strings.Repeat("Free block \n", 20000)+"Reuse result:",
		strings.Repeat("MallocMemory", 2000)+strings.Repeat("\n", 30)+"MallocMemor")
}

// randomBuffer is noise of one alphabet with markers, whole and cut.
func randomBuffer(rng *rand.Rand) string {
	alphabets := []string{"abc [IMAS MAS] Malloc Free", "xyz 0123456789 ", "MMMMFFFFkkkk_svm ", "IMASKernelTraceFreeblock[]:; ",
		"Mall Kern MAS] Free ::fr locM achi", "\x00\r\n\xff\x80 ock "}
	alpha := alphabets[rng.IntN(len(alphabets))]
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
	return b.String()
}

// TestVectorScanMatchesBytePasses verifies the hits of the filters above
// as CandidateLines does with a registered filter, and compares the lines
// with the byte passes'.
func TestVectorScanMatchesBytePasses(t *testing.T) {
	bufs := vectorBuffers()
	rng := rand.New(rand.NewPCG(7, 8))
	for range 400 {
		bufs = append(bufs, randomBuffer(rng))
	}
	for _, f := range filters {
		calls := 0
		filter := refFilter(f.block, f.maxHits, &calls)
		for i, s := range bufs {
			data := []byte(s)
			want := scanGroups(data, []int{-1}, planScan(data))
			got := planTeddy(data).scanVector(filter, data, []int{-1})
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s filter, buffer %d (%.40q, %d bytes): %v\nbyte passes %v", f.name, i, s, len(data), got, want)
			}
		}
		if calls < len(bufs)/2 {
			t.Errorf("%s filter: %d calls for %d buffers", f.name, calls, len(bufs))
		}
	}
}

// TestCandidateLinesUsesVectorFilter: a registered filter does the
// filtering where the build has no AVX2 scan, and nil restores the passes.
func TestCandidateLinesUsesVectorFilter(t *testing.T) {
	if useSIMD {
		t.Skip("the AVX2 scan comes first")
	}
	calls := 0
	SetVectorFilter(refFilter(16, vectorOutLen, &calls))
	data := []byte(strings.Repeat("noise [IMAS]Set x\nmore noise here\n", 500))
	got := CandidateLines(data, nil)
	SetVectorFilter(nil)
	if calls == 0 {
		t.Fatal("the filter was not called")
	}
	if want := CandidateLines(data, nil); fmt.Sprint(got) != fmt.Sprint(want) || calls != 1 {
		t.Errorf("with the filter %v, without %v (%d calls)", got, want, calls)
	}
}

// TestVectorFilterMustProgress: a filter that covers nothing would loop
// forever; the scan stops instead.
func TestVectorFilterMustProgress(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	stuck := func([]byte, *VectorTables, []VectorHit) (int, int) { return 0, 0 }
	data := []byte(strings.Repeat("[IMAS]\n", 10))
	planTeddy(data).scanVector(stuck, data, nil)
}
