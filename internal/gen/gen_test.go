package gen

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/gen from the generator")

// smallProfiles are the profiles cheap enough to generate in every test.
var smallProfiles = []string{"basic", "mixed", "conflicts", "pool", "hostile"}

func mustGenerate(t testing.TB, name, dir string) *Truth {
	t.Helper()
	p, err := ProfileByName(name, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Generate(p, dir)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func truthBytes(t testing.TB, tr *Truth) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := tr.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// readTree returns every file under dir by relative slash path.
func readTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		m[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDeterminism(t *testing.T) {
	for _, name := range smallProfiles {
		t.Run(name, func(t *testing.T) {
			a, b := t.TempDir(), t.TempDir()
			ta, tb := mustGenerate(t, name, a), mustGenerate(t, name, b)
			if !bytes.Equal(truthBytes(t, ta), truthBytes(t, tb)) {
				t.Fatal("truth differs between two runs with the same seed")
			}
			fa, fb := readTree(t, a), readTree(t, b)
			if len(fa) != len(fb) {
				t.Fatalf("%d files vs %d", len(fa), len(fb))
			}
			for k, v := range fa {
				if !bytes.Equal(v, fb[k]) {
					t.Errorf("%s differs between two runs", k)
				}
			}
			// Another seed gives other logs.
			p, _ := ProfileByName(name, 999, 0)
			tc, err := Generate(p, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(truthBytes(t, ta)[40:], truthBytes(t, tc)[40:]) {
				t.Error("seed 999 gives the same truth")
			}
		})
	}
}

func TestTruthConsistency(t *testing.T) {
	for _, name := range smallProfiles {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			tr := mustGenerate(t, name, dir)
			if tr.Profile != name || tr.Seed == 0 {
				t.Errorf("profile %q seed %d", tr.Profile, tr.Seed)
			}
			conflicts := 0
			for _, g := range tr.Graphs {
				k := fmt.Sprintf("%d/%s/%d", g.PID, g.Graph, g.MemType)
				if g.Tensors != int64(len(g.TensorKeys)) || g.Tensors == 0 {
					t.Errorf("%s: tensors %d, %d keys", k, g.Tensors, len(g.TensorKeys))
				}
				if !sort.StringsAreSorted(g.TensorKeys) {
					t.Errorf("%s: tensor keys not sorted", k)
				}
				for i := 1; i < len(g.TensorKeys); i++ {
					if g.TensorKeys[i] == g.TensorKeys[i-1] {
						t.Errorf("%s: key %s twice", k, g.TensorKeys[i])
					}
				}
				if g.MemorySize != g.AfterReuse || g.MemorySize <= 0 {
					t.Errorf("%s: memory_size %d after_reuse %d", k, g.MemorySize, g.AfterReuse)
				}
				if g.GETotal%512 != 0 || g.NoReuse%512 != 0 || g.Atomic%512 != 0 || g.GETotal < g.Total || g.NoReuse > g.GETotal {
					t.Errorf("%s: total %d ge_total %d no_reuse %d atomic %d", k, g.Total, g.GETotal, g.NoReuse, g.Atomic)
				}
				if g.TheoryMin < g.NoReuse+g.Atomic {
					t.Errorf("%s: theory_min %d < no_reuse+atomic", k, g.TheoryMin)
				}
				rr := math.Round(math.Max(0, float64(g.Total-g.AfterReuse)/float64(g.Total))*100*100) / 100
				if float64(g.ReuseRate) != rr {
					t.Errorf("%s: reuse_rate %v, formula gives %v", k, g.ReuseRate, rr)
				}
				rt := math.Round(math.Min(100, float64(g.TheoryMin)/float64(g.AfterReuse)*100)*100) / 100
				if float64(g.ReachTheoryRate) != rt {
					t.Errorf("%s: reach_theory_rate %v, formula gives %v", k, g.ReachTheoryRate, rt)
				}
				if g.MemType != memHBM && (g.ZeroCopy != 0 || g.Atomic != 0 || g.ContinuousMembers != 0) {
					t.Errorf("%s: non-HBM with zero_copy/atomic/continuous", k)
				}
				gen := tr.Generations[g.PID]
				switch {
				case len(g.Logged) == 0:
				case gen == Gen2025 && len(g.Logged) != 6, gen != Gen2025 && len(g.Logged) != 1:
					t.Errorf("%s: logged %v for generation %s", k, g.Logged, gen)
				}
				if (gen == Gen2025) != (g.Topo != "") && len(g.Logged) > 0 {
					t.Errorf("%s: topo %q for generation %s", k, g.Topo, gen)
				}
				for i, c := range g.Conflicts {
					if c[0] >= c[1] || i > 0 && (g.Conflicts[i-1][0] > c[0] || g.Conflicts[i-1][0] == c[0] && g.Conflicts[i-1][1] >= c[1]) {
						t.Errorf("%s: conflicts not sorted pairs: %v", k, g.Conflicts)
					}
				}
				conflicts += len(g.Conflicts)
			}
			if (name == "conflicts") != (conflicts > 0) {
				t.Errorf("%d conflicts in profile %s", conflicts, name)
			}
			for _, v := range tr.Variables {
				if v.AreaEnd != v.SizeSum || v.Count == 0 {
					t.Errorf("variables %+v", v)
				}
			}
			for _, p := range tr.Pools {
				if p.Allocs != p.Frees+p.Leaked || p.PeakLive > p.Total || p.Total%65536 != 0 {
					t.Errorf("pool %+v", p)
				}
			}
			for _, a := range tr.Addresses {
				if int64(len(a.Invalid)) > a.Checked {
					t.Errorf("addresses %+v", a)
				}
			}
			// files[]: line and [IMAS] counts of what is on disk.
			files := readTree(t, dir)
			var imas int64
			for _, f := range tr.Files {
				b, ok := files[f.Name]
				if !ok {
					t.Errorf("file %s not written", f.Name)
					continue
				}
				delete(files, f.Name)
				lines := bytes.Split(b, []byte("\n"))
				if len(lines[len(lines)-1]) == 0 {
					lines = lines[:len(lines)-1]
				}
				var n int64
				for _, l := range lines {
					if bytes.Contains(l, []byte("[IMAS]")) {
						n++
					}
				}
				if int64(len(lines)) != f.Lines || n != f.IMASLines {
					t.Errorf("%s: %d lines %d [IMAS] on disk, truth says %d and %d", f.Name, len(lines), n, f.Lines, f.IMASLines)
				}
				imas += n
				if !strings.HasPrefix(filepath.Base(f.Name), "plog-") {
					t.Errorf("file name %s", f.Name)
				}
			}
			if len(files) != 0 {
				t.Errorf("files not in truth: %v", files)
			}
			if imas != tr.IMASLines {
				t.Errorf("imas_lines %d, files add up to %d", tr.IMASLines, imas)
			}
			// The JSON has the sample schema.
			var m map[string]json.RawMessage
			if err := json.Unmarshal(truthBytes(t, tr), &m); err != nil {
				t.Fatal(err)
			}
			keys := []string{"profile", "seed", "graphs", "variables", "malloc", "regions", "addresses", "pools", "devmm", "files", "imas_lines"}
			if name == "hostile" {
				keys = append(keys, "injections", "memory_errors")
			}
			if len(m) != len(keys) {
				t.Errorf("truth.json keys %d, want %v", len(m), keys)
			}
			for _, k := range keys {
				if _, ok := m[k]; !ok {
					t.Errorf("truth.json without %q", k)
				}
			}
		})
	}
}

// TestSetLinesMatchTemplates checks every [IMAS]Set line against the full
// template of its generation; the lines cut at 1024 characters must not
// match, and must be cut exactly there.
func TestSetLinesMatchTemplates(t *testing.T) {
	for _, name := range smallProfiles {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			tr := mustGenerate(t, name, dir)
			cut := map[string]string{}
			for _, in := range tr.Injections {
				if in.Kind == InjTruncRejected || in.Kind == InjTruncUsed {
					cut[fmt.Sprintf("%s:%d", in.File, in.Line)] = in.Kind
				}
			}
			n := 0
			for _, f := range tr.Files {
				b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Name)))
				pid := 0
				fmt.Sscanf(rePidFile.FindStringSubmatch(f.Name)[1], "%d", &pid)
				re := setRes[tr.Generations[pid]]
				for i, l := range strings.Split(string(b), "\n") {
					l = strings.TrimSuffix(l, "\r")
					if strings.Contains(l, "] GE(") && !strings.Contains(l, "DumpOutput:") {
						// GE's logger limit: 1024 characters from [file:line].
						if msg := l[strings.Index(l, " [")+1:]; len(msg) > 1024 {
							t.Errorf("%s:%d: GE message of %d characters", f.Name, i+1, len(msg))
						}
					}
					if !strings.Contains(l, "[IMAS]Set ") {
						continue
					}
					n++
					ln := fmt.Sprintf("%s:%d", f.Name, i+1)
					ok := re.MatchString(l)
					if kind, isCut := cut[ln]; isCut {
						msg := l[strings.Index(l, " [")+1:]
						if ok || len(msg) != 1024 {
							t.Errorf("%s (%s): matches=%v, message length %d", ln, kind, ok, len(msg))
						}
						hasIsref := regexp.MustCompile(` isref\[[01]\]`).MatchString(msg)
						if hasIsref != (kind == InjTruncUsed) {
							t.Errorf("%s (%s): isref present %v", ln, kind, hasIsref)
						}
						continue
					}
					if !ok {
						t.Errorf("%s: does not match the %s template:\n%s", ln, tr.Generations[pid], l)
					}
				}
			}
			if n == 0 && name != "pool" {
				t.Error("no [IMAS]Set line")
			}
		})
	}
}

