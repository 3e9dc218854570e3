package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestParseCPUInfo(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"x86", "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t: avx2\n\nprocessor\t: 1\nmodel name\t: AMD EPYC\n", "AMD EPYC, 2 CPUs"},
		{"first model wins", "processor : 0\nmodel name : Intel(R) Xeon(R)\nprocessor : 1\nmodel name : other\nprocessor : 2\n", "Intel(R) Xeon(R), 3 CPUs"},
		{"arm Hardware", "processor\t: 0\nBogoMIPS\t: 50.00\nHardware\t: Kunpeng 920\n", "Kunpeng 920, 1 CPUs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := parseCPUInfo(strings.NewReader(tc.in)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestReadRows(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, file, body string
		want             []row
		wantErr          bool
	}{
		{name: "benchcmp object, mix from file name", file: "set-heavy.json",
			body: `{"machine":"linux/amd64","bytes":587202671,"runs":3,"ratio":1.5,"imas_peak_rss_mib":233.2,"imas_mb_per_s":1096.7}`,
			want: []row{{Mix: "set-heavy", Command: "imas total", Bytes: 587202671, MBps: 1096.7, Ratio: 1.5, RSSMiB: 233.2, Runs: 3}}},
		{name: "array with own mixes, commands and CPU", file: "mixes.json",
			body: `[{"mix":"pool-heavy","bytes":5000000000,"imas_mb_per_s":300,"ratio":2},
			        {"mix":"pool-heavy","command":"imas report","bytes":5000000000,"imas_mb_per_s":200,"cpu":"Kunpeng 920, 8 CPUs"}]`,
			want: []row{
				{Mix: "pool-heavy", Command: "imas total", Bytes: 5e9, MBps: 300, Ratio: 2},
				{Mix: "pool-heavy", Command: "imas report", Bytes: 5e9, MBps: 200, CPU: "Kunpeng 920, 8 CPUs"}}},
		{name: "row without throughput", file: "bad.json", body: `{"bytes":10}`, wantErr: true},
		{name: "not JSON", file: "junk.json", body: `run 1: grep 0.4s`, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readRows(write(tc.file, tc.body))
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d rows, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("row %d: got %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestRenderTable(t *testing.T) {
	rows := []row{
		{Mix: "set-heavy", Command: "imas total", Bytes: 587202671, MBps: 1096.7, Records: 4_123_456, Ratio: 1.2265, RSSMiB: 233.2, Runs: 3},
		{Mix: "set-heavy", Command: "imas total", Bytes: 5_400_000_000, MBps: 1000, Ratio: 1.3, Scaling: 1.0967, RSSMiB: 240, Runs: 3},
		{Mix: "a|b", Command: "imas report", Bytes: 5_400_000_000, MBps: 250, CPU: "Kunpeng 920, 8 CPUs"},
	}
	want := "| mix | size | command | throughput | records/s | × `grep -c` | scaling | peak RSS | CPU |\n" +
		"|---|---:|---|---:|---:|---:|---:|---:|---|\n" +
		"| set-heavy | 587 MB | `imas total` | 1097 MB/s | 4.12M | 1.23 | — | 233 MiB | AMD EPYC, 2 CPUs |\n" +
		"| set-heavy | 5.4 GB | `imas total` | 1000 MB/s | — | 1.30 | 1.10 | 240 MiB | AMD EPYC, 2 CPUs |\n" +
		"| a\\|b | 5.4 GB | `imas report` | 250 MB/s | — | — | — | — | Kunpeng 920, 8 CPUs |\n" +
		"\nScaling: the time of a row over that of the same mix at the first size measured, times the ratio of their sizes (5 GB / (10 × 0.5 GB)); 1 is time growing as the input does.\n" +
		"\nMedians of up to 3 alternating runs of each command; written by `make bench` (`internal/benchtable`).\n"
	if got := renderTable(rows, "AMD EPYC, 2 CPUs"); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestReplaceTable(t *testing.T) {
	doc := "# Perf\n\nintro\n\n" + beginMarker + "\nold table\nold note\n" + endMarker + "\n\nafter\n"
	got, err := replaceTable([]byte(doc), "| new |\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# Perf\n\nintro\n\n" + beginMarker + "\n| new |\n" + endMarker + "\n\nafter\n"
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// Rewriting again gives the same text: the markers stay.
	again, err := replaceTable(got, "| new |\n")
	if err != nil || string(again) != want {
		t.Errorf("second rewrite: %v\n%q", err, again)
	}
	for _, bad := range []string{"no markers\n", beginMarker + "\nno end\n", endMarker + "\n" + beginMarker + "\n"} {
		if _, err := replaceTable([]byte(bad), "x"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestReadBenchRows(t *testing.T) {
	out := `goos: linux
goarch: amd64
pkg: imas/internal/pagetest
cpu: AMD EPYC
BenchmarkPageAnalyze/worker/plain-2         	       1	        0 ns/op	        55.10 MB/s	        60.00 ended-MB/s	        80.20 engine-MB/s	        55.10 text-MB/s
BenchmarkPageAnalyze/settled/gzip-2         	       1	        0 ns/op	        11.70 MB/s	        95.00 ended-MB/s	       120.00 engine-MB/s	        90.40 text-MB/s
BenchmarkPageLoad-2                         	       1	        0 ns/op	      2100 load-ms
BenchmarkPageRead-2                         	       1	        0 ns/op	       230.7 MB/s
PASS
ok  	imas/internal/pagetest	60.1s
`
	p := filepath.Join(t.TempDir(), "page.txt")
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		re   string
		want []row
	}{
		{"", []row{
			{Mix: "PageAnalyze/worker/plain", Command: "page", MBps: 55.1},
			{Mix: "PageAnalyze/settled/gzip", Command: "page", MBps: 90.4},
			{Mix: "PageRead", Command: "page", MBps: 230.7},
		}},
		{"PageAnalyze/settled/", []row{{Mix: "PageAnalyze/settled/gzip", Command: "page", MBps: 90.4}}},
	} {
		got, err := readBenchRows(p, regexp.MustCompile(tc.re), "page")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%q: got %+v, want %+v", tc.re, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q row %d: got %+v, want %+v", tc.re, i, got[i], tc.want[i])
			}
		}
	}
	// A row without size, ratio or RSS renders dashes there.
	table := renderTable([]row{{Mix: "PageRead", Command: "page", MBps: 230.7}}, "AMD EPYC, 2 CPUs")
	if !strings.Contains(table, "| PageRead | — | `page` | 231 MB/s | — | — | — | — | AMD EPYC, 2 CPUs |") {
		t.Errorf("table:\n%s", table)
	}
}
