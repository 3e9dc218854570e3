package pagetest

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"imas/internal/gen"
)

// parseBytes reads a size such as 512M, 1G or 2G (binary units).
func parseBytes(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("size %q: want a number of bytes, or of M or G", s)
	}
	return int64(n * float64(mult)), nil
}

// rankFolder is a plog folder of about size bytes of eleven processes that
// compile static graphs and feed busy RT2 pools (elevenRanks' mix), made
// once in os.TempDir()/imas-page-ranks-<size> and kept for the next runs
// (the generator is deterministic; a "complete" file marks a whole set).
func rankFolder(t testing.TB, size string) []string {
	t.Helper()
	n, err := parseBytes(size)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(os.TempDir(), "imas-page-ranks-"+size)
	done := filepath.Join(dir, "complete")
	if _, err := os.Stat(done); err != nil {
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Logf("generating %s of plogs in %s", size, dir)
		if _, err := gen.Generate(elevenRankProfile(t, n), dir); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "plog-*.log"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no plogs in %s: %v", dir, err)
	}
	return files
}

// folderBytes is the summed size of files.
func folderBytes(t testing.TB, files []string) int64 {
	t.Helper()
	var n int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		n += st.Size()
	}
	return n
}

// rendererMemory reads the resident memory of the shared browser's
// renderer processes (a tab's page and its Web Workers live in one), from
// /proc.
type rendererMemory struct{ pids []int }

// renderers finds the renderer processes of the shared browser: those
// with --type=renderer that descend from its process (other browsers may
// run on the machine).
func renderers(t testing.TB) rendererMemory {
	t.Helper()
	c := chromedp.FromContext(shared.ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		t.Fatal("no browser process")
	}
	browser := c.Browser.Process().Pid
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	parent := map[int]int{}
	var cands []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut at its end.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) > 1 {
			parent[pid], _ = strconv.Atoi(fields[1])
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmd), "--type=renderer") && !strings.Contains(string(cmd), "--extension-process") {
			cands = append(cands, pid)
		}
	}
	var r rendererMemory
	for _, pid := range cands {
		for up, p := 0, parent[pid]; up < 8 && p > 1; up, p = up+1, parent[p] {
			if p == browser {
				r.pids = append(r.pids, pid)
				break
			}
		}
	}
	if len(r.pids) == 0 {
		t.Fatalf("no renderer process of the browser (pid %d)", browser)
	}
	return r
}

func (r rendererMemory) resetPeaks() {
	for _, pid := range r.pids {
		os.WriteFile(filepath.Join("/proc", strconv.Itoa(pid), "clear_refs"), []byte("5"), 0)
	}
}

// peak returns the largest VmHWM and VmRSS among the renderers, in bytes.
func (r rendererMemory) peak() (hwm, rss int64) {
	for _, pid := range r.pids {
		f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok || k != "VmHWM" && k != "VmRSS" {
				continue
			}
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if k == "VmHWM" {
				hwm = max(hwm, kb<<10)
			} else {
				rss = max(rss, kb<<10)
			}
		}
		f.Close()
	}
	return hwm, rss
}

// threadCPU is the CPU time of each thread of the renderers (by its
// /proc/<pid>/task name) and of the browser's own process (which reads the
// Files for the page).
type threadCPU struct {
	threads map[string]time.Duration // "<tid> <comm>"
	browser time.Duration
}

// cpu reads utime+stime of every thread of the renderers and the browser.
// On a machine shared with other jobs the wall time moves with their load;
// the CPU time a build spends moves much less.
func (r rendererMemory) cpu() threadCPU {
	c := threadCPU{threads: map[string]time.Duration{}}
	each := func(pid int, f func(tid, comm string, d time.Duration)) {
		tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "stat"))
		for _, task := range tasks {
			stat, err := os.ReadFile(task)
			if err != nil {
				continue
			}
			open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
			if open < 0 || end < open {
				continue
			}
			// After the comm: state ppid pgrp session tty tpgid flags minflt
			// cminflt majflt cmajflt utime stime (clock ticks of 10 ms).
			fields := strings.Fields(string(stat[end+1:]))
			if len(fields) < 13 {
				continue
			}
			ut, _ := strconv.ParseInt(fields[11], 10, 64)
			st, _ := strconv.ParseInt(fields[12], 10, 64)
			f(filepath.Base(filepath.Dir(task)), string(stat[open+1:end]), time.Duration(ut+st)*10*time.Millisecond)
		}
	}
	for _, pid := range r.pids {
		each(pid, func(tid, comm string, d time.Duration) { c.threads[tid+" "+comm] = d })
	}
	if b := chromedp.FromContext(shared.ctx); b != nil && b.Browser != nil && b.Browser.Process() != nil {
		each(b.Browser.Process().Pid, func(_, _ string, d time.Duration) { c.browser += d })
	}
	return c
}

