//go:build js && wasm

package wasmsimd

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"imas/core"
	"imas/core/gelog"
	"imas/core/input"
	"imas/core/scan"
	"imas/internal/gen"
)

// These tests run the real kernel: under Node through run_node.js, which
// instantiates it against this test binary's memory (make test-wasmsimd).

var fuzzTime = flag.Duration("wasmsimd.fuzztime", 10*time.Second, "how long TestKernelFuzz runs")

// kernel returns the filter run_node.js put on Global; without it the
// tests skip, unless the runner was given a kernel (then it is a failure).
func kernel(t testing.TB) scan.VectorFilter {
	t.Helper()
	fn := js.Global().Get(Global)
	if fn.Type() != js.TypeFunction {
		if os.Getenv("IMAS_VECTOR_KERNEL") != "" {
			t.Fatalf("IMAS_VECTOR_KERNEL is set but there is no %s", Global)
		}
		t.Skip("no kernel: run under run_node.js with IMAS_VECTOR_KERNEL (make test-wasmsimd)")
	}
	return filterOf(fn)
}

// reference is what the kernel must return: scan.VectorFilter's contract
// 16 positions at a time, stopping before a vector whose hits do not fit.
func reference(data []byte, t *scan.VectorTables, out []scan.VectorHit) (int, int) {
	n, i := 0, 0
	for len(data)-i >= minData {
		var hits []scan.VectorHit
		for p := i; p < i+vecLen; p++ {
			set := uint8(0xff)
			for j := 0; j < window; j++ {
				c := data[p+j]
				set &= t[j][c&15] & t[window+j][c>>4]
			}
			if set != 0 {
				hits = append(hits, scan.VectorHit{Pos: uint32(p), Buckets: uint32(set)})
			}
		}
		if n+len(hits) > len(out) {
			break
		}
		n += copy(out[n:], hits)
		i += vecLen
	}
	return n, i
}

// TestKernelMatchesReference compares the kernel's raw output with the
// reference on random tables (sparse to full), random bytes at every
// alignment and lengths around the vector size, and small output buffers,
// and checks that it writes nothing outside its buffer.
func TestKernelMatchesReference(t *testing.T) {
	f := kernel(t)
	rng := rand.New(rand.NewPCG(11, 12))
	pool := make([]byte, 4096)
	const guard = 8
	outBuf := make([]scan.VectorHit, 256+2*guard)
	refOut := make([]scan.VectorHit, 256)
	sentinel := scan.VectorHit{Pos: 0xdeadbeef, Buckets: 0xfeedface}
	for round := range 20000 {
		var tb scan.VectorTables
		density := []int{0, 2, 8, 14, 16}[round%5] // of 16, per table bit
		for j := range tb {
			for k := range tb[j] {
				for bit := range 8 {
					if rng.IntN(16) < density {
						tb[j][k] |= 1 << bit
					}
				}
			}
		}
		for k := range pool {
			pool[k] = byte(rng.Uint32())
		}
		if round%3 == 0 { // few distinct bytes: more positions pass
			for k := range pool {
				pool[k] = "\x00\xffab\x80\x0f\xf0["[pool[k]&7]
			}
		}
		off := rng.IntN(64)
		n := []int{0, 1, 18, 19, 20, 34, 35, 36, 51, 300, 4000}[rng.IntN(11)] + rng.IntN(3)
		n = min(n, len(pool)-off)
		data := pool[off : off+n]
		room := scan.VectorMinHits + rng.IntN(256-scan.VectorMinHits+1)
		for k := range outBuf {
			outBuf[k] = sentinel
		}
		out := outBuf[guard : guard+room]
		gn, gstop := f(data, &tb, out)
		wn, wstop := reference(data, &tb, refOut[:room])
		if gn != wn || gstop != wstop || !slices.Equal(out[:gn], refOut[:wn]) {
			t.Fatalf("round %d (%d bytes at %d, room %d, density %d): kernel (%d, %d) %v\nreference (%d, %d) %v",
				round, n, off, room, density, gn, gstop, out[:gn], wn, wstop, refOut[:wn])
		}
		for k := range outBuf {
			if (k < guard || k >= guard+gn) && outBuf[k] != sentinel {
				t.Fatalf("round %d: the kernel wrote hit slot %d (room %d, %d hits)", round, k-guard, room, gn)
			}
		}
	}
}

