package pagetest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"imas/core"
	"imas/core/input"
	"imas/internal/gen"
)

// TestLargeFiles reads logs of several File slices (the reader worker's
// 16 MiB reads, from one byte stream per file into buffers handed back and
// forth, with a short last slice; and by File.slice, ?read=slices): two
// files one after the other, then the first again gzipped. Every graph row
// must show the figures the core gives natively for the same files (35
// rows: more than the graph table's old page of 25).
func TestLargeFiles(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, size := range []int64{37 << 20, 20<<20 + 12345} {
		data, err := gen.Log("large", size)
		if err != nil {
			t.Fatal(err)
		}
		// One process, the second file later in time: a different pid
		// keeps the two files' graphs apart.
		if i == 1 {
			data = []byte(strings.ReplaceAll(string(data), "777001", "777002"))
		}
		p := filepath.Join(dir, "plog-"+strconv.Itoa(i)+".log")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	want := nativeGraphs(t, files...)
	if len(want) < 2 {
		t.Fatalf("the generated logs have %d graphs", len(want))
	}
	gz := gzipFile(t, files[0], files[0]+".gz")
	wantFirst := nativeGraphs(t, files[0])
	// ?read=slices: File slices, as in browsers without byte streams.
	for _, query := range []string{"", "?read=slices"} {
		t.Run("query="+query, func(t *testing.T) {
			b := newTab(t, 3*time.Minute)
			b.open(t, query)
			b.load(t, 1, files...)
			checkFigures(t, b.shownGraphs(t), want)
			b.load(t, 2, gz)
			checkFigures(t, b.shownGraphs(t), wantFirst)
			b.clean(t)
		})
	}
}

// nativeGraphs is what the core reports for files, as truth.json has it.
func nativeGraphs(t *testing.T, files ...string) []truthGraph {
	t.Helper()
	srcs, diags := input.FromPaths(files)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	rep, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []truthGraph
	for _, g := range rep.Graphs {
		pid, err := strconv.ParseInt(g.PID, 10, 64)
		if err != nil {
			t.Fatalf("pid %q: %v", g.PID, err)
		}
		out = append(out, truthGraph{PID: pid, Graph: g.Graph, MemType: g.MemType, MemorySize: g.MemorySize, Tensors: g.Tensors})
	}
	return out
}

// TestGzipInflaters loads .gz files that the browser's DecompressionStream
// reads only in part (a second gzip member, which Chromium refuses; a cut
// file; a corrupt one) and a tar.gz, with the browser inflating in the
// reader worker and, with ?inflate=go, with Go's inflater alone. Every
// graph row must be what the core shows natively for the same file; the
// engine's last progress says how much text the browser inflated.
func TestGzipInflaters(t *testing.T) {
	dir := t.TempDir()
	text, err := gen.Log("large", 30<<20)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := gzipBytes(t, text)
	// Members split mid-line, past the first 16 MiB piece.
	cut := 21<<20 + 777
	multi := append(gzipBytes(t, text[:cut]), gzipBytes(t, text[cut:])...)
	corrupt := bytes.Clone(one)
	corrupt[len(corrupt)*7/10] ^= 0x55
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	for i, part := range [][]byte{text[:cut], text[cut:]} {
		tw.WriteHeader(&tar.Header{Name: "plog/plog-" + strconv.Itoa(i) + ".log", Mode: 0o644, Size: int64(len(part)), Typeflag: tar.TypeReg})
		tw.Write(part)
	}
	tw.Close()
	cases := []struct {
		name string
		b    []byte
		// what the browser inflates: all the text (a tar's text and its
		// headers), or part of it
		all, part bool
	}{
		{"one.log.gz", one, true, false},
		{"multi.log.gz", multi, false, true},
		{"cut.log.gz", one[:len(one)*6/10], false, true},
		{"corrupt.log.gz", corrupt, false, true},
		{"plog.tar.gz", gzipBytes(t, tb.Bytes()), true, false},
	}
	for _, query := range []string{"", "?inflate=go"} {
		t.Run("query="+query, func(t *testing.T) {
			b := newTab(t, 4*time.Minute)
			b.open(t, query)
			for i, c := range cases {
				p := write(c.name, c.b)
				want := nativeGraphs(t, p)
				if len(want) == 0 {
					t.Fatalf("%s: no graphs natively", c.name)
				}
				b.load(t, i+1, p)
				checkFigures(t, b.shownGraphs(t), want)
				var prog struct {
					Inflated int64 `json:"inflated"`
					Bytes    int64 `json:"bytes"`
				}
				var js string
				b.eval(t, `imasPage.progress || '{}'`, &js)
				if err := json.Unmarshal([]byte(js), &prog); err != nil {
					t.Fatalf("%s: progress %q: %v", c.name, js, err)
				}
				switch {
				case prog.Bytes <= 0:
					t.Errorf("%s: no final progress (%s)", c.name, js)
				case query != "":
					if prog.Inflated != 0 {
						t.Errorf("%s: the browser inflated %d bytes with ?inflate=go", c.name, prog.Inflated)
					}
				case c.all && prog.Inflated < prog.Bytes, c.part && (prog.Inflated <= 0 || prog.Inflated >= int64(len(text))):
					t.Errorf("%s: the browser inflated %d of %d bytes of text", c.name, prog.Inflated, prog.Bytes)
				}
			}
			b.clean(t)
		})
	}
}

func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGzipBomb: a gzip bomb (one member of zeros, ~1000:1) inflated by the
// browser stops at the expansion limits as it does in Go, which count the
// compressed bytes the browser consumed; the page finishes, shows the
// other file's graphs and says why it stopped.
func TestGzipBomb(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 320 {
		zw.Write(zeros)
	}
	zw.Close()
	bomb := filepath.Join(dir, "bomb.log.gz")
	if err := os.WriteFile(bomb, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	text, err := gen.Log("large", 2<<20)
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.log")
	if err := os.WriteFile(good, text, 0o644); err != nil {
		t.Fatal(err)
	}
	want := nativeGraphs(t, good)
	for _, query := range []string{"", "?inflate=go"} {
		t.Run("query="+query, func(t *testing.T) {
			b := newTab(t, 3*time.Minute)
			b.open(t, query)
			b.load(t, 1, bomb, good)
			checkFigures(t, b.shownGraphs(t), want)
			b.clickFor(t, ".diags button", ".diaglist")
			var diags string
			b.eval(t, `(document.querySelector('.diaglist')||{}).textContent||''`, &diags)
			if !strings.Contains(diags, "bomb-limit") || !strings.Contains(diags, "bomb.log.gz") {
				t.Errorf("no bomb-limit diagnostic for bomb.log.gz in %.300q", diags)
			}
			var js string
			b.eval(t, `imasPage.progress || '{}'`, &js)
			var prog struct{ Inflated int64 }
			json.Unmarshal([]byte(js), &prog)
			if inflated := prog.Inflated > 0; inflated != (query == "") {
				t.Errorf("the browser inflated %d bytes (%s)", prog.Inflated, js)
			}
			b.clean(t)
		})
	}
}