// TestNoMarkersOutsideStatements: noise, junk and long lines carry no
// statement marker (they must not become candidate lines).
func TestNoMarkersOutsideStatements(t *testing.T) {
	var buf bytes.Buffer
	p := &proc{g: &generator{p: Profile{NoiseRatio: 1}, out: newStreamOutput(&buf, "x")}, r: newRNG(1), pid: 7, pname: "python3", tid: 9, gen: Gen2025}
	p.dbg = p.g.out.newSink("", 7, 0, false)
	for i := 0; i < 5000; i++ {
		p.emitNoise()
	}
	p.g.out.finish()
	for _, l := range strings.Split(buf.String(), "\n") {
		for _, m := range markers {
			if strings.Contains(l, m) {
				t.Fatalf("noise line with marker %q: %s", m, l)
			}
		}
	}
	dir := t.TempDir()
	tr := mustGenerate(t, "hostile", dir)
	kinds := map[string]bool{}
	for _, in := range tr.Injections {
		kinds[in.Kind] = true
		if in.Kind != InjBinary && in.Kind != InjLongLine {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(in.File)))
		l := strings.Split(string(b), "\n")[in.Line-1]
		for _, m := range markers {
			if strings.Contains(l, m) {
				t.Errorf("%s:%d %s contains %q", in.File, in.Line, in.Kind, m)
			}
		}
		if in.Kind == InjLongLine && len(l) < 64<<10 {
			t.Errorf("long line of %d bytes", len(l))
		}
	}
	for _, k := range []string{InjTruncRejected, InjTruncUsed, InjBinary, InjLongLine, InjCRLF, InjNoFinalNL, InjEventDup, InjFormulaName} {
		if !kinds[k] {
			t.Errorf("hostile profile without %s", k)
		}
	}
}

