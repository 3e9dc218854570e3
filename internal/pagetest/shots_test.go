package pagetest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestScreenshots saves the main views at 1440 and 1024 px wide as PNGs in
// $IMAS_SHOTS (docs/ for the docs: IMAS_SHOTS=docs make test-page): the
// overview with the graphs ranked, and a graph's timeline and map.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("IMAS_SHOTS")
	if dir == "" {
		t.Skip("IMAS_SHOTS not set")
	}
	dir, _ = filepath.Abs(filepath.Join("..", "..", dir))
	files, _ := sample(t, "mixed")
	for _, w := range []int64{1440, 1024} {
		b := newTab(t, 120*time.Second)
		b.run(t, emulation.SetDeviceMetricsOverride(w, 900, 1, false))
		b.open(t, "")
		b.load(t, 1, files...)
		b.run(t, chromedp.WaitVisible(`#imas-map[data-drawn]`, chromedp.ByQuery))
		for _, v := range []struct{ name, at string }{{"overview", `.overview`}, {"graph", `.mapwrap`}} {
			var png []byte
			b.run(t, chromedp.ScrollIntoView(v.at, chromedp.ByQuery), chromedp.Sleep(300*time.Millisecond),
				chromedp.CaptureScreenshot(&png))
			p := filepath.Join(dir, fmt.Sprintf("page-%s-%d.png", v.name, w))
			if err := os.WriteFile(p, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes", p, len(png))
		}
		b.clean(t)
	}
}
