package core

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"imas/core/input"
	"imas/core/plog"
	"imas/internal/gen"
)

// TestStreamingMergeEqualsMerge: files of several processes that overlap
// in time are merged while they are parsed (horizon.go), and the report is
// the one the merge after the last file gives, byte for byte — whatever
// the order of the files, with ties in time between files, records out of
// time order inside a file, a duplicate, a file whose first record is
// beyond the head firstRecordTime parses first, and files without records.
func TestStreamingMergeEqualsMerge(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big, err := gen.Log("large", 6<<20)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(big), "\n")
	// One process's log rotated into four files (the last without a
	// record), and the same under a second pid: the same times, so records
	// tie with the other process's.
	var p1, p2 []string
	for i := 0; i < 4; i++ {
		part := strings.Join(lines[i*len(lines)/4:(i+1)*len(lines)/4], "")
		p1 = append(p1, write(fmt.Sprintf("a/plog-777001_%d.log", i), []byte(part)))
		p2 = append(p2, write(fmt.Sprintf("b/plog-777002_%d.log", i), []byte(strings.ReplaceAll(part, "777001", "777002"))))
	}
	// Lines of one file out of time order: its second half first.
	q := strings.SplitAfter(strings.ReplaceAll(strings.Join(lines[:len(lines)/3], ""), "777001", "777003"), "\n")
	swapped := write("c/plog-777003.log", []byte(strings.Join(append(slices.Clone(q[len(q)/2:]), q[:len(q)/2]...), "")))
	// Noise before the first record, more than firstRecordTime's head.
	noisy := write("d/plog-777004.log", append(bytes.Repeat([]byte("[INFO] GE(777004,python3):2026-02-20-09:00:00.000.000 [x.cc:1]1 F:noise\n"), 5000),
		strings.ReplaceAll(strings.Join(lines[len(lines)/2:], ""), "777001", "777004")...))
	// Noise past the first lines scanned alone, within the head.
	probed := write("d/plog-777006.log", append(bytes.Repeat([]byte("[INFO] GE(777006,python3):2026-02-20-09:00:00.000.000 [x.cc:1]1 F:noise\n"), 1000),
		strings.ReplaceAll(strings.Join(lines[len(lines)/2:], ""), "777001", "777006")...))
	empty := write("e/plog-777005.log", []byte("[INFO] GE(777005,python3):2026-02-20-09:00:00.000.000 [x.cc:1]1 F:nothing\n"))
	// A file listed first that starts at the time of a record of a file
	// listed later but read first (it starts earlier): the tie goes to the
	// listed-first file, so graph ga opens before gc.
	set := func(pid, clock, graph string) string {
		return "[INFO] GE(" + pid + ",python3):2026-02-20-10:00:" + clock + " [block_mem_assigner.cc:2914]2 SetOffsetSize:[IMAS]Set " + graph +
			" name[n] optype[Op] output[0] offset to [0] streamid[0] memtype[2] size[512] realsize[512] noalignsize[512] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]\n"
	}
	lateFirst := write("f/plog-777001_late.log", []byte(set("777001", "01.000.000", "ga")))
	earlySecond := write("f/plog-777002_early.log", []byte(set("777001", "00.000.000", "gb")+set("777001", "01.000.000", "gc")))
	mixed, _ := filepath.Glob("../testdata/gen/mixed/*.log")
	shuffled := append(slices.Clone(p1), append(p2, swapped)...)
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, c := range []struct {
		name  string
		files []string
	}{
		{"two processes, file by file", append(slices.Clone(p1), p2...)},
		{"two processes interleaved", []string{p1[0], p2[0], p1[1], p2[1], p1[2], p2[2], p1[3], p2[3]}},
		{"second process first", append(slices.Clone(p2), p1...)},
		{"a file out of order inside, first", append([]string{swapped}, append(slices.Clone(p1), p2...)...)},
		{"a late break", append(slices.Clone(p1[:3]), swapped)},
		{"with a duplicate", append(slices.Clone(p1), append([]string{p1[1]}, p2...)...)},
		{"with a file without records", append(slices.Clone(p1), append([]string{empty}, p2...)...)},
		{"with a late first record", append(slices.Clone(p1), append([]string{noisy}, p2...)...)},
		{"with a first record past the probe", append(slices.Clone(p1), append([]string{probed}, p2...)...)},
		{"three processes side by side", mixed},
		{"read out of the listed order, with ties", []string{lateFirst, earlySecond}},
		{"shuffled", shuffled},
	} {
		t.Run(c.name, func(t *testing.T) {
			var srcs []input.Source
			for _, f := range c.files {
				srcs = append(srcs, input.FileSource(f))
			}
			got, inOrder, streamed := analyzePlanned(t, srcs, Options{})
			if inOrder || !streamed {
				t.Errorf("in-order build held %v, merged while parsing %v; want false, true", inOrder, streamed)
			}
			want, _, _ := analyzePlanned(t, srcs, Options{alwaysMerge: true})
			sameReport(t, got, want)
			if len(got.Graphs) == 0 {
				t.Error("no graphs")
			}
		})
	}
}

