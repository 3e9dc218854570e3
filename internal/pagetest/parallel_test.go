package pagetest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

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
