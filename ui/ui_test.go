package ui

import (
	"strings"
	"testing"
	"time"

	"imas/core/analyze"
	"imas/core/model"
	"imas/wasm/engine"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"": 0, "4096": 4096, "4K": 4096, "4k": 4096, "1.5M": 1572864, "2 GiB": 2 << 30, " 3kib ": 3072, "3KB": 3000, "100MB": 100_000_000} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"x", "-1K", "1Q", "NaN", "Inf"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
}

func TestProgressText(t *testing.T) {
	p := engine.Progress{Read: 50 << 20, Total: 200 << 20, Seconds: 0.5}
	p.Bytes, p.Lines, p.Records, p.Path = 150<<20, 1234567, 89, "a.tar.gz!plog-1.log"
	got := ProgressText(p)
	for _, want := range []string{"50.00 MiB of 200.00 MiB", "150.00 MiB of text", "1\u2009234\u2009567 lines", "89 records", "105 MB/s", "about 1.5s left", "a.tar.gz!plog-1.log"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	// Many files: how many are read, and how far the current one is.
	p.Inputs, p.InputsDone, p.Input, p.InputRead, p.InputSize = 17, 4, "logs/plog-5.log", 3<<20, 12<<20
	got = ProgressText(p)
	for _, want := range []string{"4 of 17 files read", "logs/plog-5.log: 3.00 MiB of 12.00 MiB", "a.tar.gz!plog-1.log"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	p.Path = p.Input
	if got := ProgressText(p); strings.Count(got, p.Input) != 1 {
		t.Errorf("%q names the file more than once", got)
	}
	p.Stalled = 1
	if got := ProgressText(p); !strings.Contains(got, "a parse worker stopped answering") {
		t.Errorf("%q does not say that a parse worker stopped answering", got)
	}
	p.Read = p.Total
	if got := ProgressText(p); got != "read 200.00 MiB (1\u2009234\u2009567 lines, 89 records) in 0.5s; analysing…" {
		t.Errorf("after the read: %q", got)
	}
	p.Read = 50 << 20
	if ETA(engine.Progress{Total: 10}) != -1 || ETA(p) != 1500*time.Millisecond {
		t.Errorf("ETA: %v, %v", ETA(engine.Progress{Total: 10}), ETA(p))
	}
	// The recent rate, where the engine gives it, sets the rate shown and
	// the time left: 150 MiB left at 50 MiB/s.
	p.Rate = 50 << 20
	if got := ProgressText(p); ETA(p) != 3*time.Second || !strings.Contains(got, "52 MB/s") || !strings.Contains(got, "about 3s left") {
		t.Errorf("at a recent 50 MiB/s: ETA %v, %q", ETA(p), got)
	}
	p.ReaderStalled = true
	if got := ProgressText(p); !strings.Contains(got, "the file reader stopped answering") {
		t.Errorf("%q does not say that the reader stopped answering", got)
	}
	if Rate(470_000, 1) != "0.5 MB/s" || Rate(1, 0) != "–" {
		t.Errorf("Rate: %q %q", Rate(470_000, 1), Rate(1, 0))
	}
	if Percent(p) != 25 || Percent(engine.Progress{}) != 0 {
		t.Errorf("Percent %v", Percent(p))
	}
}

// Sizes carry binary units, labelled as such: exactly 1 MiB is "1.00 MiB".
func TestSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.00 KiB", 1 << 20: "1.00 MiB", 1<<20 - 1: "1024.00 KiB",
		3 << 29: "1.50 GiB", 1 << 40: "1.00 TiB", -2048: "-2.00 KiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Exact(8528896); got != "8\u2009528\u2009896 bytes" {
		t.Errorf("Exact: %q", got)
	}
	if MemType(2) != "HBM" || MemType(16) != "P2P_HBM" {
		t.Errorf("MemType: %q %q", MemType(2), MemType(16))
	}
}

func TestFigures(t *testing.T) {
	f := &model.Figures{MemorySize: 8528896, Streams: 3, Tensors: 1234, ReuseRate: 8.94, ReachTheoryRate: 100}
	want := map[string][2]string{
		"memory_size":       {"8528896", "8.13 MiB"},
		"streams":           {"3", "3"},
		"tensors":           {"1234", "1\u2009234"},
		"reuse_rate":        {"8.94", "8.94%"},
		"reach_theory_rate": {"100", "100.00%"},
	}
	names := map[string]bool{}
	for _, fig := range Figures {
		names[fig.Name] = true
		if w, ok := want[fig.Name]; ok && (fig.Raw(f) != w[0] || fig.Text(f) != w[1]) {
			t.Errorf("%s: raw %q text %q, want %q %q", fig.Name, fig.Raw(f), fig.Text(f), w[0], w[1])
		}
	}
	for _, n := range []string{"memory_size", "after_reuse", "total", "ge_total", "theory_min", "no_reuse", "atomic",
		"zero_copy", "continuous", "streams", "tensors", "reuse_rate", "reach_theory_rate"} {
		if !names[n] {
			t.Errorf("summary table lacks %s", n)
		}
	}
	if id := GraphID(&model.Graph{PID: "7", Graph: "g#2", MemType: 16}); id != "7/g#2/16" {
		t.Errorf("GraphID %q", id)
	}
}