// busiestSince lists the threads that spent the most since c0, and the browser.
func (c threadCPU) busiestSince(c0 threadCPU) string {
	type spent struct {
		name string
		d    time.Duration
	}
	var all []spent
	for k, d := range c.threads {
		if d -= c0.threads[k]; d >= 100*time.Millisecond {
			_, comm, _ := strings.Cut(k, " ")
			all = append(all, spent{comm, d})
		}
	}
	slices.SortFunc(all, func(a, b spent) int { return cmp.Compare(b.d, a.d) })
	var out []string
	for _, s := range all {
		out = append(out, fmt.Sprintf("%s %.1f", s.name, s.d.Seconds()))
	}
	return fmt.Sprintf("renderer threads (s): %s; browser process %.1f s", strings.Join(out, ", "), (c.browser - c0.browser).Seconds())
}

// since returns the CPU time spent from c0 to c: all of it, and that of
// the busiest thread whose name starts with prefix.
func (c threadCPU) since(c0 threadCPU, prefix string) (all, busiest time.Duration) {
	all = c.browser - c0.browser
	for k, d := range c.threads {
		d -= c0.threads[k]
		all += d
		if _, comm, _ := strings.Cut(k, " "); strings.HasPrefix(comm, prefix) {
			busiest = max(busiest, d)
		}
	}
	return all, busiest
}

// BenchmarkPageFolder reads plog folders of eleven processes (static
// graphs, busy RT2 pools) of the sizes in IMAS_BENCH_FOLDERS (e.g. "1G,2G";
// none without it) through the file input of a cold page (?warmup=0, a
// fresh tab; with IMAS_BENCH_WARM=1 once the page's warm-ups are done),
// and reports:
//
//	MB/s         input bytes / wall time from choosing the files to every
//	             graph's row, map and first tensor page on screen
//	engine-MB/s  input bytes / the engine's own analysis time
//	tab-peak-MB  the renderer's peak resident memory (VmHWM) during the
//	             analysis: the page, the engine's worker and the reader's
//	tab-MB       its resident memory once the results are shown
//	tab-idle-MB  its resident memory before the files are chosen
//	go-sys-MB    what the engine's Go runtime took from the wasm memory
//	             (runtime.MemStats.Sys, at the end: wasm memory never shrinks)
//	graphs       graph rows shown
//	cpu-s        CPU seconds of the renderer (page, engine, reader,
//	             compilers) and the browser's process during the analysis
//	engine-cpu-s CPU seconds of the busiest worker thread (the engine's)
func BenchmarkPageFolder(b *testing.B) {
	sizes := os.Getenv("IMAS_BENCH_FOLDERS")
	if sizes == "" {
		b.Skip("IMAS_BENCH_FOLDERS not set (e.g. 1G,2G)")
	}
	folders := map[string][]string{}
	for _, size := range strings.Split(sizes, ",") {
		folders[size] = rankFolder(b, size)
	}
	pageURL(b, "")
	// IMAS_BENCH_WARM=1: the page as a user gets it, its warm-ups done
	// (they run while the user chooses files) before the files are chosen.
	warm := os.Getenv("IMAS_BENCH_WARM") == "1"
	query := "?warmup=0"
	if warm {
		query = "?"
	}
	if q := os.Getenv("IMAS_BENCH_QUERY"); q != "" {
		query += "&" + strings.TrimPrefix(q, "?")
	}
	for _, size := range strings.Split(sizes, ",") {
		files := folders[size]
		total := folderBytes(b, files)
		b.Run(size, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				t := newTab(b, 30*time.Minute)
				t.open(b, query)
				if warm {
					t.run(b, chromedp.WaitReady(`html[data-warm]`, chromedp.ByQuery))
				}
				r := renderers(b)
				_, idle := r.peak()
				r.resetPeaks()
				cpu0 := r.cpu()
				start := time.Now()
				t.load(b, 1, files...)
				wall := time.Since(start)
				cpu1 := r.cpu()
				hwm, rss := r.peak()
				var secs string
				t.run(b, chromedp.AttributeValue(`[data-field="seconds"]`, "data-value", &secs, nil, chromedp.ByQuery))
				engine, _ := strconv.ParseFloat(secs, 64)
				var prog struct {
					GoSys int64 `json:"go_sys"`
				}
				var js string
				t.eval(b, `imasPage.progress || '{}'`, &js)
				json.Unmarshal([]byte(js), &prog)
				var graphs int
				t.eval(b, `document.querySelectorAll('tr[data-graph]').length`, &graphs)
				b.ReportMetric(float64(total)/1e6/wall.Seconds(), "MB/s")
				b.ReportMetric(float64(total)/1e6/engine, "engine-MB/s")
				b.ReportMetric(float64(hwm)/(1<<20), "tab-peak-MB")
				b.ReportMetric(float64(rss)/(1<<20), "tab-MB")
				b.ReportMetric(float64(idle)/(1<<20), "tab-idle-MB")
				b.ReportMetric(float64(prog.GoSys)/(1<<20), "go-sys-MB")
				b.ReportMetric(float64(graphs), "graphs")
				b.ReportMetric(wall.Seconds(), "wall-s")
				// A worker thread's name, "DedicatedWorker thread", is cut to 15 bytes.
				all, engineCPU := cpu1.since(cpu0, "DedicatedWorker")
				b.ReportMetric(all.Seconds(), "cpu-s")
				b.Log(cpu1.busiestSince(cpu0))
				b.ReportMetric(engineCPU.Seconds(), "engine-cpu-s")
				t.clean(b)
			}
			b.ReportMetric(0, "ns/op")
		})
	}
}

