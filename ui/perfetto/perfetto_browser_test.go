package perfetto_test

// Headless-Chromium tests of open.js: the PING/PONG hand-over to a stub of
// the Perfetto UI on another origin, and the download fallbacks. The real
// ui.perfetto.dev is never contacted.

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"imas/core/export"
	"imas/core/model"
	"imas/ui/perfetto"
)

const chromium = "/usr/bin/chromium"

// stubUI plays the Perfetto UI: it answers PING with PONG only from the
// third PING on (so the opener must retry), records every message from its
// opener, and posts the record back when the test page says it is done.
// Messages from one window to another arrive in order, so the record is
// complete then.
const stubUI = `<!doctype html><title>stub perfetto</title><script>
const log = [];
let pings = 0, trace = null;
addEventListener('message', (e) => {
  const fromOpener = e.source === window.opener;
  if (e.data === 'PING') {
    log.push({kind: 'PING', fromOpener});
    if (++pings >= 3) { e.source.postMessage('PONG', '*'); log.push({kind: 'PONG'}); }
  } else if (e.data && e.data.perfetto) {
    const p = e.data.perfetto, b = new Uint8Array(p.buffer.buffer || p.buffer);
    let s = '';
    for (const c of b) s += String.fromCharCode(c);
    trace = {title: p.title, fileName: p.fileName, localOnly: p.localOnly, bytes: btoa(s)};
    log.push({kind: 'TRACE', fromOpener, origin: e.origin});
  } else if (e.data && e.data.imasTestDone) {
    log.push({kind: 'DONE'});
    fetch('/record', {method: 'POST', body: JSON.stringify({log, trace})});
  }
});
</script>`

// hostPage is a page that calls imasOpenPerfetto on a click and leaves
// the result in window.imasResult.
type hostPage struct {
	ui        string // the UI's URL
	timeoutMs int
	gzip      bool
	promise   bool // pass the trace as a Promise, resolved after the click
}

func (h hostPage) html(trace []byte) string {
	return `<!doctype html><meta charset=utf-8><title>host</title>
<script src="open.js"></script>
<button id="open">Open in Perfetto</button>
<script>
const trace = Uint8Array.from(atob("` + base64.StdEncoding.EncodeToString(trace) + `"), (c) => c.charCodeAt(0));
const states = [];
document.getElementById('open').addEventListener('click', () => {
  const buffer = ` + fmt.Sprint(h.promise) + ` ? new Promise((ok) => setTimeout(() => ok(trace), 100)) : trace;
  imasOpenPerfetto(buffer, 'imas test trace', 'imas_graph_perfetto.json', {
    url: ` + jsString(h.ui) + `, pingMs: 20, timeoutMs: ` + fmt.Sprint(h.timeoutMs) + `, gzip: ` + fmt.Sprint(h.gzip) + `,
    onStatus: (s) => states.push(s),
  }).then((res) => {
    if (res.window) res.window.postMessage({perfettoIgnore: true, imasTestDone: true}, '*');
    window.imasResult = {status: res.status, reason: res.reason || '', states};
  });
});
</script>`
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

type result struct {
	Status string   `json:"status"`
	Reason string   `json:"reason"`
	States []string `json:"states"`
}

type record struct {
	Log []struct {
		Kind       string `json:"kind"`
		FromOpener bool   `json:"fromOpener"`
		Origin     string `json:"origin"`
	} `json:"log"`
	Trace struct {
		Title     string `json:"title"`
		FileName  string `json:"fileName"`
		LocalOnly bool   `json:"localOnly"`
		Bytes     []byte `json:"bytes"` // base64 in JSON
	} `json:"trace"`
}

// testTrace is a small real trace.
func testTrace(t *testing.T) []byte {
	g := &model.Graph{PID: "1", Graph: "g_0", MemType: 2, Rows: []model.Row{
		{Node: "a<b>", Kind: "output", Size: 512, RealSize: 64, LifeBegin: 1, LifeEnd: 2, Reuse: 1, Counted: true},
	}}
	var buf bytes.Buffer
	if err := export.WritePerfetto(&buf, &model.Report{Graphs: []*model.Graph{g}}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// browser is one headless Chromium shared by the tests (it takes seconds
// to start); each test opens its own tab.
var browser_ struct {
	once    sync.Once
	ctx     context.Context
	stop    func()
	profile string
	err     error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if browser_.stop != nil {
		browser_.stop()
		os.RemoveAll(browser_.profile)
	}
	os.Exit(code)
}

// newTab opens a tab in the shared browser, or skips without Chromium
// (unless IMAS_REQUIRE_TOOLS=1). Popup blocking stays on: open.js must
// open the UI inside the click.
func newTab(t *testing.T) context.Context {
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("IMAS_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is required (IMAS_REQUIRE_TOOLS=1): %v", chromium, err)
		}
		t.Skipf("%s not installed", chromium)
	}
	b := &browser_
	b.once.Do(func() {
		if b.profile, b.err = os.MkdirTemp("", "imas-chromium-"); b.err != nil {
			return
		}
		alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(chromium),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.UserDataDir(b.profile),
		)
		ctx, stopBrowser := chromedp.NewContext(alloc)
		b.ctx, b.stop = ctx, func() {
			chromedp.Cancel(ctx) // closes the browser and waits for it
			stopBrowser()
			stopAlloc()
		}
		b.err = chromedp.Run(ctx)
	})
	if b.err != nil {
		t.Fatalf("starting %s: %v", chromium, b.err)
	}
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	// A bound for a broken browser, not a timing assumption: the tests
	// wait for events and take about a second each.
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel)
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return ctx
}

