// Command benchcmp measures "imas total DIR" against "grep -c '\[IMAS\]'"
// over the same files, alternating runs and taking medians, and reports the
// wall-time ratio and imas's peak RSS. With -check it compares the ratio with
// a stored baseline and fails on a regression. It is run by make bench and
// make bench-check, never by make test.
//
// With -base it also runs an older imas binary (make bench-check builds the
// commit named in the baseline file) in the same alternation, and -check then
// judges the code by imas/base, measured side by side: the imas/grep ratio of
// one VM moves by 30 % and more from day to day (the cost of fresh memory,
// the host's load), grep's and imas's unequally, so a stored ratio alone fails
// on a slower day and passes a regression on a faster one.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"time"
)

type result struct {
	Mix        string  `json:"mix,omitempty"`
	Machine    string  `json:"machine"`
	Bytes      int64   `json:"bytes"`
	Files      int     `json:"files"`
	Runs       int     `json:"runs"`
	GrepSec    float64 `json:"grep_seconds"`
	ImasSec    float64 `json:"imas_seconds"`
	Ratio      float64 `json:"ratio"`
	ImasRSSMiB float64 `json:"imas_peak_rss_mib"`
	ImasCPUSec float64 `json:"imas_cpu_seconds"`
	GrepMBps   float64 `json:"grep_mb_per_s"`
	ImasMBps   float64 `json:"imas_mb_per_s"`
	// RecordsPS is set with -rows (the records are counted then).
	RecordsPS float64 `json:"records_per_s,omitempty"`
	// Scaling is set with -scale-of: this run's time over the smaller
	// run's scaled by the sizes (1: time grows as the input does).
	Scaling float64 `json:"scaling,omitempty"`
	// ScalingCPU is the same of imas's CPU time, which a busy host
	// disturbs less than the wall time.
	ScalingCPU float64 `json:"scaling_cpu,omitempty"`
	// BaseCommit is the commit make bench-check builds as the same-run
	// baseline; BaseSec and BaseRatio (imas/base) are set when one ran.
	BaseCommit string  `json:"base_commit,omitempty"`
	BaseSec    float64 `json:"base_seconds,omitempty"`
	BaseRatio  float64 `json:"imas_over_base,omitempty"`
}

func main() {
	dir := flag.String("dir", "", "directory of plogs to measure")
	imas := flag.String("imas", "bin/imas", "imas binary")
	runs := flag.Int("runs", 3, "alternating runs of each command")
	out := flag.String("o", "", "write the result as JSON here")
	baseline := flag.String("baseline", "", "baseline JSON to compare against (with -check)")
	check := flag.Bool("check", false, "fail when the ratio regressed by more than -tolerance")
	tol := flag.Float64("tolerance", 0.20, "allowed relative regression of the ratio")
	baseBin := flag.String("base", "", "an older imas binary to run alternately as the same-run baseline")
	mix := flag.String("mix", "", "name of the input's mix, for -rows")
	rowsOut := flag.String("rows", "", "append one tab-separated row (mix, MB, MB/s, records/s, ratio, CPU s, peak RSS MiB, scaling) to this file")
	scaleOf := flag.String("scale-of", "", "the -o JSON of the same mix at a smaller size: report this run's scaling, time / (size ratio × that time)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: benchcmp -dir DIR [-runs N] [-o out.json] [-baseline b.json -check]")
		os.Exit(2)
	}
	files, size := plogs(*dir)
	if len(files) == 0 {
		fail("no files in %s", *dir)
	}
	// Warm the page cache so both commands read from memory.
	for _, f := range files {
		b, _ := os.ReadFile(f)
		_ = b
	}
	var grepT, imasT, baseT, cpuT []float64
	var rss int64
	for i := 0; i < *runs; i++ {
		t, _ := timed(append([]string{"grep", "-c", `\[IMAS\]`}, files...))
		grepT = append(grepT, t)
		t, r := timed([]string{*imas, "total", *dir})
		imasT = append(imasT, t)
		cpuT = append(cpuT, lastCPU)
		if r > rss {
			rss = r
		}
		line := fmt.Sprintf("run %d: grep %.3fs imas %.3fs (peak RSS %.0f MiB)", i+1, grepT[i], imasT[i], float64(r)/1024)
		if *baseBin != "" {
			t, _ := timed([]string{*baseBin, "total", *dir})
			baseT = append(baseT, t)
			line += fmt.Sprintf(" base %.3fs", t)
		}
		fmt.Fprintln(os.Stderr, line)
	}
	res := result{
		Mix:     *mix,
		Machine: fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		Bytes:   size, Files: len(files), Runs: *runs,
		GrepSec: median(grepT), ImasSec: median(imasT), ImasRSSMiB: float64(rss) / 1024,
		ImasCPUSec: median(cpuT),
	}
	res.Ratio = res.ImasSec / res.GrepSec
	res.GrepMBps = float64(size) / 1e6 / res.GrepSec
	res.ImasMBps = float64(size) / 1e6 / res.ImasSec
	fmt.Printf("input: %d files, %.0f MB\n", res.Files, float64(size)/1e6)
	fmt.Printf("grep -c '\\[IMAS\\]': %.3f s (%.0f MB/s)\n", res.GrepSec, res.GrepMBps)
	fmt.Printf("imas total:          %.3f s (%.0f MB/s), peak RSS %.0f MiB\n", res.ImasSec, res.ImasMBps, res.ImasRSSMiB)
	fmt.Printf("ratio imas/grep:     %.2f (median of %d alternating runs)\n", res.Ratio, *runs)
	if len(baseT) > 0 {
		res.BaseSec = median(baseT)
		res.BaseRatio = res.ImasSec / res.BaseSec
		fmt.Printf("base imas total:     %.3f s (%s); imas/base %.2f\n", res.BaseSec, *baseBin, res.BaseRatio)
	}
	scaling := "-"
	if *scaleOf != "" {
		small := readResult(*scaleOf)
		factor := float64(res.Bytes) / float64(small.Bytes)
		res.Scaling = res.ImasSec / (factor * small.ImasSec)
		scaling = fmt.Sprintf("%.2f", res.Scaling)
		fmt.Printf("scaling:             %.2f = %.3f s / (%.2f × %.3f s of %.0f MB); target ≤ 1.15\n",
			res.Scaling, res.ImasSec, factor, small.ImasSec, float64(small.Bytes)/1e6)
		if small.ImasCPUSec > 0 {
			res.ScalingCPU = res.ImasCPUSec / (factor * small.ImasCPUSec)
			fmt.Printf("scaling of CPU time: %.2f = %.2f s / (%.2f × %.2f s)\n", res.ScalingCPU, res.ImasCPUSec, factor, small.ImasCPUSec)
		}
	}
	if *rowsOut != "" {
		res.RecordsPS = float64(countRecords(files)) / res.ImasSec
		row := fmt.Sprintf("%s\t%.0f\t%.1f\t%.0f\t%.2f\t%.2f\t%.0f\t%s\n", *mix, float64(size)/1e6, res.ImasMBps,
			res.RecordsPS, res.Ratio, median(cpuT), res.ImasRSSMiB, scaling)
		f, err := os.OpenFile(*rowsOut, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fail("%v", err)
		}
		if st, _ := f.Stat(); st != nil && st.Size() == 0 {
			fmt.Fprintf(f, "# %s\nmix\tMB\tMB/s\trecords/s\tratio to grep -c\timas CPU s\tpeak RSS MiB\tscaling\n", res.Machine)
		}
		f.WriteString(row)
		f.Close()
		fmt.Print("row: ", row)
	}
	if *out != "" {
		b, _ := json.MarshalIndent(res, "", " ")
		os.WriteFile(*out, append(b, '\n'), 0o644)
	}
	if *check {
		b, err := os.ReadFile(*baseline)
		if err != nil {
			fail("baseline: %v", err)
		}
		var base result
		if err := json.Unmarshal(b, &base); err != nil {
			fail("baseline: %v", err)
		}
		limit := base.Ratio * (1 + *tol)
		fmt.Printf("stored baseline ratio %.2f (%s), limit %.2f\n", base.Ratio, base.Machine, limit)
		if res.BaseRatio > 0 {
			// The side-by-side comparison judges the code; the stored
			// ratio only says how this machine compares with that day's.
			if res.BaseRatio > 1+*tol {
				fail("regression: imas/base %.2f > %.2f (base: commit %s)", res.BaseRatio, 1+*tol, base.BaseCommit)
			}
			if res.Ratio > limit {
				fmt.Printf("the imas/grep ratio is over the stored limit, but imas/base in the same runs is %.2f: the machine changed, not the code\n", res.BaseRatio)
			}
			return
		}
		if res.Ratio > limit {
			fail("regression: ratio %.2f > %.2f", res.Ratio, limit)
		}
	}
}

