// Command benchtable rewrites the table of current figures in a markdown
// file from the results make bench writes, so that the documented figures
// are always the last measured ones, with the CPU they were measured on.
//
//	benchtable -doc docs/performance.md [-cpuinfo /proc/cpuinfo] RESULT.json...
//
// Each RESULT.json holds one row or a list of rows (a JSON object or an
// array of objects). A row is read from these fields; the others are
// ignored, so any benchmark can add rows by writing them:
//
//	mix                the input's name (default: the file's base name)
//	command            what was timed (default "imas total")
//	bytes              input size
//	imas_mb_per_s      throughput of the command
//	records_per_s      memory records read a second
//	ratio              its wall time over grep -c's on the same files
//	scaling            its time over that of the same mix at a smaller size,
//	                   scaled by the sizes (1: time grows as the input)
//	imas_peak_rss_mib  its peak resident set
//	runs               alternating runs the medians were taken over
//	cpu                the CPU (default: the model name in -cpuinfo)
//
// A RESULT.txt is "go test -bench" output instead: each benchmark line
// with a throughput metric (text-MB/s, else MB/s) and a name matching
// -bench is a row, named after the benchmark, with no size, ratio or RSS
// (the page's benchmarks, for example).
//
// The table replaces whatever lies between the lines
// "<!-- figures:begin -->" and "<!-- figures:end -->" of -doc.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
)

const (
	beginMarker = "<!-- figures:begin -->"
	endMarker   = "<!-- figures:end -->"
)

// row is one line of the figures table.
type row struct {
	Mix     string  `json:"mix"`
	Command string  `json:"command"`
	Bytes   int64   `json:"bytes"`
	MBps    float64 `json:"imas_mb_per_s"`
	Records float64 `json:"records_per_s"`
	Ratio   float64 `json:"ratio"`
	Scaling float64 `json:"scaling"`
	RSSMiB  float64 `json:"imas_peak_rss_mib"`
	Runs    int     `json:"runs"`
	CPU     string  `json:"cpu"`
}

func main() {
	doc := flag.String("doc", "docs/performance.md", "markdown file whose figures table is rewritten")
	cpuinfo := flag.String("cpuinfo", "/proc/cpuinfo", "where the CPU model is read (Linux)")
	bench := flag.String("bench", "", "regexp: the benchmarks of a .txt result that become rows (default all)")
	command := flag.String("command", "go test -bench", "the command column of the rows of a .txt result")
	flag.Parse()
	benchRE, err := regexp.Compile(*bench)
	if err != nil {
		fail("-bench: %v", err)
	}
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: benchtable -doc FILE.md RESULT.json...")
		os.Exit(2)
	}
	cpu := cpuName(*cpuinfo)
	var rows []row
	for _, p := range flag.Args() {
		read := readRows
		if strings.HasSuffix(p, ".txt") {
			read = func(p string) ([]row, error) { return readBenchRows(p, benchRE, *command) }
		}
		rs, err := read(p)
		if err != nil {
			fail("%s: %v", p, err)
		}
		rows = append(rows, rs...)
	}
	text, err := os.ReadFile(*doc)
	if err != nil {
		fail("%v", err)
	}
	out, err := replaceTable(text, renderTable(rows, cpu))
	if err != nil {
		fail("%s: %v", *doc, err)
	}
	if err := os.WriteFile(*doc, out, 0o644); err != nil {
		fail("%v", err)
	}
	fmt.Printf("benchtable: %d rows written to %s\n", len(rows), *doc)
}

// readRows reads one result file: an object or an array of objects.
func readRows(path string) ([]row, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows []row
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		err = json.Unmarshal(b, &rows)
	} else {
		var r row
		err = json.Unmarshal(b, &r)
		rows = []row{r}
	}
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	for i := range rows {
		if rows[i].Mix == "" {
			rows[i].Mix = name
		}
		if rows[i].Command == "" {
			rows[i].Command = "imas total"
		}
		if rows[i].Bytes <= 0 || rows[i].MBps <= 0 {
			return nil, fmt.Errorf("row %d (%s): no bytes or imas_mb_per_s", i, rows[i].Mix)
		}
	}
	return rows, nil
}