// servePages serves open.js and the host page (on one origin) and the
// stub UI (on another; uiPath is its page), and returns the host URL and
// the stub's records.
func servePages(t *testing.T, trace []byte, h hostPage, uiPath string) (string, <-chan record) {
	records := make(chan record, 1)
	ui := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ui":
			io.WriteString(w, stubUI)
		case "/silent":
			io.WriteString(w, "<!doctype html><title>never answers</title>")
		case "/record":
			var rec record
			if err := json.NewDecoder(r.Body).Decode(&rec); err != nil {
				t.Errorf("stub record: %v", err)
			}
			records <- rec
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ui.Close)
	h.ui = ui.URL + uiPath
	page := h.html(trace)
	mux := http.NewServeMux()
	mux.HandleFunc("/open.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		io.WriteString(w, perfetto.OpenJS)
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, page)
	})
	host := httptest.NewServer(mux)
	t.Cleanup(host.Close)
	return host.URL, records
}

// clickOpen loads the host page, clicks its button and waits for the
// result of imasOpenPerfetto. Without gesture, the page clicks the button
// itself, which grants no user activation: a popup blocker's case.
func clickOpen(t *testing.T, ctx context.Context, pageURL string, gesture bool) result {
	var res result
	click := chromedp.Click("#open", chromedp.ByID)
	if !gesture {
		click = chromedp.Evaluate(`document.getElementById('open').click()`, nil)
	}
	err := chromedp.Run(ctx,
		chromedp.Navigate(pageURL),
		click,
		chromedp.Poll(`window.imasResult`, &res, chromedp.WithPollingInterval(10*time.Millisecond)),
	)
	if err != nil {
		t.Fatalf("clicking Open in Perfetto at %s: %v", pageURL, err)
	}
	return res
}

func TestOpenInPerfetto(t *testing.T) {
	trace := testTrace(t)
	for _, tc := range []struct {
		name    string
		promise bool
	}{{"buffer", false}, {"promise", true}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newTab(t)
			hostURL, records := servePages(t, trace, hostPage{timeoutMs: 20000, promise: tc.promise}, "/ui")
			res := clickOpen(t, ctx, hostURL+"/", true)
			if res.Status != "opened" {
				t.Fatalf("result %+v, want opened", res)
			}
			var rec record
			select {
			case rec = <-records:
			case <-ctx.Done():
				t.Fatal("the stub UI never reported")
			}
			checkHandOver(t, rec, hostURL, trace)
			if want := []string{"opening", "ping", "ping", "ping"}; len(res.States) < 5 || !slices.Equal(res.States[:4], want) || res.States[len(res.States)-1] != "sent" {
				t.Errorf("states %v", res.States)
			}
		})
	}
}