func TestTableOf(t *testing.T) {
	tb := TableOf(`[{"pid":"1","size":4194304,"rows":[{"a":1}],"extra":{"x":1}},{"pid":"2","count":7,"name":"<b>"},{"_more":5}]`)
	if strings.Join(tb.Cols, ",") != "pid,size,rows,extra,count,name" || len(tb.Rows) != 2 || tb.More != 5 {
		t.Fatalf("table %+v", tb)
	}
	r0, r1 := tb.Rows[0], tb.Rows[1]
	if r0[1].Text != "4.00 MiB" || r0[1].Raw != "4194304" || r0[2].Sub != `[{"a":1}]` || r0[2].Text != "[1]" || r0[3].Text != "{1}" {
		t.Errorf("row 0: %+v", r0)
	}
	if r1[4].Text != "7" || r1[5].Text != "<b>" || r1[1] != (Cell{}) {
		t.Errorf("row 1: %+v (text stays raw: the template escapes it)", r1)
	}
	if one := TableOf(`{"a":1}`); len(one.Rows) != 1 || one.Cols[0] != "a" {
		t.Errorf("object: %+v", one)
	}
	if scalars := TableOf(`[1,"x"]`); len(scalars.Rows) != 2 || scalars.Cols[0] != "value" || scalars.Rows[1][0].Text != "x" {
		t.Errorf("scalars: %+v", scalars)
	}
}

func TestDiffText(t *testing.T) {
	for _, c := range []struct {
		name string
		v    float64
		want string
	}{{"memory_size", 2048, "+2.00 KiB"}, {"memory_size", -512, "-512 B"}, {"reuse_rate", -1.5, "-1.50%"}, {"tensors", 3, "+3"}, {"conflicts", 0, "="}} {
		if got := deltaText(c.name, c.v); got != c.want {
			t.Errorf("deltaText(%s, %v) = %q, want %q", c.name, c.v, got, c.want)
		}
	}
}

// Removed tensors take bytes away: their sum is negative and shown so.
func TestDiffTensorText(t *testing.T) {
	g := &analyze.GraphDiff{Counts: analyze.ChangeCounts{Added: 2, AddedBytes: 2048, Removed: 74, RemovedBytes: -34111488}}
	got := (&Diff{}).tensorText(g)
	if !strings.Contains(got, "74 removed (-32.53 MiB)") || !strings.Contains(got, "2 added (+2.00 KiB)") {
		t.Errorf("tensorText: %q", got)
	}
}

func TestLogTimes(t *testing.T) {
	for us, want := range map[int64]string{0: "0 µs", 750: "750 µs", 12500: "12.50 ms", 3250000: "3.25 s", 250e6: "4 min 10 s"} {
		if got := Elapsed(us); got != want {
			t.Errorf("Elapsed(%d) = %q, want %q", us, got, want)
		}
	}
	// 2026-04-24 10:00:00.914418 in µs since 2000-01-01.
	us := int64(time.Date(2026, 4, 24, 10, 0, 0, 914418000, time.UTC).Sub(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)) / time.Microsecond)
	if got := LogTime(us); got != "2026-04-24 10:00:00.914" {
		t.Errorf("LogTime(%d) = %q", us, got)
	}
}

// Run-time lists sort by any column: numbers largest first, text in
// order, again the other way; aria-sort says which.
func TestJsonTableSort(t *testing.T) {
	c := &JsonTable{Raw: `[{"name":"b","size":3},{"name":"c","size":10},{"name":"a"}]`}
	names := func() string {
		var out []string
		for _, r := range c.rows() {
			out = append(out, r[0].Text)
		}
		return strings.Join(out, "")
	}
	for _, s := range []struct {
		col        int
		want, aria string
	}{{1, "cba", "descending"}, {1, "abc", "ascending"}, {0, "abc", "ascending"}, {0, "cba", "descending"}} {
		c.sortBy(s.col)
		if got := names(); got != s.want || c.ariaSort(s.col) != s.aria || c.ariaSort(1-s.col) != "none" {
			t.Errorf("sorted by column %d: %s (%s), want %s (%s)", s.col, got, c.ariaSort(s.col), s.want, s.aria)
		}
	}
	c.Raw = `[{"name":"z"}]`
	if c.table(); c.ariaSort(0) != "none" {
		t.Error("a new list keeps the old sort")
	}
}
