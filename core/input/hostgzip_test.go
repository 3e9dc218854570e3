package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// chromiumHost inflates like Chromium's DecompressionStream: one gzip
// member, then an error if anything follows it ("Junk found after end of
// compressed data"); failAt > 0 makes it fail after that many bytes too,
// as any host may. It counts the compressed bytes it consumed.
type chromiumHost struct {
	src    *bytes.Reader
	zr     *gzip.Reader
	got    int64
	failAt int64
	err    error
}

func newChromiumHost(b []byte, failAt int64) *chromiumHost {
	h := &chromiumHost{src: bytes.NewReader(b), failAt: failAt}
	zr, err := gzip.NewReader(h.src)
	if err != nil {
		h.err = err
		return h
	}
	zr.Multistream(false)
	h.zr = zr
	return h
}

func (h *chromiumHost) Read(p []byte) (int, error) {
	if h.err != nil {
		return 0, h.err
	}
	if h.failAt > 0 {
		if h.got >= h.failAt {
			return 0, errors.New("host: failing on purpose")
		}
		p = p[:min(int64(len(p)), h.failAt-h.got)]
	}
	n, err := h.zr.Read(p)
	h.got += int64(n)
	if err == io.EOF && h.src.Len() > 0 {
		err = errors.New("Junk found after end of compressed data.")
	}
	return n, err
}

func (h *chromiumHost) Compressed() int64 { return h.src.Size() - int64(h.src.Len()) }
func (h *chromiumHost) Close() error      { return nil }

// withHost is src with a host inflater of its bytes.
func withHost(src Source, b []byte, failAt int64, opened *int) Source {
	src.Inflate = func() (HostInflater, error) {
		*opened++
		return newChromiumHost(b, failAt), nil
	}
	return src
}

// TestHostInflateMatchesGo: whatever the host does (inflate all of a
// single-member file, stop at the second member, fail anywhere), a gzip
// source gives the leaves, the text, the read errors and the diagnostics
// that Go's inflater alone gives.
func TestHostInflateMatchesGo(t *testing.T) {
	text := logText(3000)
	one := gz([]byte(text))
	multi := append(gz([]byte(text[:len(text)/3])), gz([]byte(text[len(text)/3:]))...)
	corrupt := bytes.Clone(one)
	corrupt[len(corrupt)/2] ^= 0x5a
	badCRC := bytes.Clone(one)
	badCRC[len(badCRC)-6] ^= 1
	tgz := gz(tarball([]tarEntry{{"plog/a.log", '0', text[:5000]}, {"plog/b.log", '0', text[5000:]}}))
	inputs := []struct {
		name string
		b    []byte
	}{
		{"one member", one},
		{"two members", multi},
		{"zeros after the member", append(bytes.Clone(one), make([]byte, 600)...)},
		{"truncated", one[:len(one)*2/3]},
		{"corrupt deflate", corrupt},
		{"bad checksum", badCRC},
		{"header only", one[:10]},
		{"bad header", append([]byte{0x1f, 0x8b, 99}, one[3:]...)},
		{"tar.gz", tgz},
	}
	for _, in := range inputs {
		name := "x.log.gz"
		if in.name == "tar.gz" {
			name = "x.tgz"
		}
		want, wantDiags, wantErrs := leaves(t, BytesSource(name, in.b), Limits{})
		for _, failAt := range []int64{0, 1, 4093, int64(len(text) / 2)} {
			t.Run(fmt.Sprintf("%s/fail at %d", in.name, failAt), func(t *testing.T) {
				opened := 0
				got, diags, errs := leaves(t, withHost(BytesSource(name, in.b), in.b, failAt, &opened), Limits{})
				if !reflect.DeepEqual(got, want) {
					t.Errorf("leaves differ from Go's inflater: %d leaves %v, want %d %v", len(got), short(keys(got)), len(want), short(keys(want)))
				}
				if !reflect.DeepEqual(diags, wantDiags) {
					t.Errorf("diagnostics %+v, want %+v", diags, wantDiags)
				}
				if fmt.Sprint(errs) != fmt.Sprint(wantErrs) {
					t.Errorf("read errors %v, want %v", errs, wantErrs)
				}
				if !strings.HasPrefix(in.name, "bad header") && opened != 1 {
					t.Errorf("host opened %d times, want once", opened)
				}
			})
		}
	}
}

func keys(m map[string]string) []string {
	var ks []string
	for k, v := range m {
		ks = append(ks, fmt.Sprintf("%s:%d", k, len(v)))
	}
	return ks
}

// TestHostInflateBombLimit: the ratio limit sees the host's count of
// compressed bytes, so a bomb inflated by the host stops like one inflated
// by Go.
func TestHostInflateBombLimit(t *testing.T) {
	data := gzipBytes(make([]byte, 64<<20))
	lim := Limits{MaxRatio: 50, RatioFloor: 1 << 20}
	opened := 0
	src := withHost(BytesSource("z.log.gz", data), data, 0, &opened)
	var readErr error
	err := Walk(src, lim, func(l Leaf) error {
		_, readErr = Chunks(l.R, 1<<16, true, func(c *Chunk) error { c.Release(); return nil })
		return nil
	}, func(Diag) {})
	if opened != 1 || !errors.Is(err, ErrBomb) || !errors.Is(readErr, ErrBomb) {
		t.Errorf("host opened %d times, Walk %v, read %v: want the bomb stopped through the host", opened, err, readErr)
	}
	// And text that expands less than the limit passes: the walker must not
	// compare against the few bytes Go read itself (the header).
	text := []byte(logText(40000))
	data = gz(text)
	lim = Limits{MaxRatio: 40, RatioFloor: 1 << 20}
	if r := float64(len(text)) / float64(len(data)); r > 35 || len(text) < 2<<20 {
		t.Fatalf("test text: %d bytes, ratio %.1f: want > 2 MiB at a ratio under 35", len(text), r)
	}
	got, _, errs := leaves(t, withHost(BytesSource("t.log.gz", data), data, 0, &opened), lim)
	if len(errs) != 0 || len(got["t.log.gz"]) != len(text) {
		t.Errorf("read errors %v, %d of %d bytes: want all of a text below the ratio limit", errs, len(got["t.log.gz"]), len(text))
	}
}