// TestHeadsReadOnce: Analyze reads the head of each plain file once for
// all it decides before reading (unique sizes, start order, first
// records), so a file is opened twice in all: for its head and by the
// pipeline; three times when it is longer than the head and its first
// record lies beyond it. A file shorter than the head is known whole from
// it, record or none.
func TestHeadsReadOnce(t *testing.T) {
	dir := t.TempDir()
	big, err := gen.Log("large", 2<<20)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(big), "\n")
	var files []string
	for i := 0; i < 3; i++ {
		part := strings.Join(lines[i*len(lines)/3:(i+1)*len(lines)/3], "")
		for _, pid := range []string{"777001", "777002"} { // two processes side by side: out of order
			p := filepath.Join(dir, fmt.Sprintf("plog-%s_%d.log", pid, i))
			if err := os.WriteFile(p, []byte(strings.ReplaceAll(part, "777001", pid)), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
	}
	noisy := filepath.Join(dir, "plog-777004.log")
	noise := bytes.Repeat([]byte("[INFO] GE(777004,python3):2026-02-20-09:00:00.000.000 [x.cc:1]1 F:noise\n"), 5000)
	if err := os.WriteFile(noisy, append(noise, strings.ReplaceAll(lines[10], "777001", "777004")...), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, noisy)
	short := filepath.Join(dir, "notes.log") // no record, shorter than the head
	if err := os.WriteFile(short, noise[:len(noise)/100], 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, short)
	opens := map[string]int{}
	var srcs []input.Source
	for _, f := range files {
		s := input.FileSource(f)
		open := s.Open
		s.Open = func() (io.ReadCloser, error) { opens[f]++; return open() }
		srcs = append(srcs, s)
	}
	rep, err := Analyze(context.Background(), srcs, Options{Workers: 1})
	if err != nil || len(rep.Graphs) == 0 {
		t.Fatalf("report %v, %d graphs", err, len(rep.Graphs))
	}
	for _, f := range files {
		want := 2
		if f == noisy {
			want = 3
		}
		if opens[f] != want {
			t.Errorf("%s opened %d times, want %d", filepath.Base(f), opens[f], want)
		}
	}
}

// TestAnalyzeSeqOutOfOrder: sources that come one at a time have no heads
// to plan from; when their files break the in-order build, the merge after
// the last file gives the report Analyze gives.
func TestAnalyzeSeqOutOfOrder(t *testing.T) {
	files, _ := filepath.Glob("../testdata/gen/mixed/*.log")
	if len(files) < 2 {
		t.Fatal("no mixed fixture")
	}
	var srcs []input.Source
	for _, f := range files {
		srcs = append(srcs, input.FileSource(f))
	}
	want, err := Analyze(context.Background(), srcs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := AnalyzeSeq(context.Background(), slices.Values(srcs), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameReport(t, got, want)
}

// TestFirstRecord: a file's first record is found in the first lines, past
// them in the head, or past the head (the head's lines skipped); a file
// without one never holds the merge back.
func TestFirstRecord(t *testing.T) {
	dir := t.TempDir()
	noise := func(n int) string {
		return strings.Repeat("[INFO] GE(1,python3):2026-02-20-09:00:00.000.000 [x.cc:1]1 F:noise\n", n)
	}
	const record = "[INFO] GE(1,python3):2026-02-20-10:00:00.000.123 [block_mem_assigner.cc:2914]2 SetOffsetSize:[IMAS]Set g name[n] optype[Op] output[0] offset to [0] streamid[0] memtype[2] size[512] realsize[512] noalignsize[512] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]\n"
	var env plog.Envelope
	if !plog.Parse([]byte(strings.TrimSuffix(record, "\n")), &env) {
		t.Fatal("record line does not parse")
	}
	var srcs []input.Source
	for i, text := range []string{
		record + noise(10),   // at the start
		noise(1000) + record, // past the first lines, within the head
		noise(5000) + record, // past the head
		noise(10),            // none
		noise(5000),          // none, longer than the head
		noise(10) + strings.TrimSuffix(record, "\n"), // the last line, unterminated
	} {
		p := filepath.Join(dir, fmt.Sprintf("%d.log", i))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, input.FileSource(p))
	}
	hs := newHeads(srcs, 64<<10)
	for i, want := range []int64{env.Time, env.Time, env.Time, math.MaxInt64, math.MaxInt64, env.Time} {
		if got, ok := hs.firstRecord(i); !ok || got != want {
			t.Errorf("file %d: first record at %d (%v), want %d", i, got, ok, want)
		}
	}
}
