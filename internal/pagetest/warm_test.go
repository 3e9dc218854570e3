package pagetest

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestWarmProbe analyses the 200 MB plog three times in one page load and
// logs, per run, the wall time, the engine's own time and where the rest
// went (until the engine answered, and from then to the rendered result);
// a measuring tool, skipped unless WARMPROBE is set.
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
		b.eval(t, `performance.clearMarks(); performance.mark('imas-start'); 0`, nil)
		start := time.Now()
		b.load(t, i+1, plain)
		wall := time.Since(start)
		var phase []float64
		b.eval(t, `(() => { const s = performance.getEntriesByName('imas-start').pop().startTime,
			a = performance.getEntriesByName('imas-analysed').pop().startTime;
			return [a - s, performance.now() - a]; })()`, &phase)
		var secs string
		b.run(t, chromedp.AttributeValue(`[data-field="seconds"]`, "data-value", &secs, nil, chromedp.ByQuery))
		e, _ := strconv.ParseFloat(secs, 64)
		t.Logf("run %d: wall %.2fs (%.1f MB/s), engine %.2fs (%.1f MB/s); answer after %.0f ms, shown %.0f ms later",
			i, wall.Seconds(), float64(st.Size())/1e6/wall.Seconds(), e, float64(st.Size())/1e6/e, phase[0], phase[1])
	}
}
