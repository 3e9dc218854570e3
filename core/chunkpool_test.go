package core

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"imas/core/input"
	"imas/internal/gen"
)

// TestChunkMemoryReused: where the model is built in steps (plain files,
// one process rotated or several side by side), the tapes of chunks
// already built are handed to the chunks parsed next, and the report is
// the merge's; where chunks are kept for a redo (gzipped files, built in
// order on speculation), none is handed out again.
func TestChunkMemoryReused(t *testing.T) {
	dir := t.TempDir()
	log, err := gen.Log("large", 24<<20)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(log), "\n")
	var rotated, sideBySide, zipped []string
	for i := range 3 {
		part := strings.Join(lines[i*len(lines)/3:(i+1)*len(lines)/3], "")
		// Processes at the same time, read side by side (files of
		// different sizes: one that may be another's duplicate is held
		// whole).
		first := strings.Join(lines[i:2*len(lines)/3], "")
		write := func(name, text string) string {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
		rotated = append(rotated, write(fmt.Sprintf("plog-888001_%d.log", i), part))
		if i < 2 {
			sideBySide = append(sideBySide, write(fmt.Sprintf("plog-88800%d_0.log", i+2), strings.ReplaceAll(first, "888001", fmt.Sprintf("88800%d", i+2))))
		}
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write([]byte(part))
		w.Close()
		zipped = append(zipped, write(fmt.Sprintf("plog-888001_%d.log.gz", i), z.String()))
	}
	for _, c := range []struct {
		name   string
		files  []string
		reused bool
	}{
		{"one process rotated", rotated, true},
		{"files side by side", sideBySide, true},
		{"gzipped, kept for a redo", zipped, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var srcs []input.Source
			for _, f := range c.files {
				srcs = append(srcs, input.FileSource(f))
			}
			p, srcs := planned(context.Background(), srcs, Options{})
			p.readAll(srcs)
			got, err := p.finish()
			if err != nil {
				t.Fatal(err)
			}
			if n := p.pool.reused.Load(); (n > 0) != c.reused {
				t.Errorf("%d tapes reused; want some: %v", n, c.reused)
			}
			want, _, _ := analyzePlanned(t, srcs, Options{alwaysMerge: true})
			sameReport(t, got, want)
		})
	}
}
