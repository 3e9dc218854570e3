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
	dir := t.TempDir()
	truth, err := gen.Generate(p, dir)
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
func TestParallelParse(t *testing.T) {
	files := elevenRanks(t, 100<<20)
	want := nativeGraphs(t, files...)
	if len(want) < 11 {
		t.Fatalf("the generated logs have %d graphs", len(want))
	}
	for _, c := range []struct {
		query   string
		workers int // that must have parsed chunks
	}{{"?parsers=3", 2}, {"?parsers=0", 0}} {
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
				b.load(t, 3, files...)
				checkFigures(t, b.shownGraphs(t), want)
				b.checkParsed(t, c.workers)
			}
			b.clean(t)
		})
	}
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
	b.open(t, "?parsers=2&parsestall=0&parsetimeout=1500")
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
