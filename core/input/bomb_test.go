package input

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// countingSource is a Source over b that records how much of it was read.
func countingSource(name string, b []byte, read *int) Source {
	return Source{Name: name, Size: int64(len(b)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(readCounter{bytes.NewReader(b), read}), nil
	}}
}

type readCounter struct {
	r io.Reader
	n *int
}

func (c readCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += n
	return n, err
}

// bombTarGz is a tar.gz with one member of size zeros followed by a small
// "after.log". It is built as a multistream gzip of one compressed MiB of
// zeros repeated, so that a big bomb costs the test almost nothing.
func bombTarGz(t *testing.T, name string, typ byte, size int64) []byte {
	t.Helper()
	var head bytes.Buffer
	tw := tar.NewWriter(&head)
	tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: size, Typeflag: typ})
	tw.Flush()
	var tail bytes.Buffer
	tw = tar.NewWriter(&tail)
	tw.WriteHeader(&tar.Header{Name: "after.log", Mode: 0o644, Size: 6, Typeflag: tar.TypeReg})
	tw.Write([]byte("after\n"))
	tw.Close()
	const mib = 1 << 20
	if size%mib != 0 {
		t.Fatal("size must be whole MiB")
	}
	zeros := gzipBytes(make([]byte, mib))
	out := gzipBytes(head.Bytes())
	for range size / mib {
		out = append(out, zeros...)
	}
	return append(out, gzipBytes(tail.Bytes())...)
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// Once a source passes the expansion limit the walk must stop: before the
// fix, tar went on decompressing the rest of the bomb (to skip to the next
// header) and handed every later member to the parser.
func TestBombStopsTheWalk(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lim    Limits
		member string // the bomb's name in the tar
		typ    byte
		leaves []string
	}{
		{"total expanded bytes", Limits{MaxExpanded: 1 << 20}, "bomb.log", tar.TypeReg, []string{"b.tar!bomb.log"}},
		{"expansion ratio", Limits{MaxRatio: 50, RatioFloor: 1 << 20}, "bomb.log", tar.TypeReg, []string{"b.tar!bomb.log"}},
		// Members imas ignores are still decompressed to reach the next one.
		{"in an ignored ../ member", Limits{MaxExpanded: 1 << 20}, "../bomb.log", tar.TypeReg, nil},
		{"in a member of unknown type", Limits{MaxExpanded: 1 << 20}, "odd", 'Z', nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := bombTarGz(t, tc.member, tc.typ, 256<<20)
			read := 0
			var paths []string
			var diags []Diag
			err := Walk(countingSource("b.tgz", data, &read), tc.lim, func(l Leaf) error {
				paths = append(paths, l.Path)
				_, err := Chunks(l.R, 1<<16, true, func(c *Chunk) error { c.Release(); return nil })
				if !errors.Is(err, ErrBomb) {
					t.Errorf("%s: read error %v, want ErrBomb", l.Path, err)
				}
				return nil
			}, func(d Diag) { diags = append(diags, d) })
			if !errors.Is(err, ErrBomb) {
				t.Errorf("Walk returned %v, want ErrBomb", err)
			}
			if !slices.Equal(paths, tc.leaves) {
				t.Errorf("leaves %v, want %v", paths, tc.leaves)
			}
			if read > len(data)/4 {
				t.Errorf("read %d of %d compressed bytes after the limit tripped", read, len(data))
			}
			if len(diags) == 0 {
				t.Fatalf("no diagnostic")
			}
			last := diags[len(diags)-1]
			if last.Reason != "bomb-limit" || last.Path != "b.tgz" || !strings.Contains(last.Detail, "not read") {
				t.Errorf("diagnostics %+v, want a bomb-limit saying what was skipped", diags)
			}
		})
	}
}

// A zip without its directory is read from its local headers: an ignored
// member must still be decompressed under the limits to find the next one.
func TestBombInCutZip(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	bomb, _ := zw.Create("../bomb.log")
	bomb.Write(make([]byte, 16<<20))
	after, _ := zw.Create("after.log")
	after.Write([]byte("after\n"))
	zw.Close()
	cut := buf.Bytes()[:bytes.Index(buf.Bytes(), []byte("PK\x01\x02"))]
	var paths []string
	var diags []Diag
	err := Walk(BytesSource("b.zip", cut), Limits{MaxExpanded: 1 << 20}, func(l Leaf) error {
		paths = append(paths, l.Path)
		return nil
	}, func(d Diag) { diags = append(diags, d) })
	if !errors.Is(err, ErrBomb) || len(paths) != 0 {
		t.Errorf("Walk: %v, leaves %v; want ErrBomb before after.log", err, paths)
	}
	if last := diags[len(diags)-1]; last.Reason != "bomb-limit" {
		t.Errorf("diagnostics %+v", diags)
	}
}
