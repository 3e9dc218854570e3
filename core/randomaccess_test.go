package core

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"imas/core/input"
)

// TestRandomAccessSourcesReadSideBySide: sources that are not files on
// disk but say they are random access (input.Source.RandomAccess: the
// page's browser Files) are planned as files on disk are: read side by
// side, about a chunk per process waiting, with the report of the merge
// after the last file. The same bytes as streams (not RandomAccess) are
// built in order as far as that holds and every chunk is kept to the end.
func TestRandomAccessSourcesReadSideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MiB of logs")
	}
	dir, procs := fourRanks(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	inMemory := func(randomAccess bool) []input.Source {
		var srcs []input.Source
		for _, path := range paths {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, input.Source{Name: path, Size: int64(len(b)), RandomAccess: randomAccess,
				Open: func() (io.ReadCloser, error) {
					// Short reads, as a browser's slices give.
					return io.NopCloser(iotest.HalfReader(bytes.NewReader(b))), nil
				}})
		}
		return srcs
	}
	files, _ := input.FromPaths([]string{dir})
	want, all := analyzeHeld(t, files, Options{alwaysMerge: true})
	got, held := analyzeHeld(t, inMemory(true), Options{})
	sameReport(t, got, want)
	if held > 2*procs || all < 2*held {
		t.Errorf("random access: %d files of %d processes: %d parsed chunks held at once, %d by the merge after the last file", len(paths), procs, held, all)
	}
	streamed, kept := analyzeHeld(t, inMemory(false), Options{})
	sameReport(t, streamed, want)
	if kept < all {
		t.Errorf("streams: %d parsed chunks held at once, want every one of the %d", kept, all)
	}
}