// withAndWithout returns CandidateLines of data with the kernel registered
// and with the portable scan.
func withAndWithout(data []byte) (vec, words []int) {
	if !Register() {
		panic("no kernel")
	}
	vec = scan.CandidateLines(data, []int{-1})
	scan.SetVectorFilter(nil)
	words = scan.CandidateLines(data, []int{-1})
	return vec, words
}

func compare(t *testing.T, what string, data []byte) {
	t.Helper()
	vec, words := withAndWithout(data)
	if !slices.Equal(vec, words) {
		t.Fatalf("%s (%d bytes): with the kernel %d lines, without %d; first difference at %d",
			what, len(data), len(vec)-1, len(words)-1, firstDiff(vec, words))
	}
}

func firstDiff(a, b []int) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestCandidateLinesFixtures: the plogs of testdata/ and of the generator's
// profiles, whole and as unaligned pieces cut anywhere.
func TestCandidateLinesFixtures(t *testing.T) {
	kernel(t)
	defer scan.SetVectorFilter(nil)
	var files []string
	for _, dir := range []string{"../../testdata/samples", "../../testdata/gen"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".md") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 10 {
		t.Fatalf("only %d fixture files", len(files))
	}
	rng := rand.New(rand.NewPCG(13, 14))
	check := func(what string, data []byte) {
		compare(t, what, data)
		for range 5 {
			a := rng.IntN(len(data) + 1)
			b := a + rng.IntN(len(data)-a+1)
			compare(t, fmt.Sprintf("%s[%d:%d]", what, a, b), data[a:b])
		}
	}
	lines := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(f, data)
		lines += len(scan.CandidateLines(data, nil))
	}
	for _, name := range []string{"basic", "mixed", "conflicts", "pool", "hostile", "large"} {
		data, err := gen.Log(name, 6<<20)
		if err != nil {
			t.Fatal(err)
		}
		check("profile "+name, data)
		lines += len(scan.CandidateLines(data, nil))
	}
	if lines < 10000 {
		t.Errorf("only %d candidate lines in the fixtures", lines)
	}
}

// adversarial are the hard cases for the hand-over between the kernel and
// Go: each marker at every offset across the first vectors, as the last
// bytes, cut, after its own prefix, on CRLF and NUL lines; hits by the
// ten thousand (more than one output buffer), in one line and in many.
func adversarial() []string {
	var out []string
	for _, m := range gelog.Markers {
		for pad := 0; pad < 40; pad++ {
			x := strings.Repeat("x", pad)
			out = append(out, x+m, x+m+"\n"+x, x+m[:len(m)-1], x+m[:len(m)/2]+m, x+m+m[1:]+m,
				x+"\r\n"+m+"\r\n", x+"\x00"+m+"\x00\n", x+"\n"+m[:len(m)-1]+"\n"+m[1:])
		}
	}
	return append(out,
		strings.Repeat("Free block ", 40000)+"\n"+strings.Repeat("[IMA", 40000)+"\n[IMAS]",
		strings.Repeat("Free block \n", 40000)+"Reuse result:",
		strings.Repeat("[IMAS]\r\n", 30000),
		strings.Repeat("\x00", 100000)+"MallocMemory",
		strings.Repeat("MallocMemory", 20000)+strings.Repeat("\n", 30)+"MallocMemor")
}

func TestCandidateLinesAdversarial(t *testing.T) {
	kernel(t)
	defer scan.SetVectorFilter(nil)
	for i, s := range adversarial() {
		compare(t, fmt.Sprintf("case %d %.30q", i, s), []byte(s))
	}
}

// TestKernelFuzz compares the two scans on random buffers for
// -wasmsimd.fuzztime: noise from a random alphabet (with all 256 bytes
// possible), markers whole, cut and glued together, random line ends.
const markerBytes = " \n\r\x00[]:_IMASFreblockMalcy"

