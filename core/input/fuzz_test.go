package input

import (
	"archive/tar"
	"testing"
)

// FuzzWalk feeds arbitrary bytes as a source: gzip, tar and zip readers must
// fail gracefully, never panic, and never expand past the limits.
func FuzzWalk(f *testing.F) {
	f.Add([]byte("plain\ntext\r\n"))
	f.Add(gz([]byte("a\nb\n")))
	f.Add(tarball([]tarEntry{{"a.log", tar.TypeReg, "x\ny\n"}, {"../b", tar.TypeReg, "z"}}))
	f.Add(gz(tarball([]tarEntry{{"a.log", tar.TypeReg, "x\n"}, {"l", tar.TypeSymlink, ""}})))
	f.Add(zipball(map[string]string{"a.log": "q\n", "../evil.log": "r\n"}))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxExpanded: 8 << 20, MaxZipSpool: 8 << 20}
		var total int64
		Walk(BytesSource("f", data), lim, func(l Leaf) error {
			st, _ := Chunks(l.R, 4096, true, func(c *Chunk) error {
				if len(c.Data) == 0 || c.Data[len(c.Data)-1] != '\n' {
					t.Fatalf("chunk does not end in a newline")
				}
				c.Release()
				return nil
			})
			total += st.Bytes
			return nil
		}, func(Diag) {})
		if total > 8<<20+ChunkSize {
			t.Fatalf("expanded %d bytes past the limit", total)
		}
	})
}