type countWriter struct{ n, lines int64 }

func (c *countWriter) Write(b []byte) (int, error) {
	c.n += int64(len(b))
	c.lines += int64(bytes.Count(b, []byte("\n")))
	return len(b), nil
}

func TestLargeStreams(t *testing.T) {
	const target = 3 << 20
	p, err := ProfileByName("large", 0, target)
	if err != nil {
		t.Fatal(err)
	}
	var w countWriter
	tr, err := GenerateStream(p, &w, "large.log")
	if err != nil {
		t.Fatal(err)
	}
	if w.n < target || w.n > target+target/4 {
		t.Errorf("%d bytes for a %d target", w.n, target)
	}
	if len(tr.Files) != 1 || tr.Files[0].Lines != w.lines || tr.Files[0].Name != "large.log" {
		t.Errorf("files %+v, %d newlines", tr.Files, w.lines)
	}
	share := float64(tr.IMASLines) / float64(w.lines)
	if len(tr.Graphs) == 0 || share < 0.03 || share > 0.4 {
		t.Errorf("%d graphs, [IMAS] share %.2f", len(tr.Graphs), share)
	}
}

func TestParseSizeAndProfiles(t *testing.T) {
	for s, want := range map[string]int64{"560M": 560 << 20, "2G": 2 << 30, "800k": 800 << 10, "123": 123, "1MiB": 1 << 20} {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v", s, got, err)
		}
	}
	if _, err := ParseSize("x1"); err == nil {
		t.Error("ParseSize accepts x1")
	}
	if _, err := ProfileByName("nope", 0, 0); err == nil {
		t.Error("unknown profile accepted")
	}
	for _, n := range Profiles() {
		if _, err := ProfileByName(n, 0, 1<<20); err != nil {
			t.Error(err)
		}
	}
}

// TestGoldenFixtures keeps testdata/gen equal to what the generator writes
// (go test ./internal/gen -run Golden -update rewrites it).
func TestGoldenFixtures(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "gen")
	for _, name := range smallProfiles {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(root, name)
			if *update {
				os.RemoveAll(dir)
				tr := mustGenerate(t, name, dir)
				if err := os.WriteFile(filepath.Join(dir, "truth.json"), truthBytes(t, tr), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if _, err := os.Stat(dir); err != nil {
				t.Skip("no fixture; run with -update")
			}
			tmp := t.TempDir()
			tr := mustGenerate(t, name, tmp)
			if err := os.WriteFile(filepath.Join(tmp, "truth.json"), truthBytes(t, tr), 0o644); err != nil {
				t.Fatal(err)
			}
			want, got := readTree(t, dir), readTree(t, tmp)
			for k := range want {
				if _, ok := got[k]; !ok {
					t.Errorf("fixture %s is no longer generated (run -update)", k)
				}
			}
			for k, v := range got {
				if !bytes.Equal(v, want[k]) {
					t.Errorf("fixture %s differs from the generator (run go test ./internal/gen -run Golden -update)", k)
				}
			}
		})
	}
}