func TestKernelFuzz(t *testing.T) {
	kernel(t)
	defer scan.SetVectorFilter(nil)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 15))
	rounds := 0
	for end := time.Now().Add(*fuzzTime); time.Now().Before(end); rounds++ {
		alpha := make([]byte, 1+rng.IntN(24))
		for k := range alpha {
			alpha[k] = byte(rng.Uint32())
			if rng.IntN(2) == 0 {
				alpha[k] = markerBytes[rng.IntN(len(markerBytes))]
			}
		}
		var b []byte
		for n := rng.IntN(200); n > 0; n-- {
			for k := rng.IntN(80); k > 0; k-- {
				b = append(b, alpha[rng.IntN(len(alpha))])
			}
			if rng.IntN(3) == 0 {
				m := gelog.Markers[rng.IntN(len(gelog.Markers))]
				switch rng.IntN(4) {
				case 0:
					m = m[:rng.IntN(len(m))]
				case 1:
					m = m[rng.IntN(len(m)):]
				}
				b = append(b, m...)
			}
			if rng.IntN(4) == 0 {
				b = append(b, '\n')
			}
		}
		off := rng.IntN(len(b) + 1)
		vec, words := withAndWithout(b[off:])
		if !slices.Equal(vec, words) {
			t.Fatalf("seed %d round %d: %q\nwith the kernel %v\nwithout %v", seed, rounds, b[off:], vec, words)
		}
	}
	t.Logf("%d rounds", rounds)
}

// probeData is $PROBE (a plog), else 32 MB of the "large" profile.
func probeData(b *testing.B) []byte {
	if p := os.Getenv("PROBE"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	data, err := gen.Log("large", 32<<20)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// chunks cuts data as the pipeline reads it: 4 MiB of whole lines.
func chunks(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		n := len(data)
		if n > input.ChunkSize {
			n = bytes.LastIndexByte(data[:input.ChunkSize], '\n') + 1
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

// BenchmarkCandidateLines scans probeData's chunks with the portable word
// pass and with the kernel.
func BenchmarkCandidateLines(b *testing.B) {
	data := probeData(b)
	cs := chunks(data)
	for _, withKernel := range []bool{false, true} {
		name := "words"
		if withKernel {
			name = "kernel"
		}
		b.Run(name, func(b *testing.B) {
			if withKernel && !Register() {
				b.Skip("no kernel")
			}
			defer scan.SetVectorFilter(nil)
			b.SetBytes(int64(len(data)))
			var dst []int
			for range b.N {
				for _, c := range cs {
					dst = scan.CandidateLines(c, dst[:0])
				}
			}
		})
	}
}

// BenchmarkKernel is the kernel alone over probeData's chunks, with tables
// for every marker's first window.
func BenchmarkKernel(b *testing.B) {
	f := kernel(b)
	var tb scan.VectorTables
	for i, m := range gelog.Markers {
		for j := 0; j < window; j++ {
			tb[j][m[j]&15] |= 1 << (i % 8)
			tb[window+j][m[j]>>4] |= 1 << (i % 8)
		}
	}
	data := probeData(b)
	cs := chunks(data)
	out := make([]scan.VectorHit, 16<<10)
	b.SetBytes(int64(len(data)))
	hits := 0
	for range b.N {
		for _, c := range cs {
			for pos := 0; len(c)-pos >= minData; {
				n, stop := f(c[pos:], &tb, out)
				hits += n
				pos += stop
			}
		}
	}
	b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
}

// BenchmarkAnalyze is core.Analyze on probeData, with the portable scan
// and with the kernel.
func BenchmarkAnalyze(b *testing.B) {
	data := probeData(b)
	for _, withKernel := range []bool{false, true} {
		name := "words"
		if withKernel {
			name = "kernel"
		}
		b.Run(name, func(b *testing.B) {
			if withKernel && !Register() {
				b.Skip("no kernel")
			}
			defer scan.SetVectorFilter(nil)
			b.SetBytes(int64(len(data)))
			for range b.N {
				src := []input.Source{input.BytesSource("probe.log", data)}
				if _, err := core.Analyze(context.Background(), src, core.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