// checkHandOver checks what the stub UI received: PINGs until it answered
// (from the third on), maybe a few more in flight, then one trace message
// from the opener's origin, and nothing else.
func checkHandOver(t *testing.T, rec record, hostURL string, trace []byte) {
	t.Helper()
	var kinds []string
	for _, m := range rec.Log {
		kinds = append(kinds, m.Kind)
		if (m.Kind == "PING" || m.Kind == "TRACE") && !m.FromOpener {
			t.Errorf("%s did not come from the opener", m.Kind)
		}
	}
	pong, tr := slices.Index(kinds, "PONG"), slices.Index(kinds, "TRACE")
	if pong != 3 || !slices.Equal(kinds[:3], []string{"PING", "PING", "PING"}) {
		t.Fatalf("messages %v: want 3 PINGs before the first PONG", kinds)
	}
	if tr < pong || !slices.Equal(kinds[tr:], []string{"TRACE", "DONE"}) {
		t.Fatalf("messages %v: want one TRACE after PONG, then nothing", kinds)
	}
	for _, k := range kinds[pong:tr] {
		if k != "PING" && k != "PONG" {
			t.Errorf("messages %v: %s between PONG and TRACE", kinds, k)
		}
	}
	if o := rec.Log[tr].Origin; o != hostURL {
		t.Errorf("trace posted from origin %q, want %q", o, hostURL)
	}
	if got := rec.Trace; got.Title != "imas test trace" || got.FileName != "imas_graph_perfetto.json" || !got.LocalOnly {
		t.Errorf("trace message title %q fileName %q localOnly %v", got.Title, got.FileName, got.LocalOnly)
	}
	if !bytes.Equal(rec.Trace.Bytes, trace) {
		t.Errorf("the UI got %d bytes, want the %d bytes of the trace", len(rec.Trace.Bytes), len(trace))
	}
}

// TestOpenInPerfettoFallback checks that the trace is downloaded when the
// UI cannot take it: it never answers, the popup is blocked, or the page
// runs from file://.
func TestOpenInPerfettoFallback(t *testing.T) {
	trace := testTrace(t)
	served := func(uiPath string, gzip bool) func(t *testing.T) string {
		return func(t *testing.T) string {
			hostURL, _ := servePages(t, trace, hostPage{timeoutMs: 300, gzip: gzip}, uiPath)
			return hostURL + "/"
		}
	}
	for _, tc := range []struct {
		name    string
		page    func(t *testing.T) string
		gesture bool
		reason  string
		gzip    bool
	}{
		{"timeout", served("/silent", false), true, "timeout", false},
		{"timeout gzip", served("/silent", true), true, "timeout", true},
		{"blocked", served("/ui", false), false, "blocked", false},
		{"file", func(t *testing.T) string {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "open.js"), []byte(perfetto.OpenJS), 0o644)
			page := filepath.Join(dir, "host.html")
			os.WriteFile(page, []byte(hostPage{ui: "http://127.0.0.1:9/never-opened", timeoutMs: 20000}.html(trace)), 0o644)
			return "file://" + page
		}, true, "file", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newTab(t)
			dir := t.TempDir()
			done := make(chan *browser.EventDownloadProgress, 1)
			var name string
			chromedp.ListenTarget(ctx, func(ev any) {
				switch ev := ev.(type) {
				case *browser.EventDownloadWillBegin:
					name = ev.SuggestedFilename
				case *browser.EventDownloadProgress:
					if ev.State == browser.DownloadProgressStateCompleted {
						done <- ev
					}
				}
			})
			err := chromedp.Run(ctx, browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllowAndName).
				WithDownloadPath(dir).WithEventsEnabled(true))
			if err != nil {
				t.Fatal(err)
			}
			res := clickOpen(t, ctx, tc.page(t), tc.gesture)
			if res.Status != "downloaded" || res.Reason != tc.reason {
				t.Errorf("result %+v, want downloaded (%s)", res, tc.reason)
			}
			if !slices.Contains(res.States, "fallback") || slices.Contains(res.States, "sent") {
				t.Errorf("states %v", res.States)
			}
			var ev *browser.EventDownloadProgress
			select {
			case ev = <-done:
			case <-ctx.Done():
				t.Fatal("no download")
			}
			got, err := os.ReadFile(filepath.Join(dir, ev.GUID))
			if err != nil {
				t.Fatal(err)
			}
			want := "imas_graph_perfetto.json"
			if tc.gzip {
				want += ".gz"
				zr, err := gzip.NewReader(bytes.NewReader(got))
				if err != nil {
					t.Fatal(err)
				}
				if got, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if name != want {
				t.Errorf("downloaded as %q, want %q", name, want)
			}
			if !bytes.Equal(got, trace) {
				t.Errorf("downloaded %d bytes, want the %d bytes of the trace", len(got), len(trace))
			}
		})
	}
}