// readBenchRows reads "go test -bench" output: one row per benchmark
// line whose name matches re and that reports a throughput.
func readBenchRows(path string, re *regexp.Regexp, command string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		// BenchmarkName/sub-GOMAXPROCS  N  value unit  value unit ...
		name := strings.TrimPrefix(fields[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		if !re.MatchString(name) {
			continue
		}
		metrics := map[string]float64{}
		for i := 2; i+1 < len(fields); i += 2 {
			if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
				metrics[fields[i+1]] = v
			}
		}
		mbps, ok := metrics["text-MB/s"]
		if !ok {
			mbps, ok = metrics["MB/s"]
		}
		if !ok || mbps <= 0 {
			continue
		}
		rows = append(rows, row{Mix: name, Command: command, MBps: mbps})
	}
	return rows, sc.Err()
}

// cpuName is the model name of the first processor in a /proc/cpuinfo
// file and the number of processors, e.g. "AMD EPYC, 2 CPUs". Without the
// file it falls back to what the Go runtime knows.
func cpuName(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("%s, %d CPUs", runtime.GOARCH, runtime.NumCPU())
	}
	defer f.Close()
	return parseCPUInfo(f)
}

func parseCPUInfo(r io.Reader) string {
	model, n := "", 0
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(key) {
		case "processor":
			n++
		case "model name", "Model name", "cpu model", "Hardware":
			if model == "" {
				model = strings.TrimSpace(val)
			}
		}
	}
	if model == "" {
		model = runtime.GOARCH
	}
	if n == 0 {
		n = runtime.NumCPU()
	}
	return fmt.Sprintf("%s, %d CPUs", model, n)
}

// renderTable writes the rows as a markdown table; a row without a CPU of
// its own ran on cpu.
func renderTable(rows []row, cpu string) string {
	var b strings.Builder
	b.WriteString("| mix | size | command | throughput | records/s | × `grep -c` | scaling | peak RSS | CPU |\n")
	b.WriteString("|---|---:|---|---:|---:|---:|---:|---:|---|\n")
	for _, r := range rows {
		c := r.CPU
		if c == "" {
			c = cpu
		}
		ratio := "—"
		if r.Ratio > 0 {
			ratio = fmt.Sprintf("%.2f", r.Ratio)
		}
		sz := "—"
		if r.Bytes > 0 {
			sz = size(r.Bytes)
		}
		rss := "—"
		if r.RSSMiB > 0 {
			rss = fmt.Sprintf("%.0f MiB", r.RSSMiB)
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` | %.0f MB/s | %s | %s | %s | %s | %s |\n",
			cell(r.Mix), sz, cell(r.Command), r.MBps, orDash(r.Records > 0, "%.2fM", r.Records/1e6), ratio,
			orDash(r.Scaling > 0, "%.2f", r.Scaling), rss, cell(c))
	}
	runs := 0
	for _, r := range rows {
		runs = max(runs, r.Runs)
	}
	for _, r := range rows {
		if r.Scaling > 0 {
			b.WriteString("\nScaling: the time of a row over that of the same mix at the first size measured, times the ratio of their sizes (5 GB / (10 × 0.5 GB)); 1 is time growing as the input does.\n")
			break
		}
	}
	if runs > 0 {
		fmt.Fprintf(&b, "\nMedians of up to %d alternating runs of each command; written by `make bench` (`internal/benchtable`).\n", runs)
	} else {
		b.WriteString("\nWritten by `make bench` (`internal/benchtable`).\n")
	}
	return b.String()
}

// orDash formats v, or gives a dash when there is no value.
func orDash(ok bool, format string, v float64) string {
	if !ok {
		return "—"
	}
	return fmt.Sprintf(format, v)
}

// cell keeps a value from breaking the table.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// size formats bytes in decimal units, as the MB/s beside it.
func size(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(n)/1e6)
	default:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
}

// replaceTable puts table between the begin and end markers of doc,
// keeping both marker lines.
func replaceTable(doc []byte, table string) ([]byte, error) {
	s := string(doc)
	i := strings.Index(s, beginMarker)
	if i < 0 {
		return nil, errors.New("no " + beginMarker + " line")
	}
	start := i + len(beginMarker)
	j := strings.Index(s[start:], endMarker)
	if j < 0 {
		return nil, errors.New("no " + endMarker + " after " + beginMarker)
	}
	end := start + j
	return []byte(s[:start] + "\n" + table + s[end:]), nil
}

func fail(f string, a ...any) {
	fmt.Fprintf(os.Stderr, "benchtable: "+f+"\n", a...)
	os.Exit(1)
}
