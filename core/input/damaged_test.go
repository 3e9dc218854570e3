package input

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const rawStore = 0xffff

// logText is n numbered lines: any cut shows in the line count.
func logText(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[INFO] GE(1,p):2026-01-01-00:00:00.000.000 [a.cc:1]1 F:line %d of a damaged archive\n", i)
	}
	return b.String()
}

// zipOf zips files (name, text). Go's writer puts sizes in data
// descriptors after each member; raw stored members carry them in their
// local header, as most zip tools write them.
func zipOf(t *testing.T, method uint16, files ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		var w io.Writer
		var err error
		if method == rawStore {
			w, err = zw.CreateRaw(&zip.FileHeader{Name: f[0], Method: zip.Store, CRC32: crc32.ChecksumIEEE([]byte(f[1])),
				CompressedSize64: uint64(len(f[1])), UncompressedSize64: uint64(len(f[1]))})
		} else {
			w, err = zw.CreateHeader(&zip.FileHeader{Name: f[0], Method: method})
		}
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(f[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Damaged archives: what can be read is used, and the damage is reported
// with the path of the member it hit.
func TestDamagedArchives(t *testing.T) {
	a, b := logText(300), logText(500)
	tarball := tarball([]tarEntry{{"a.log", tar.TypeReg, a}, {"b.log", tar.TypeReg, b}})
	zipped := zipOf(t, zip.Deflate, [2]string{"a.log", a}, [2]string{"b.log", b})
	stored := zipOf(t, rawStore, [2]string{"a.log", a}, [2]string{"b.log", b})
	streamed := zipOf(t, zip.Store, [2]string{"a.log", a}, [2]string{"b.log", b})
	bodyB := bytes.Index(zipped, []byte("b.log")) + 100 // inside b.log's deflate data
	corrupt := bytes.Clone(zipped)
	for i := bodyB; i < bodyB+64; i++ {
		corrupt[i] ^= 0x55
	}
	central := func(z []byte) int { return bytes.Index(z, []byte("PK\x01\x02")) }
	tests := []struct {
		name     string
		data     []byte
		complete []string // leaves read whole
		partial  []string // leaves cut short, with a read error
		diag     string   // reason of the one diagnostic wanted ("" none)
	}{
		{"tar cut inside its second member", tarball[:len(tarball)-2048], []string{"x!a.log"}, []string{"x!b.log"}, "corrupt-archive"},
		{"tar.gz cut", gz(tarball)[:len(gz(tarball))*3/4], []string{"x!a.log"}, []string{"x!b.log"}, "corrupt-archive"},
		{"zip with a corrupt member", corrupt, []string{"x!a.log"}, []string{"x!b.log"}, ""},
		{"zip cut before its central directory", zipped[:central(zipped)], []string{"x!a.log", "x!b.log"}, nil, "corrupt-archive"},
		{"zip cut inside its second member", zipped[:bodyB], []string{"x!a.log"}, []string{"x!b.log"}, "corrupt-archive"},
		{"stored zip cut before its central directory", stored[:central(stored)], []string{"x!a.log", "x!b.log"}, nil, "corrupt-archive"},
		{"stored zip cut inside its second member", stored[:len(stored)-len(b)], []string{"x!a.log"}, []string{"x!b.log"}, "corrupt-archive"},
		// Stored members followed by a data descriptor have no size to find
		// the next header by: reported, not guessed.
		{"stored zip with data descriptors, cut", streamed[:central(streamed)], nil, nil, "corrupt-archive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, diags, errs := leaves(t, BytesSource("x", tc.data), Limits{})
			want := map[string]string{"x!a.log": a, "x!b.log": b}
			for _, p := range tc.complete {
				if got[p] != want[p] {
					t.Errorf("%s: %d of %d bytes", p, len(got[p]), len(want[p]))
				}
			}
			for _, p := range tc.partial {
				if n := len(got[p]); n == 0 || n >= len(want[p]) {
					t.Errorf("%s: %d of %d bytes, want a readable head", p, n, len(want[p]))
				}
			}
			if len(got) != len(tc.complete)+len(tc.partial) {
				t.Errorf("leaves %d, want %d", len(got), len(tc.complete)+len(tc.partial))
			}
			if len(errs) != len(tc.partial) {
				t.Errorf("read errors %v, want %d", errs, len(tc.partial))
			}
			if (tc.diag == "") != (len(diags) == 0) || (len(diags) > 0 && (diags[0].Reason != tc.diag || diags[0].Path != "x")) {
				t.Errorf("diagnostics %+v, want %q", diags, tc.diag)
			}
		})
	}
}

// A big zip on disk is read through ReadAt, not through the stream that
// counts compressed bytes; the ratio limit must still see those bytes, or
// every zip of more than RatioFloor looks like a bomb.
func TestZipFileRatio(t *testing.T) {
	var text strings.Builder
	for i := range 60000 {
		fmt.Fprintf(&text, "%d %x %o line of a plog that compresses a few times only\n", i, i*7919, i*104729)
	}
	name := filepath.Join(t.TempDir(), "plog.zip")
	z := zipOf(t, zip.Deflate, [2]string{"plog.log", text.String()})
	if err := os.WriteFile(name, z, 0o644); err != nil {
		t.Fatal(err)
	}
	lim := Limits{RatioFloor: 1 << 20, MaxRatio: 30}
	if ratio := text.Len() / len(z); ratio >= 30 || len(z) < 256<<10 {
		t.Fatalf("fixture compresses %dx into %d bytes; want a modest ratio and more than a read buffer", ratio, len(z))
	}
	got, _, errs := leaves(t, FileSource(name), lim)
	if len(errs) > 0 || got[name+"!plog.log"] != text.String() {
		t.Errorf("errors %v; read %d of %d bytes", errs, len(got[name+"!plog.log"]), text.Len())
	}
	_, _, errs = leaves(t, FileSource(name), Limits{RatioFloor: 1 << 20, MaxRatio: 1.5})
	if len(errs) != 1 || !errors.Is(errs[0], ErrBomb) {
		t.Errorf("a ratio limit below the real ratio must still trip: %v", errs)
	}
}

// Archives nested deeper than MaxDepth are read as text, and said so.
func TestNestingLimit(t *testing.T) {
	text := logText(3)
	nest := func(wrap func([]byte) []byte) []byte {
		b := []byte(text)
		for range 3 {
			b = wrap(b)
		}
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"gzip", nest(gz)},
		{"tar", nest(func(b []byte) []byte { return tarball([]tarEntry{{"in", tar.TypeReg, string(b)}}) })},
		{"zip", nest(func(b []byte) []byte { return zipOf(t, zip.Deflate, [2]string{"in", string(b)}) })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, diags, _ := leaves(t, BytesSource("x", tc.data), Limits{MaxDepth: 2})
			if len(diags) != 1 || diags[0].Reason != "nesting-limit" || len(got) != 1 {
				t.Errorf("leaves %d, diagnostics %+v; want one leaf read as text and a nesting-limit", len(got), diags)
			}
			got, diags, _ = leaves(t, BytesSource("x", tc.data), Limits{MaxDepth: 3})
			if len(got) != 1 || len(diags) != 0 {
				t.Fatalf("within the limit: leaves %v, diagnostics %+v", got, diags)
			}
			for _, v := range got {
				if v != text {
					t.Errorf("within the limit: read %q", v)
				}
			}
		})
	}
}

// A directory is read file by file; what is not a regular file is named,
// not silently dropped, and links are not followed.
// A link inside a folder is followed; one to something that is not a
// regular file or folder is named, not read.
func TestFromPathsLinksInFolders(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	for _, p := range []string{filepath.Join(dir, "a.log"), filepath.Join(elsewhere, "b.log")} {
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(elsewhere, "b.log"), filepath.Join(dir, "link.log")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Symlink("/dev/null", filepath.Join(dir, "null.log")); err != nil {
		t.Fatal(err)
	}
	srcs, diags := FromPaths([]string{dir})
	if len(srcs) != 2 || srcs[0].Name != filepath.Join(dir, "a.log") || srcs[1].Name != filepath.Join(dir, "link.log") {
		t.Errorf("sources %v", srcs)
	}
	if len(diags) != 1 || diags[0].Path != filepath.Join(dir, "null.log") || diags[0].Reason != "unreadable" {
		t.Errorf("diagnostics %+v, want the device link named", diags)
	}
}
