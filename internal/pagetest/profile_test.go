package pagetest

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
	"github.com/go-json-experiment/json/jsontext"
)

// warmTab is the start of a measuring tool: the file named by the
// variable env (skipped when it is unset), the 200 MB plog, and a page
// whose warm-ups are done.
func warmTab(t *testing.T, env string) (out, plain string, b *tab) {
	out = os.Getenv(env)
	if out == "" {
		t.Skip(env + " not set")
	}
	plain, _ = inputs(t)
	b = newTab(t, 5*time.Minute)
	b.open(t, "")
	b.run(t, chromedp.WaitReady(`html[data-warm]`, chromedp.ByQuery))
	return out, plain, b
}

// TestProfilePage records a CPU profile of the page's own thread (not the
// engine's worker) while the 200 MB plog is analysed and its results are
// shown, and writes it to $PAGEPROFILE (a .cpuprofile that Chromium's
// DevTools open). A measuring tool, skipped unless PAGEPROFILE is set; build
// the page without -ldflags=-s for Go function names (docs/page.md).
func TestProfilePage(t *testing.T) {
	out, plain, b := warmTab(t, "PAGEPROFILE")
	b.run(t, profiler.Enable(), profiler.SetSamplingInterval(250), profiler.Start())
	b.eval(t, probeJS, nil)
	b.load(t, 1, plain)
	worst, p99, after := b.stalls(t)
	var prof *profiler.Profile
	b.run(t, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		prof, err = profiler.Stop().Do(ctx)
		return err
	}))
	data, err := json.Marshal(prof)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var dom map[string]int
	b.eval(t, `(() => { const c = {all: document.getElementsByTagName('*').length};
		for (const el of document.querySelectorAll('*')) c[el.tagName] = (c[el.tagName] || 0) + 1;
		for (const s of document.querySelectorAll('section, [data-section]')) c['section ' + (s.id || s.className)] = s.getElementsByTagName('*').length;
		return c; })()`, &dom)
	t.Logf("DOM elements: %v", dom)
	t.Logf("input latency while parsing: worst %.0f ms, p99 %.0f ms; worst after the answer %.0f ms; profile in %s", worst, p99, after, out)
}

// TestTracePage records a Chromium trace (devtools.timeline and V8
// categories, and every thread's CPU samples: the page's, the engine's
// worker, the reader's, V8's compiler threads) of the same analysis and
// writes it to $PAGETRACE, a JSON trace that ui.perfetto.dev and DevTools
// open: what the page's thread does outside JavaScript (style, layout,
// paint, compiling) shows there. With PAGETRACE_FOLDER (1G, 2G) it records
// a generated plog folder of that size instead (BenchmarkPageFolder's) on a
// cold page (?warmup=0). A measuring tool, skipped unless PAGETRACE is set.
func TestTracePage(t *testing.T) {
	var out string
	var files []string
	var b *tab
	if size := os.Getenv("PAGETRACE_FOLDER"); size != "" && os.Getenv("PAGETRACE") != "" {
		out = os.Getenv("PAGETRACE")
		pageURL(t, "")
		files = rankFolder(t, size)
		b = newTab(t, 30*time.Minute)
		b.open(t, "?warmup=0")
	} else {
		var plain string
		out, plain, b = warmTab(t, "PAGETRACE")
		files = []string{plain}
	}
	var mu sync.Mutex
	var events []jsontext.Value
	done := make(chan struct{})
	chromedp.ListenTarget(b.ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			events = append(events, e.Value...)
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(done)
		}
	})
	b.run(t, tracing.Start().WithTraceConfig(&tracing.TraceConfig{IncludedCategories: []string{
		"devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.wasm", "blink", "cc", "gpu", "loading",
		"disabled-by-default-v8.cpu_profiler"}}))
	b.load(t, 1, files...)
	b.run(t, tracing.End())
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		t.Fatal("no tracingComplete")
	}
	mu.Lock()
	defer mu.Unlock()
	data, err := json.Marshal(map[string]any{"traceEvents": events})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d trace events in %s", len(events), out)
}
