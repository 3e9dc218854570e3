// Package pagetest drives the built page (public/imas.html, from
// ./build.sh) in headless Chromium: loading logs through the file input,
// the figures it shows, the memory map, downloads, hostile names, and the
// throughput benchmarks. Run with `make test-page` / `make bench-page`.
package pagetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

const chromium = "/usr/bin/chromium"

// need skips (or, in CI with IMAS_REQUIRE_TOOLS=1, fails) without a tool.
func need(t testing.TB, path, what string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("IMAS_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is required (IMAS_REQUIRE_TOOLS=1): %v", what, err)
		}
		t.Skipf("%s missing: %v", what, err)
	}
}

// pageURL is the page under test, IMAS_PAGE (make test-page sets it to the
// fresh public/imas.html), with an optional query. Without IMAS_PAGE the
// tests skip: "go test ./..." must not test a stale or missing build.
func pageURL(t testing.TB, query string) string {
	t.Helper()
	p := os.Getenv("IMAS_PAGE")
	if p == "" {
		t.Skip("IMAS_PAGE not set: run make test-page")
	}
	p, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	need(t, p, "the page (run ./build.sh)")
	return "file://" + p + query
}

// shared is one Chromium for all tests; each test gets a tab.
var shared struct {
	once    sync.Once
	ctx     context.Context
	stop    func()
	profile string
	err     error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.stop != nil {
		shared.stop()
		os.RemoveAll(shared.profile)
	}
	os.Exit(code)
}

var goCrash = regexp.MustCompile(`^"?(panic: |fatal error: |goroutine \d+ \[)`)

// tab is a browser tab and what went wrong in it.
type tab struct {
	ctx  context.Context
	mu   sync.Mutex
	errs []string
	logs []string // all console output, for failure reports
}

// problems returns the exceptions, console errors and dialogs seen so far.
func (b *tab) problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

func (b *tab) note(s string) {
	b.mu.Lock()
	b.errs = append(b.errs, s)
	b.mu.Unlock()
}

// newTab opens a tab; limit bounds a broken browser, it is not a timing
// assumption.
func newTab(t testing.TB, limit time.Duration) *tab {
	t.Helper()
	pageURL(t, "")
	need(t, chromium, chromium)
	s := &shared
	s.once.Do(func() {
		if s.profile, s.err = os.MkdirTemp("", "imas-page-"); s.err != nil {
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
			chromedp.UserDataDir(s.profile),
			chromedp.WindowSize(1400, 1000),
		)
		ctx, stopBrowser := chromedp.NewContext(alloc)
		s.ctx, s.stop = ctx, func() {
			chromedp.Cancel(ctx)
			stopBrowser()
			stopAlloc()
		}
		s.err = chromedp.Run(ctx)
	})
	if s.err != nil {
		t.Fatalf("starting %s: %v", chromium, s.err)
	}
	ctx, cancel := chromedp.NewContext(s.ctx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, limit)
	t.Cleanup(cancel)
	b := &tab{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			b.note("exception: " + ev.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			text := strings.Join(parts, " ")
			b.mu.Lock()
			b.logs = append(b.logs, text)
			b.mu.Unlock()
			// Go's runtime prints panics through console.log (wasm_exec.js).
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert || goCrash.MatchString(text) {
				b.note("console." + string(ev.Type) + ": " + text)
			}
		case *page.EventJavascriptDialogOpening:
			b.note("dialog: " + ev.Message)
			go chromedp.Run(ctx, page.HandleJavaScriptDialog(false))
		}
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return b
}

// run runs actions, failing the test on error.
func (b *tab) run(t testing.TB, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		b.mu.Lock()
		logs := b.logs[max(0, len(b.logs)-40):]
		b.mu.Unlock()
		t.Fatalf("%v\npage problems: %q\nconsole (last lines):\n%s", err, b.problems(), strings.Join(logs, "\n"))
	}
}

// open loads the page and waits until the UI is up.
func (b *tab) open(t testing.TB, query string) {
	t.Helper()
	b.run(t, chromedp.Navigate(pageURL(t, query)), chromedp.WaitVisible(`.imas[data-state="idle"]`, chromedp.ByQuery))
}

// load chooses files in the file input (slot run) and waits for analysis
// number n to end and the page to show every answer asked for after it
// (data-pending="0"); it must succeed.
func (b *tab) load(t testing.TB, n int, files ...string) {
	t.Helper()
	b.loadInto(t, "#files", n, files...)
}

func (b *tab) loadInto(t testing.TB, input string, n int, files ...string) {
	t.Helper()
	b.run(t, chromedp.SetUploadFiles(input, files, chromedp.ByQuery),
		chromedp.WaitVisible(fmt.Sprintf(`.imas[data-ends="%d"][data-pending="0"]`, n), chromedp.ByQuery))
	var state, err string
	b.run(t, chromedp.AttributeValue(".imas", "data-state", &state, nil, chromedp.ByQuery),
		chromedp.Evaluate(`(document.querySelector('.error')||{}).textContent||''`, &err))
	if state != "done" {
		t.Fatalf("after loading %v the page is %q: %s", files, state, err)
	}
}

// settled matches the page once every engine answer asked for is shown.
const settled = `.imas[data-pending="0"]`

// clickFor clicks sel until want is visible, for clicks on a page that is
// still rendering (the cancel button under the progress bar). chromedp
// clicks at the element's coordinates, and a render between measuring and
// pressing moves them. Everywhere else the tests click on a settled page
// (load waits for data-pending="0"), so a tab click cannot be missed
// there. A missed click is repeated, visibly, up to three times.
func (b *tab) clickFor(t testing.TB, sel, want string) {
	t.Helper()
	for try := 1; ; try++ {
		b.run(t, chromedp.Click(sel, chromedp.ByQuery))
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		err := chromedp.Run(ctx, chromedp.WaitVisible(want, chromedp.ByQuery))
		cancel()
		if err == nil {
			return
		}
		// Gone (a cancel button once the analysis ended): the click did
		// land, only its effect is slow.
		var there bool
		b.eval(t, fmt.Sprintf(`!!document.querySelector(%q)`, sel), &there)
		if try == 3 || !there || b.ctx.Err() != nil {
			b.run(t, chromedp.WaitVisible(want, chromedp.ByQuery))
			return
		}
		t.Logf("click on %s: no %s after 10 s (%v); clicking again", sel, want, err)
	}
}

// eval evaluates a JS expression into out.
func (b *tab) eval(t testing.TB, expr string, out any) {
	t.Helper()
	b.run(t, chromedp.Evaluate(expr, out))
}

// clean fails the test if the page reported any problem.
func (b *tab) clean(t testing.TB) {
	t.Helper()
	for _, p := range b.problems() {
		t.Errorf("page problem: %s", p)
	}
}
