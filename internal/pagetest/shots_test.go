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
// overview with the graphs ranked, and a graph's timeline and map (also in
// the dark scheme).
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("IMAS_SHOTS")
	if dir == "" {
		t.Skip("IMAS_SHOTS not set")
	}
	dir, _ = filepath.Abs(filepath.Join("..", "..", dir))
	files, _ := sample(t, "mixed")
	for _, c := range []struct {
		w      int64
		scheme string
	}{{1440, "light"}, {1024, "light"}, {1440, "dark"}} {
		w := c.w
		b := newTab(t, 120*time.Second)
		b.run(t, emulation.SetDeviceMetricsOverride(w, 900, 1, false),
			emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: c.scheme}}))
		b.open(t, "")
		b.load(t, 1, files...)
		b.run(t, chromedp.WaitVisible(`#imas-map[data-drawn]`, chromedp.ByQuery))
		for _, v := range []struct{ name, at string }{{"overview", `.overview`}, {"graph", `.mapwrap`}} {
			var png []byte
			b.run(t, chromedp.ScrollIntoView(v.at, chromedp.ByQuery), chromedp.Sleep(300*time.Millisecond),
				chromedp.CaptureScreenshot(&png))
			name := fmt.Sprintf("page-%s-%d.png", v.name, w)
			if c.scheme == "dark" {
				if v.name != "graph" {
					continue
				}
				name = fmt.Sprintf("page-%s-%d-dark.png", v.name, w)
			}
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes", p, len(png))
		}
		b.clean(t)
	}
}
