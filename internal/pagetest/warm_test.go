package pagetest

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestWarmProbe(t *testing.T) {
	if os.Getenv("WARMPROBE") == "" {
		t.Skip()
	}
	pageURL(t, "")
	plain, _ := inputs(t)
	st, _ := os.Stat(plain)
	b := newTab(t, 5*time.Minute)
	b.open(t, "")
	for i := 0; i < 3; i++ {
		start := time.Now()
		b.load(t, i+1, plain)
		wall := time.Since(start)
		var secs string
		b.run(t, chromedp.AttributeValue(`[data-field="seconds"]`, "data-value", &secs, nil, chromedp.ByQuery))
		e, _ := strconv.ParseFloat(secs, 64)
		t.Logf("run %d: wall %.2fs (%.1f MB/s), engine %.2fs (%.1f MB/s)", i, wall.Seconds(), float64(st.Size())/1e6/wall.Seconds(), e, float64(st.Size())/1e6/e)
	}
}
