package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"imas/core/export"
)

// logBuilder writes GE plog lines with increasing timestamps.
type logBuilder struct {
	b bytes.Buffer
	n int
}

// ge appends "[INFO] GE(pid,python3):<time> [x.cc:1]<tid> <fn>:<msg>".
func (l *logBuilder) ge(pid, tid int, fn, msg string) {
	l.n++
	fmt.Fprintf(&l.b, "[INFO] GE(%d,python3):2026-04-18-10:00:%02d.%03d.000 [x.cc:1]%d %s:%s\n", pid, l.n/1000%60, l.n%1000, tid, fn, msg)
}

// hostileNames are the cell texts a spreadsheet would run or misread.
var hostileNames = []string{`=cmd|' /C calc'!A0`, `+SUM(1)`, `-2+3`, `@x`, "\tTAB", "\r=1", `-.`, `=HYPERLINK("http://evil","x")`}

// writeInjectionLog writes, for pid, statements of every CSV (graph, pool,
// variable, addr) whose text fields hold hostileNames, plus node names
// with commas, quotes and a backslash escape that must survive quoting.
func writeInjectionLog(l *logBuilder, pid int) {
	set := func(graph, node, optype string, off int, batch string) {
		l.ge(pid, pid, "SetOffsetSize", fmt.Sprintf("[IMAS]Set %s name[%s] optype[%s] output[0] offset to [%d] streamid[0] memtype[2] size[512] realsize[480] noalignsize[448] life time begin[1] life time end[3] child[0:1:0:0:1] isref[0] batch[%s], block_type[]", graph, node, optype, off, batch))
	}
	g := hostileNames[0]
	set(g, "+SUM(1)", "-2+3", 0, "@x")
	set(g, `a,b "q" \n`, "\tTAB", 512, "\r=1")
	set(g, "n3", "-.", 1024, hostileNames[7])
	l.ge(pid, pid, "SetInputOffset", "[IMAS]AfterAssignMemory : "+g+" memoffset[1536], memtype[2], theory_min[1536], zero_copy[0], total_size[1536], no_reuse[0], streams[1], topo_mode[=DFS], mop[], io_reuse[0:0], alloc_mode[], smp[0]")

	l.ge(pid, pid+1, "Init", "create caching memory allocator, ["+hostileNames[7]+"]")
	l.ge(pid, pid+1, "AllocHbmMem", "[KernelTrace][AllocMemHbm_@SUM(1)_7][MEM]Alloc memory at stream 0, block 0x55d1c2a3f0e0, address 0x12c180000800, size 65536, tensor size 544, index 0")
	l.ge(pid, pid+1, "FreeHbmMem", "[KernelTrace][FreeMemHbm_@SUM(1)_8][MEM]Free memory at stream 0, address 0x12c180000800")

	l.ge(pid, pid, "AssignVarMem", "[IMAS]AssignVarMem Set session_0 name[=w] output[0] offset to [0] size[1536] realsize[512].")
	l.ge(pid, pid, "AssignVarMem", "[IMAS]AssignVarMem Set session_0 name[v] output[0] offset to [0] reuse address of node:@SUM(A1).")

	l.ge(pid, pid, "InitFeatureMapAndP2PMem", "[IMAS]InitFeatureMapAndP2PMem graph_0 MallocMemory type[=F] memaddr[0x12c000000000] mem_size[1048576]Bytes")
	l.ge(pid, pid, "GetOutputDataAddrs", "[IMAS]graph_0 type[+F] name[-x] output[0] offset[0] size[512] memaddr[0x12c000000100]")
}

// plainNumber is what may start with - or + in a CSV cell.
var plainNumber = regexp.MustCompile(`^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$`)

// liveFormula reports whether a spreadsheet could run or misread cell
// (docs/figures.md#csv-safety): it starts with = + - @ TAB or CR and is neither a
// plain number nor neutralised with a leading quote.
func liveFormula(cell string) bool {
	return cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) && !plainNumber.MatchString(cell)
}

// readCSVs parses every CSV of dir, fails on any live formula, and returns
// the records by file name.
func readCSVs(t *testing.T, dir string) map[string][][]string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	if len(names) == 0 {
		t.Fatalf("no CSV in %s", dir)
	}
	out := map[string][][]string{}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(name)] = parseCSV(t, filepath.Base(name), b)
	}
	return out
}

// parseCSV parses b with encoding/csv and fails on any live formula.
func parseCSV(t *testing.T, name string, b []byte) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1 // key/value rows of varying length
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s is not valid CSV: %v", name, err)
	}
	for i, rec := range recs {
		for j, cell := range rec {
			if liveFormula(cell) {
				t.Errorf("%s row %d cell %d is a live formula: %q", name, i+1, j+1, cell)
			}
		}
	}
	return recs
}