// readResult reads the -o JSON of an earlier run.
func readResult(path string) result {
	b, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	var r result
	if err := json.Unmarshal(b, &r); err != nil {
		fail("%s: %v", path, err)
	}
	if r.Bytes <= 0 || r.ImasSec <= 0 {
		fail("%s: no bytes or imas_seconds", path)
	}
	return r
}

func plogs(dir string) ([]string, int64) {
	var files []string
	var size int64
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() && filepath.Ext(p) == ".log" {
			files = append(files, p)
			size += info.Size()
		}
		return nil
	})
	sort.Strings(files)
	return files, size
}

// timed runs argv and returns the wall time and the child's peak RSS (KiB).
func timed(argv []string) (float64, int64) {
	cmd := exec.Command(argv[0], argv[1:]...)
	// A pipe, not /dev/null: GNU grep stops at the first match when its
	// output is /dev/null.
	cmd.Stdout = io.Discard
	cmd.Stderr = os.Stderr
	start := time.Now()
	err := cmd.Run()
	el := time.Since(start).Seconds()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || argv[0] != "grep" || ee.ExitCode() > 1 {
			fail("%s: %v", argv[0], err)
		}
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	lastCPU = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	return el, rss
}

// lastCPU is the user+system time of the last command timed ran.
var lastCPU float64

// recordMarkers are the markers of the GE memory lines imas reads: a line
// with one is a record (or a rejected candidate).
var recordMarkers = [][]byte{[]byte("[IMAS]"), []byte("[KernelTrace]"), []byte("Malloc block"), []byte("Free block"),
	[]byte("MallocMemory"), []byte("_svm_mem_stats_show"), []byte("caching memory allocator"), []byte("Device memory   :")}

// countRecords counts the lines of files that carry a record marker.
func countRecords(files []string) int64 {
	var n int64
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			fail("%v", err)
		}
		for len(b) > 0 {
			line := b
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				line, b = b[:i], b[i+1:]
			} else {
				b = nil
			}
			for _, m := range recordMarkers {
				if bytes.Contains(line, m) {
					n++
					break
				}
			}
		}
	}
	return n
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func fail(f string, a ...any) {
	fmt.Fprintf(os.Stderr, "benchcmp: "+f+"\n", a...)
	os.Exit(1)
}
