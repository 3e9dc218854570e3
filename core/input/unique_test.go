package input

import (
	"hash/maphash"
	"os"
	"path/filepath"
	"testing"
)

func TestMarkUnique(t *testing.T) {
	seed := maphash.MakeSeed()
	dir := t.TempDir()
	file := func(name, text string) Source {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return FileSource(p)
	}
	a, b := file("a.log", "line one\n"), file("b.log", "a longer line\n")
	same := file("same.log", "line two\n") // a's size, another text
	copied := file("copy.log", "line one\n")
	gzipped := file("c.log.gz", string(gz([]byte("line one\n"))))
	tarred := file("d.tar", string(tarball([]tarEntry{{"x.log", '0', "line one\n"}})))
	gone := file("gone.log", "x")
	os.Remove(filepath.Join(dir, "gone.log"))
	for _, tc := range []struct {
		name   string
		srcs   []Source
		unique []bool
	}{
		{"distinct sizes", []Source{a, b}, []bool{true, true}},
		{"a size twice, other texts", []Source{a, b, same}, []bool{true, true, true}},
		{"a text twice", []Source{a, b, copied}, []bool{false, true, false}},
		{"the same file twice", []Source{a, a}, []bool{false, false}},
		{"a gzip file among them", []Source{a, b, gzipped}, []bool{false, false, false}},
		{"a tar among them", []Source{tarred, b}, []bool{false, false}},
		{"a source not on disk", []Source{a, BytesSource("x.log", []byte("line one\n"))}, []bool{false, false}},
		{"a file gone", []Source{a, gone}, []bool{false, false}},
	} {
		got := MarkUnique(tc.srcs, func(i int) (uint64, bool) {
			head, ok := Head(tc.srcs[i], 512)
			return maphash.Bytes(seed, head), ok
		})
		for i, s := range got {
			if s.Unique != tc.unique[i] {
				t.Errorf("%s: %s unique %v, want %v", tc.name, s.Name, s.Unique, tc.unique[i])
			}
		}
	}
}

// TestUniqueLeavesAreNotHashed: the walk passes Unique on to the leaf of a
// plain file, and Chunks without hash counts the bytes only.
func TestUniqueLeavesAreNotHashed(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.log")
	os.WriteFile(p, []byte("one\ntwo\n"), 0o644)
	for _, unique := range []bool{false, true} {
		src := FileSource(p)
		src.Unique = unique
		var st ReadStats
		Walk(src, Limits{}, func(l Leaf) error {
			if l.Unique != unique {
				t.Errorf("leaf unique %v, source %v", l.Unique, unique)
			}
			st, _ = Chunks(l.R, 1<<16, !l.Unique, func(c *Chunk) error { c.Release(); return nil })
			return nil
		}, func(Diag) {})
		if st.Bytes != 8 || st.Hashed == unique {
			t.Errorf("unique %v: stats %+v", unique, st)
		}
	}
}
