package pagetest

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
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
			if err := os.WriteFile(p, shrink(t, png), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes captured", p, len(png))
		}
		b.clean(t)
	}
	// A pool on log time, its hover card showing.
	pools, _ := sample(t, "pool")
	b := newTab(t, 120*time.Second)
	b.run(t, emulation.SetDeviceMetricsOverride(1440, 900, 1, false))
	b.open(t, "")
	b.load(t, 1, pools...)
	var top struct{ X, Y float64 }
	b.run(t, chromedp.WaitVisible(`#imas-map[data-shows="pool:0"][data-drawn]`, chromedp.ByQuery))
	b.eval(t, `document.querySelector('.mapwrap').scrollIntoView(), imasMap.top()`, &top)
	var png []byte
	b.run(t, chromedp.MouseEvent(input.MouseMoved, top.X, top.Y), chromedp.WaitVisible(`.hovercard[data-row]`, chromedp.ByQuery),
		chromedp.CaptureScreenshot(&png))
	if err := os.WriteFile(filepath.Join(dir, "page-pool-1440.png"), shrink(t, png), 0o644); err != nil {
		t.Fatal(err)
	}
	b.clean(t)
}

// shrink re-encodes a screenshot with the 256 colours it uses most (the
// rest to the nearest of them): a page is mostly flat colour, and the docs
// want small files.
func shrink(t *testing.T, data []byte) []byte {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	count := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			count[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}]++
		}
	}
	cs := slices.SortedFunc(maps.Keys(count), func(a, b color.RGBA) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a.R, b.R), cmp.Compare(a.G, b.G), cmp.Compare(a.B, b.B))
	})
	pal := make(color.Palette, 0, 256)
	for _, c := range cs[:min(256, len(cs))] {
		pal = append(pal, c)
	}
	out := image.NewPaletted(b, pal)
	draw.Draw(out, b, img, b.Min, draw.Src)
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, out); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
