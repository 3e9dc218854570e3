package core

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"imas/core/input"
)

func TestStartsOutOfOrder(t *testing.T) {
	dir := t.TempDir()
	file := func(name, first string) input.Source {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(first+"\n[INFO] GE(1,python3):2026-02-20-10:59:00.000.000 [a.cc:1]2 F:later\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return input.FileSource(p)
	}
	at := func(tm string) string { return "[INFO] GE(1,python3):2026-02-20-" + tm + " [a.cc:1]2 F:x" }
	a := file("a.log", at("10:00:00.000.000"))
	b := file("b.log", at("10:10:00.000.000"))
	c := file("c.log", at("10:20:00.000.000"))
	early := file("p2.log", at("10:05:00.000.000"))
	noTime := file("n.log", strings.Repeat("no plog line here\n", 300)) // 5 KB before the first time
	for _, tc := range []struct {
		name string
		srcs []input.Source
		want bool
	}{
		{"rotated in order", []input.Source{a, b, c}, false},
		{"a second process", []input.Source{a, b, c, early}, true},
		{"names out of time order", []input.Source{b, a}, true},
		{"equal starts", []input.Source{a, a}, false},
		{"a file without a time in its first 4 KiB is passed over", []input.Source{b, noTime, a}, true},
		{"in order around a file without a time", []input.Source{a, noTime, b}, false},
		{"a later first time after lines without one", []input.Source{b, file("m.log", "junk"), a}, true},
		{"a source not on disk", []input.Source{b, input.BytesSource("x", []byte(at("09:00:00.000.000")+"\n"))}, false},
		{"one file", []input.Source{b}, false},
	} {
		if got := newHeads(tc.srcs, 64<<10).startsOutOfOrder(); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