// TestLargeFolder analyses a plog folder of IMAS_PAGE_LARGE bytes (e.g.
// 2G; skipped without it: make test-page-large) of eleven processes with
// static graphs and busy RT2 pools, chosen through the file input of a
// cold page: every graph row, on every page of the graphs table, shows the
// memory_size and tensors of the CLI's report.json (IMAS_BIN report on the
// same files), there are as many rows as the report has graphs, and the
// last progress message read every byte once.
func TestLargeFolder(t *testing.T) {
	size := os.Getenv("IMAS_PAGE_LARGE")
	if size == "" {
		t.Skip("IMAS_PAGE_LARGE not set (e.g. 2G): run make test-page-large")
	}
	cli := os.Getenv("IMAS_BIN")
	if cli == "" {
		t.Skip("IMAS_BIN (the CLI) not set: run make test-page-large")
	}
	pageURL(t, "")
	files := rankFolder(t, size)
	want := cliGraphs(t, cli, files)
	if len(want) < 11 {
		t.Fatalf("the CLI reports %d graphs", len(want))
	}
	b := newTab(t, 40*time.Minute)
	b.open(t, "?warmup=0")
	start := time.Now()
	b.load(t, 1, files...)
	t.Logf("%d files, %d MB: results in %.0f s, %d graphs", len(files), folderBytes(t, files)>>20, time.Since(start).Seconds(), len(want))
	// The progress bar counts each byte once, though the engine reads the
	// head of every file before it reads the files side by side.
	var prog struct{ Read, Total int64 }
	var js string
	b.eval(t, `imasPage.progress || '{}'`, &js)
	if err := json.Unmarshal([]byte(js), &prog); err != nil || prog.Total != folderBytes(t, files) || prog.Read != prog.Total {
		t.Errorf("last progress %s (%v): want %d bytes read of %d", js, err, folderBytes(t, files), folderBytes(t, files))
	}
	got := b.allGraphRows(t)
	if len(got) != len(want) {
		t.Errorf("%d graph rows shown, the CLI's report.json has %d", len(got), len(want))
	}
	bad := 0
	for id, w := range want {
		row, ok := got[id]
		switch {
		case !ok:
			t.Errorf("no row data-graph=%q", id)
		case row["memory_size"] != strconv.FormatInt(w.MemorySize, 10) || row["tensors"] != strconv.FormatInt(w.Tensors, 10):
			t.Errorf("%s: memory_size %s tensors %s, the CLI's %d %d", id, row["memory_size"], row["tensors"], w.MemorySize, w.Tensors)
		default:
			continue
		}
		if bad++; bad == 20 {
			t.Fatal("and more")
		}
	}
	b.clean(t)
}

// cliGraph is a graph of the CLI's report.json.
type cliGraph struct {
	PID        string `json:"pid"`
	Graph      string `json:"graph"`
	MemType    int64  `json:"memtype"`
	MemorySize int64  `json:"memory_size"`
	Tensors    int64  `json:"tensors"`
}

// cliGraphs runs `cli report` on files and returns the graphs of its
// report.json by their data-graph id.
func cliGraphs(t *testing.T, cli string, files []string) map[string]cliGraph {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(cli, append([]string{"report", "-o", out}, files...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s report: %v\n%s", cli, err, msg)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Graphs []cliGraph `json:"graphs"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	m := map[string]cliGraph{}
	for _, g := range rep.Graphs {
		m[fmt.Sprintf("%s/%s/%d", g.PID, g.Graph, g.MemType)] = g
	}
	return m
}

// allGraphRows reads every page of the graphs table (shownGraphs of each).
func (b *tab) allGraphRows(t *testing.T) map[string]map[string]string {
	t.Helper()
	all := b.shownGraphs(t)
	var pages int
	b.eval(t, `(() => { const s = document.querySelector('.graphs .pager span');
		return s ? +s.textContent.replace(/\D+$/, '').replace(/^.* of /, '').replace(/\D/g, '') : 1; })()`, &pages)
	for p := 2; p <= pages; p++ {
		b.run(t, chromedp.Click(`.graphs .pager button.next`, chromedp.ByQuery),
			chromedp.Poll(fmt.Sprintf(`(document.querySelector('.graphs .pager span') || {}).textContent.startsWith('page %d ')`, p), nil))
		for id, row := range b.shownGraphs(t) {
			all[id] = row
		}
	}
	return all
}
