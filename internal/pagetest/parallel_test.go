package pagetest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"imas/internal/gen"
)

// elevenRanks writes about size bytes of plogs of eleven processes that
// compile graphs and feed busy RT2 pools, interleaved in time (the
// poolheavy mix with more ranks), and returns the files.
func elevenRanks(t testing.TB, size int64) []string {
	t.Helper()
	dir := t.TempDir()
	truth, err := gen.Generate(elevenRankProfile(t, size), dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range truth.Files {
		files = append(files, filepath.Join(dir, f.Name))
	}
	return files
}

// TestParallelParse analyses ~100 MB of eleven processes through the
// page's parse workers (?parsers=3, whatever the machine's core count):
// every graph row shows the native core's figures, and more than one
// worker parsed chunks (the engine's last progress message counts them).
// With ?readstreams=1 the reader worker keeps one byte stream open, so the
// files read side by side start their streams again at an offset.
func TestParallelParse(t *testing.T) {
	files := elevenRanks(t, 100<<20)
	want := nativeGraphs(t, files...)
	if len(want) < 11 {
		t.Fatalf("the generated logs have %d graphs", len(want))
	}
	for _, c := range []struct {
		query   string
		workers int // that must have parsed chunks
	}{{"?parsers=3", 2}, {"?parsers=0", 0}, {"?parsers=0&readstreams=1", 0}} {
		t.Run(c.query, func(t *testing.T) {
			b := newTab(t, 4*time.Minute)
			b.open(t, c.query)
			b.load(t, 1, files...)
			checkFigures(t, b.shownGraphs(t), want)
			b.checkParsed(t, c.workers)
			if c.workers > 0 {
				// Cancel stops every worker and starts new ones: the next
				// analysis runs on them.
				b.run(t, chromedp.SetUploadFiles("#files", []string{sparseFile(t)}, chromedp.ByQuery),
					chromedp.WaitVisible(`#cancel`, chromedp.ByQuery))
				b.clickFor(t, `#cancel`, `.imas[data-ends="2"][data-pending="0"]`)
				var count struct{ Started, Terminated int }
				b.eval(t, `imasPage.parseWorkers`, &count)
				if count.Started != 6 || count.Terminated != 3 {
					t.Errorf("parse workers after a cancel: %+v, want 6 started, 3 terminated", count)
				}
				b.load(t, 3, files...)
				checkFigures(t, b.shownGraphs(t), want)
				b.checkParsed(t, c.workers)
			}
			b.clean(t)
		})
	}
}

// elevenRankProfile is the poolheavy mix with eleven processes, about
// size bytes in all.
func elevenRankProfile(t testing.TB, size int64) gen.Profile {
	t.Helper()
	p, err := gen.ProfileByName("poolheavy", 0, size)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(p.Processes); i < 11; i++ {
		s := p.Processes[i%len(p.Processes)]
		s.PID += 5000 + i
		s.StartUnix += int64(i)
		p.Processes = append(p.Processes, s)
	}
	return p
}

// checkParsed checks that at least n parse workers parsed chunks of the
// last analysis, and none when n is 0.
func (b *tab) checkParsed(t *testing.T, n int) {
	t.Helper()
	var parsed []int64
	b.eval(t, `JSON.parse(imasPage.progress).parsed || []`, &parsed)
	busy := 0
	for _, k := range parsed {
		if k > 0 {
			busy++
		}
	}
	if busy < n || n == 0 && len(parsed) > 0 {
		t.Errorf("chunks parsed by each worker: %v; want at least %d workers busy", parsed, n)
	}
	t.Logf("chunks parsed by each worker: %v", parsed)
}

// sparseFile is a 4 GiB file of zeros: free to make, and seconds to read.
func sparseFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(4 << 30); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestParseWatchdog starts parse worker 0 as one that takes chunks and
// never answers (?parsestall=0): the watchdog gives it up after
// ?parsetimeout ms, the engine parses its chunks, the analysis ends with
// the native core's figures, and the page says that a worker stopped
// answering (the last progress counts it).
func TestParseWatchdog(t *testing.T) {
	files := elevenRanks(t, 24<<20)
	want := nativeGraphs(t, files...)
	b := newTab(t, 3*time.Minute)
	b.open(t, "?parsers=2&parsestall=0&parsetimeout=5000")
	b.load(t, 1, files...)
	checkFigures(t, b.shownGraphs(t), want)
	var got struct {
		Parsed  []int64 `json:"parsed"`
		Stalled int     `json:"stalled"`
	}
	var progress, note string
	b.eval(t, `imasPage.progress`, &progress)
	b.eval(t, `(document.querySelector('.note')||{}).textContent||''`, &note)
	if err := json.Unmarshal([]byte(progress), &got); err != nil {
		t.Fatal(err)
	}
	if got.Stalled < 1 || len(got.Parsed) != 2 || got.Parsed[0] != 0 || got.Parsed[1] == 0 {
		t.Errorf("last progress %s: want worker 0 given up (stalled ≥ 1) and worker 1 busy", progress)
	}
	if !strings.Contains(note, "stopped answering") {
		t.Errorf("the page's note %q does not say that a parse worker stopped answering", note)
	}
	b.clean(t)
}

// TestParserCount checks the default number of parse workers against
// navigator.hardwareConcurrency (overridden through the DevTools protocol
// before the page loads): the page's thread and the engine's take two
// cores, the rest parse, four at most; ?parsers=N still forces N.
func TestParserCount(t *testing.T) {
	files, _ := sample(t, "mixed")
	for _, c := range []struct {
		cores   int64
		query   string
		workers int
	}{{2, "", 0}, {3, "", 1}, {8, "", 4}, {64, "", 4}, {2, "?parsers=3", 3}, {8, "?parsers=0", 0}} {
		t.Run(fmt.Sprintf("%d-cores%s", c.cores, c.query), func(t *testing.T) {
			b := newTab(t, 2*time.Minute)
			b.run(t, emulation.SetHardwareConcurrencyOverride(c.cores))
			b.open(t, c.query)
			b.load(t, 1, files...)
			var parsed []int64
			b.eval(t, `JSON.parse(imasPage.progress).parsed || []`, &parsed)
			if len(parsed) != c.workers {
				t.Errorf("%d parse workers (chunks each parsed: %v), want %d", len(parsed), parsed, c.workers)
			}
			b.clean(t)
		})
	}
}

// TestProgressManyFiles reads eleven files and checks every progress
// message of the analysis: how many files are read, the file being read
// with its bytes read and its size, and the totals, up to the last
// message, where every file is read.
func TestProgressManyFiles(t *testing.T) {
	files := elevenRanks(t, 24<<20)
	size := map[string]int64{}
	var total int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		size[filepath.Base(f)] = st.Size()
		total += st.Size()
	}
	b := newTab(t, 3*time.Minute)
	b.open(t, "?parsers=0")
	b.eval(t, `(window.progressSeen = [], imasEngine.addEventListener('message', (e) => {
		if (e.data && e.data.kind === 'progress') progressSeen.push(e.data.json);
	}), 0)`, nil)
	b.load(t, 1, files...)
	var seen []string
	b.eval(t, `progressSeen`, &seen)
	if len(seen) < 2 {
		t.Fatalf("%d progress messages", len(seen))
	}
	var prev struct {
		read int64
		done int
	}
	for k, text := range seen {
		var p struct {
			Read       int64  `json:"read"`
			Total      int64  `json:"total"`
			Inputs     int    `json:"inputs"`
			InputsDone int    `json:"inputs_done"`
			Input      string `json:"input"`
			InputRead  int64  `json:"input_read"`
			InputSize  int64  `json:"input_size"`
		}
		if err := json.Unmarshal([]byte(text), &p); err != nil {
			t.Fatal(err)
		}
		bad := p.Total != total || p.Inputs != len(files) || p.InputsDone < prev.done || p.Read < prev.read ||
			p.InputsDone > p.Inputs || p.Read > p.Total
		if p.Input != "" {
			bad = bad || p.InputSize != size[p.Input] || p.InputRead > p.InputSize
		}
		if k == len(seen)-1 {
			bad = bad || p.InputsDone != len(files) || p.Read != total || p.Input == ""
		}
		if bad {
			t.Errorf("progress message %d of %d: %s (files %v, %d bytes)", k+1, len(seen), text, size, total)
		}
		prev.read, prev.done = p.Read, p.InputsDone
	}
	b.clean(t)
}