// hasCell reports whether some cell of recs satisfies ok.
func hasCell(recs [][]string, ok func(string) bool) bool {
	for _, rec := range recs {
		if slices.ContainsFunc(rec, ok) {
			return true
		}
	}
	return false
}

// filesUnder lists the regular files and symlinks under root, relative.
func filesUnder(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// tarMember is one entry of a test archive.
type tarMember struct {
	name string
	typ  byte
	body []byte
}

func tarGz(t *testing.T, members ...tarMember) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, m := range members {
		h := &tar.Header{Name: m.name, Typeflag: m.typ, Mode: 0o644, Size: int64(len(m.body))}
		if m.typ != tar.TypeReg {
			h.Size, h.Linkname = 0, "/etc/passwd"
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write(m.body)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return buf.Bytes()
}

func writeFile(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// reportFiles are the files "imas report" writes into its directory.
func reportFiles(dir string) []string {
	var out []string
	for _, o := range export.Outputs() {
		out = append(out, dir+"/"+o.Name)
	}
	return out
}

// TestCSVInjection runs imas report on statements whose names are
// spreadsheet formulas: every CSV must parse, hold no live formula, and
// still carry each name (neutralised with a leading quote). The run is in
// a fresh working directory with -o a subdirectory, next to an archive
// whose members try to escape: nothing may appear outside the output.
func TestCSVInjection(t *testing.T) {
	root := t.TempDir()
	var l logBuilder
	writeInjectionLog(&l, 4321)
	writeFile(t, filepath.Join(root, "in", "hostile.log"), l.b.Bytes())
	abs := fmt.Sprintf("/imas-escape-%d.log", os.Getpid())
	writeFile(t, filepath.Join(root, "in", "escape.tar.gz"), tarGz(t,
		tarMember{"../escaped.log", tar.TypeReg, l.b.Bytes()},
		tarMember{"../../escaped.log", tar.TypeReg, l.b.Bytes()},
		tarMember{abs, tar.TypeReg, l.b.Bytes()},
		tarMember{"link.log", tar.TypeSymlink, nil},
	))
	before := filesUnder(t, root)
	work := filepath.Join(root, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)

	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"report", "-o", "out", "../in"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}

	want := slices.Concat(before, reportFiles("work/out"))
	slices.Sort(want)
	if got := filesUnder(t, root); !slices.Equal(got, want) {
		t.Errorf("files after the run:\n%v\nwant:\n%v", got, want)
	}
	for _, p := range []string{abs, filepath.Join(filepath.Dir(root), "escaped.log")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("an archive member escaped to %s", p)
		}
	}
	if n := strings.Count(stderr.String(), "unsafe-member"); n != 4 {
		t.Errorf("%d unsafe-member lines on stderr, want 4:\n%s", n, stderr.String())
	}

	csvs := readCSVs(t, "out")
	quoted := func(s string) func(string) bool { return func(c string) bool { return c == "'"+s } }
	for _, tc := range []struct {
		file string
		what string
		ok   func(string) bool
	}{
		{"imas_mem_graph.csv", "graph name", quoted(hostileNames[0])},
		{"imas_mem_graph.csv", "op type", quoted("-2+3")},
		{"imas_mem_graph.csv", "tab-led op type", quoted("\tTAB")},
		{"imas_mem_graph.csv", "op type that looks numeric", quoted("-.")},
		{"imas_mem_graph.csv", "batch", quoted("@x")},
		{"imas_mem_graph.csv", "CR-led batch", quoted("\r=1")},
		{"imas_mem_graph.csv", "node with comma, quotes, backslash", func(c string) bool { return strings.Contains(c, `_a,b "q" \n_`) }},
		{"imas_mem_pool.csv", "allocator", quoted(hostileNames[7])},
		{"imas_mem_pool.csv", "pool node", quoted("@SUM(1)")},
		{"imas_mem_variable.csv", "reused variable", quoted("@SUM(A1)")},
		{"imas_mem_addr.csv", "region type", quoted("=F")},
		{"imas_mem_addr.csv", "address type", quoted("+F")},
	} {
		if !hasCell(csvs[tc.file], tc.ok) {
			t.Errorf("%s: the %s did not reach the CSV neutralised", tc.file, tc.what)
		}
	}
}

// TestLiveFormula pins the checker the CSV tests rely on.
func TestLiveFormula(t *testing.T) {
	for _, tc := range []struct {
		cell string
		live bool
	}{
		{"", false}, {"abc", false}, {"-1", false}, {"+3.5", false}, {"-.5", false}, {"12", false},
		{"'=1+1", false}, {"a=b", false},
		{"=1+1", true}, {"-2+3", true}, {"+A1", true}, {"@SUM(A1)", true}, {"\tx", true}, {"\r=1", true},
		{"-", true}, {"-.", true}, {"-1e5", true},
	} {
		if got := liveFormula(tc.cell); got != tc.live {
			t.Errorf("liveFormula(%q) = %v, want %v", tc.cell, got, tc.live)
		}
	}
}
