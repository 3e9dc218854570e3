package input

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
)

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

type tarEntry struct {
	name string
	typ  byte
	body string
}

func tarball(entries []tarEntry) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: 0o644, Size: int64(len(e.body))}
		if e.typ != tar.TypeReg {
			h.Size = 0
			h.Linkname = "/etc/passwd"
		}
		tw.WriteHeader(h)
		if e.typ == tar.TypeReg {
			tw.Write([]byte(e.body))
		}
	}
	tw.Close()
	return buf.Bytes()
}

func zipball(files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range []string{"a.log", "../evil.log", "b/c.log"} {
		if body, ok := files[n]; ok {
			w, _ := zw.Create(n)
			w.Write([]byte(body))
		}
	}
	zw.Close()
	return buf.Bytes()
}

// leaves walks src and returns each leaf's path and full text.
func leaves(t *testing.T, src Source, lim Limits) (map[string]string, []Diag, []error) {
	t.Helper()
	got := map[string]string{}
	var diags []Diag
	var errs []error
	Walk(src, lim, func(l Leaf) error {
		var b strings.Builder
		_, err := Chunks(l.R, 1<<16, true, func(c *Chunk) error {
			b.Write(c.Data)
			c.Release()
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
		got[l.Path] = b.String()
		return nil
	}, func(d Diag) { diags = append(diags, d) })
	return got, diags, errs
}

func TestWalkFormats(t *testing.T) {
	text := "line1\nline2\r\nlast-no-newline"
	want := "line1\nline2\r\nlast-no-newline\n"
	tests := []struct {
		name      string
		data      []byte
		wantPaths []string
		wantDiag  []string
	}{
		{"plain", []byte(text), []string{"x"}, nil},
		{"gzip", gz([]byte(text)), []string{"x"}, nil},
		{"tar", tarball([]tarEntry{{"plog/a.log", tar.TypeReg, text}}), []string{"x!plog/a.log"}, nil},
		{"tar.gz hostile", gz(tarball([]tarEntry{
			{"plog/a.log", tar.TypeReg, text},
			{"../escape.log", tar.TypeReg, text},
			{"/abs.log", tar.TypeReg, text},
			{"link.log", tar.TypeSymlink, ""},
			{"dev", tar.TypeChar, ""},
		})), []string{"x!plog/a.log"}, []string{"unsafe-member", "unsafe-member", "unsafe-member", "unsafe-member"}},
		{"zip", zipball(map[string]string{"a.log": text, "../evil.log": text, "b/c.log": text}), []string{"x!a.log", "x!b/c.log"}, []string{"unsafe-member"}},
		{"gz of gz", gz(gz([]byte(text))), []string{"x"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, diags, errs := leaves(t, BytesSource("x", tc.data), Limits{})
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if len(got) != len(tc.wantPaths) {
				t.Fatalf("leaves %v, want %v", got, tc.wantPaths)
			}
			for _, p := range tc.wantPaths {
				if got[p] != want {
					t.Errorf("%s = %q, want %q", p, got[p], want)
				}
			}
			if len(diags) != len(tc.wantDiag) {
				t.Fatalf("diags %v, want %v", diags, tc.wantDiag)
			}
			for i, d := range diags {
				if d.Reason != tc.wantDiag[i] {
					t.Errorf("diag %d = %v", i, d)
				}
			}
		})
	}
}

func TestTruncatedGzipKeepsWhatWasRead(t *testing.T) {
	var text strings.Builder
	for i := 0; i < 20000; i++ {
		text.WriteString("[INFO] GE(1,p):2026-01-01-00:00:00.000.000 [a.cc:1]1 F:some line of text that repeats\n")
	}
	z := gz([]byte(text.String()))
	cut := z[:len(z)*2/3]
	got, _, errs := leaves(t, BytesSource("t.log.gz", cut), Limits{})
	if len(errs) != 1 {
		t.Fatalf("want one read error, got %v", errs)
	}
	var re *ReadError
	if !errors.As(errs[0], &re) || re.Path != "t.log.gz" {
		t.Errorf("error %v does not name the archive", errs[0])
	}
	if n := len(got["t.log.gz"]); n == 0 || n >= text.Len() {
		t.Errorf("read %d of %d bytes", n, text.Len())
	}
}

func TestBombLimit(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 1<<16) // 1.1 MB, compresses ~300x
	_, _, errs := leaves(t, BytesSource("b.gz", gz(big)), Limits{MaxExpanded: 1 << 20})
	if len(errs) != 1 || !errors.Is(errs[0], ErrBomb) {
		t.Fatalf("want ErrBomb, got %v", errs)
	}
	_, _, errs = leaves(t, BytesSource("b.gz", gz(big)), Limits{MaxRatio: 10, RatioFloor: 1 << 10})
	if len(errs) != 1 || !errors.Is(errs[0], ErrBomb) {
		t.Fatalf("want ErrBomb by ratio, got %v", errs)
	}
}

func TestChunksLongLines(t *testing.T) {
	huge := strings.Repeat("x", ChunkSize+12345)
	in := "a\n" + huge + "\nb\n" + strings.Repeat("y", 70000) + "\nc"
	var lines []string
	var cuts int
	st, err := Chunks(strings.NewReader(in), 1000, true, func(c *Chunk) error {
		cuts += len(c.Cut)
		for _, l := range strings.SplitAfter(string(c.Data), "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
		c.Release()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes != int64(len(in)) {
		t.Errorf("bytes %d, want %d", st.Bytes, len(in))
	}
	if len(lines) != 5 || lines[0] != "a\n" || lines[2] != "b\n" || lines[4] != "c\n" {
		t.Fatalf("lines: %d %q", len(lines), short(lines))
	}
	if len(lines[1]) != 1001 || cuts != 1 {
		t.Errorf("huge line kept %d bytes, %d cuts", len(lines[1]), cuts)
	}
	if len(lines[3]) != 70001 {
		t.Errorf("70000-byte line became %d", len(lines[3]))
	}
}

func TestChunksSplitAcrossReads(t *testing.T) {
	// A reader returning one byte at a time must give the same lines.
	in := "one\ntwo\r\nthree"
	var got strings.Builder
	_, err := Chunks(io.MultiReader(oneByte{strings.NewReader(in)}), 100, true, func(c *Chunk) error {
		got.Write(c.Data)
		return nil
	})
	if err != nil || got.String() != "one\ntwo\r\nthree\n" {
		t.Fatalf("%q %v", got.String(), err)
	}
}

func TestSameContentSameHash(t *testing.T) {
	text := []byte("a\nb\n")
	h := func(b []byte) uint64 {
		var out uint64
		Walk(BytesSource("x", b), Limits{}, func(l Leaf) error {
			st, _ := Chunks(l.R, 100, true, func(c *Chunk) error { return nil })
			out = st.Hash
			return nil
		}, func(Diag) {})
		return out
	}
	if h(text) != h(gz(text)) || h(text) == h([]byte("a\nc\n")) {
		t.Fatal("content hash does not identify content")
	}
}

type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:1]) }

func short(ls []string) []string {
	var out []string
	for _, l := range ls {
		if len(l) > 20 {
			l = l[:20] + "..."
		}
		out = append(out, l)
	}
	return out
}

// TestBlockHashIgnoresReadSizes hashes the same bytes written in different
// pieces (a plain file and a decompressor split reads differently).
func TestBlockHashIgnoresReadSizes(t *testing.T) {
	data := make([]byte, 3*hashBlock+777)
	for i := range data {
		data[i] = byte(i * 7 % 251)
	}
	hashOf := func(pieces ...int) uint64 {
		h := blockHash{}
		p := data
		for _, n := range pieces {
			h.Write(p[:n])
			p = p[n:]
		}
		h.Write(p)
		return h.sum64()
	}
	want := hashOf()
	for _, pieces := range [][]int{{1}, {hashBlock}, {hashBlock - 1, 2}, {5, 32 << 10, 100000}, {0, 0, 3}} {
		if got := hashOf(pieces...); got != want {
			t.Errorf("pieces %v: hash %x, want %x", pieces, got, want)
		}
	}
	other := blockHash{}
	other.Write(data[:len(data)-1])
	other.Write([]byte{data[len(data)-1] + 1})
	if other.sum64() == want {
		t.Error("a changed last byte kept the hash")
	}
	short := blockHash{}
	short.Write(data[:len(data)-1])
	if short.sum64() == want {
		t.Error("a shorter input kept the hash")
	}
}
