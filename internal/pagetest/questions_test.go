package pagetest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"imas/core"
	"imas/core/analyze"
	"imas/core/input"
	"imas/core/model"
	"imas/ui"
)

// The tests of the questions the page answers (docs/page.md "Use"): which
// graph is biggest, what failed and why, what is live at a step, and the
// same by keyboard and from a link.

// native analyses files with the core, as the CLI does.
func native(t *testing.T, files []string) *model.Report {
	t.Helper()
	var srcs []input.Source
	for _, f := range files {
		srcs = append(srcs, input.FileSource(f))
	}
	rep, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// graphByID is the graph of rep whose data-graph is id.
func graphByID(t *testing.T, rep *model.Report, id string) *model.Graph {
	t.Helper()
	for _, g := range rep.Graphs {
		if ui.GraphID(g) == id {
			return g
		}
	}
	t.Fatalf("no graph %q", id)
	return nil
}

func keysOf(items []model.PeakItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Key)
	}
	return out
}

// columnOf reads the data-value of a field of the graphs table, row order.
func (b *tab) column(t *testing.T, field string) []string {
	t.Helper()
	var out []string
	b.eval(t, fmt.Sprintf(`[...document.querySelectorAll('#graphs tr[data-graph]')].map(tr => tr.querySelector('[data-field=%q]')?.dataset.value ?? tr.children[0].textContent)`, field), &out)
	return out
}

// TestGraphTable: the graphs come largest first with the biggest selected
// (checkMap), every header sorts (aria-sort), the conflicts column is on
// screen at 1440 px, headers say what a figure means, and sizes give
// exact bytes on hover.
func TestGraphTable(t *testing.T) {
	files, _ := sample(t, "mixed")
	b := newTab(t, 90*time.Second)
	b.run(t, emulation.SetDeviceMetricsOverride(1440, 900, 1, false))
	b.open(t, "")
	b.load(t, 1, files...)
	b.checkMap(t)
	var right, width float64
	b.eval(t, `document.querySelector('#graphs button[data-sort=conflicts]').getBoundingClientRect().right`, &right)
	b.eval(t, `window.innerWidth`, &width)
	if right > width {
		t.Errorf("conflicts header ends at %.0f px, the window is %.0f px wide", right, width)
	}
	var title, exact string
	b.eval(t, `document.querySelector('#graphs th:has(button[data-sort=theory_min])').title`, &title)
	b.eval(t, `document.querySelector('#graphs td[data-field=memory_size]').title`, &exact)
	if !strings.Contains(title, "least memory") || !strings.HasSuffix(exact, " bytes") {
		t.Errorf("theory_min header title %q, memory_size cell title %q", title, exact)
	}
	for _, c := range []struct {
		col, sort string
		field     string
		asc       bool
	}{{"pid", "ascending", "", true}, {"pid", "descending", "", false}, {"tensors", "descending", "tensors", false}, {"tensors", "ascending", "tensors", true}} {
		b.run(t, chromedp.Click(`#graphs button[data-sort=`+c.col+`]`, chromedp.ByQuery),
			chromedp.WaitVisible(`#graphs th[aria-sort=`+c.sort+`] button[data-sort=`+c.col+`]`, chromedp.ByQuery))
		var others int
		b.eval(t, `document.querySelectorAll('#graphs th[aria-sort=ascending], #graphs th[aria-sort=descending]').length`, &others)
		vals := b.column(t, c.field)
		sorted := slices.IsSortedFunc(vals, func(x, y string) int {
			if c.field != "" {
				x, y = fmt.Sprintf("%020s", x), fmt.Sprintf("%020s", y)
			}
			if c.asc {
				return strings.Compare(x, y)
			}
			return strings.Compare(y, x)
		})
		if !sorted || others != 1 {
			t.Errorf("sorted by %s %s: %v (%d headers say they sort)", c.col, c.sort, vals, others)
		}
	}
	// A row is chosen by keyboard too.
	var second string
	b.eval(t, `document.querySelectorAll('#graphs tr[data-graph]')[1].dataset.graph`, &second)
	b.run(t, chromedp.Focus(`#graphs tr[data-graph="`+second+`"]`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(`#graphs tr.sel[data-graph="`+second+`"]`, chromedp.ByQuery))
	b.clean(t)
}

// loadFails chooses files that cannot be analysed: analysis n ends with an
// error, which is returned.
func (b *tab) loadFails(t *testing.T, n int, files ...string) string {
	t.Helper()
	b.run(t, chromedp.SetUploadFiles("#files", files, chromedp.ByQuery),
		chromedp.WaitVisible(fmt.Sprintf(`.imas[data-ends="%d"][data-pending="0"]`, n), chromedp.ByQuery))
	var msg string
	b.eval(t, `(document.querySelector('#error')||{}).textContent||''`, &msg)
	return msg
}

// TestLoadErrors: each way a load fails says what happened and what to do,
// never "Cancelled"; input without a GE line gets the CLI's advice; a
// failed load keeps the results shown before it.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jpeg := write("photo.jpg", append([]byte{0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'J', 'F', 'I', 'F', 0}, make([]byte, 3000)...))
	empty := write("empty.log", nil)
	prose := write("notes.log", []byte(strings.Repeat("2026-12-04 12:00:00 INFO nothing about memory here\n", 50)))
	hello := write("report.json", []byte(`{"hello":1}`))
	os.MkdirAll(filepath.Join(dir, "cut"), 0o755)
	cut := write("cut/report.json", []byte(`{"schema":"imas/1","graphs":[{"pid":"1",`))
	b := newTab(t, 120*time.Second)
	b.open(t, "")
	n := 0
	for _, c := range []struct {
		file string
		want []string
	}{
		{jpeg, []string{"none of the markers imas reads was found", "ASCEND_GLOBAL_LOG_LEVEL=1"}},
		{empty, []string{"the input is empty", "ASCEND_GLOBAL_LOG_LEVEL=1"}},
		{prose, []string{"no GE memory records in 50 lines", "none of the markers imas reads was found"}},
		{hello, []string{"report.json"}},
		{cut, []string{"report.json"}},
	} {
		n++
		msg := b.loadFails(t, n, c.file)
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q lacks %q", filepath.Base(c.file), msg, w)
			}
		}
		var state string
		var results bool
		b.run(t, chromedp.AttributeValue(".imas", "data-state", &state, nil, chromedp.ByQuery))
		b.eval(t, `!!document.querySelector('main')`, &results)
		if strings.Contains(msg, "Cancelled") || state != "error" || results {
			t.Errorf("%s: %q, state %q, results shown %v", filepath.Base(c.file), msg, state, results)
		}
	}
	files, want := sample(t, "basic")
	n++
	b.load(t, n, files...)
	n++
	msg := b.loadFails(t, n, jpeg)
	var outputs int
	b.eval(t, `document.querySelectorAll('main [data-output]').length`, &outputs)
	if !strings.Contains(msg, "previous results are kept") || outputs == 0 {
		t.Errorf("a bad file after good logs: %q, %d download buttons", msg, outputs)
	}
	checkFigures(t, b.shownGraphs(t), want)
	b.clean(t)
}

// TestTimeline: the live-bytes chart above the map; choosing the peak step
// (Home, from the keyboard) lists what imas peak lists, and clicking
// another step lists the tensors live there, as the core computes them.
func TestTimeline(t *testing.T) {
	files, _ := sample(t, "conflicts")
	rep := native(t, files)
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	b.load(t, 1, files...)
	var id string
	b.run(t, chromedp.WaitVisible(`[data-chart=live] canvas#imas-live`, chromedp.ByQuery),
		chromedp.AttributeValue(`#graphs tr.sel`, "data-graph", &id, nil, chromedp.ByQuery))
	g := graphByID(t, rep, id)
	peak := analyze.Peak(g, analyze.PeakTop)
	b.run(t, chromedp.Focus(`#imas-live`, chromedp.ByQuery), chromedp.KeyEvent(kb.Home),
		chromedp.WaitVisible(fmt.Sprintf(`#peak[data-step="%d"]`, peak.Step), chromedp.ByQuery), chromedp.WaitVisible(settled, chromedp.ByQuery))
	var keys []string
	b.eval(t, `[...document.querySelectorAll('#peak tr[data-key]')].map(tr => tr.dataset.key)`, &keys)
	if !slices.Equal(keys, keysOf(peak.Tensors)) {
		t.Errorf("at the peak step %d the page lists %v, imas peak %v", peak.Step, keys, keysOf(peak.Tensors))
	}
	// A click in the chart's left part picks an earlier step.
	var box struct{ X, Y, W, H float64 }
	b.eval(t, `(() => { const c = document.getElementById('imas-live'); c.scrollIntoView({block: 'center'});
		const r = c.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; })()`, &box)
	b.run(t, chromedp.MouseClickXY(box.X+64+(box.W-72)*0.2, box.Y+box.H/2))
	var step int64
	b.run(t, chromedp.WaitVisible(fmt.Sprintf(`#imas-live:not([data-step="%d"])`, peak.Step), chromedp.ByQuery))
	b.eval(t, `+document.getElementById('imas-live').dataset.step`, &step)
	b.run(t, chromedp.WaitVisible(fmt.Sprintf(`#peak[data-step="%d"]`, step), chromedp.ByQuery), chromedp.WaitVisible(settled, chromedp.ByQuery))
	b.eval(t, `[...document.querySelectorAll('#peak tr[data-key]')].map(tr => tr.dataset.key)`, &keys)
	if at := analyze.PeakAt(g, step, analyze.PeakTop); !slices.Equal(keys, keysOf(at.Tensors)) {
		t.Errorf("at step %d the page lists %v, the core %v", step, keys, keysOf(at.Tensors))
	}
	// Choosing a listed tensor shows its detail card, scrolled into view.
	if len(keys) > 0 {
		b.run(t, chromedp.Click(`#peak tr[data-key] a`, chromedp.ByQuery),
			chromedp.WaitVisible(`#peak tr.sel[data-key]`, chromedp.ByQuery),
			// (scrolled to the top, it may sit a fraction of a pixel above 0)
			chromedp.Poll(`(r => r.top > -1 && r.top < innerHeight)(document.getElementById('detail').getBoundingClientRect())`, nil))
	}
	b.clean(t)
}

// TestKeyboard goes from an empty page to the biggest graph's tensors at
// its peak with the keyboard alone: Tab reaches the file inputs, the
// sample button opens logs, Tab reaches the graphs' rows and the
// timeline, Home lists the peak; Esc cancels a running analysis.
func TestKeyboard(t *testing.T) {
	b := newTab(t, 120*time.Second)
	b.open(t, "")
	// tabTo presses Tab until the focused element matches sel.
	tabTo := func(sel string) {
		t.Helper()
		for i := 0; i < 120; i++ {
			var ok bool
			b.run(t, chromedp.KeyEvent(kb.Tab))
			b.eval(t, fmt.Sprintf(`document.activeElement.matches(%q)`, sel), &ok)
			if ok {
				return
			}
		}
		var at string
		b.eval(t, `document.activeElement.outerHTML.slice(0, 200)`, &at)
		t.Fatalf("Tab never reached %s (focus on %s)", sel, at)
	}
	tabTo(`#files`)
	tabTo(`#sample`)
	b.run(t, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(`.imas[data-ends="1"][data-pending="0"]`, chromedp.ByQuery))
	tabTo(`#graphs tr[data-graph]`)
	var first string
	b.eval(t, `document.activeElement.dataset.graph`, &first)
	b.run(t, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(`#graphs tr.sel[data-graph="`+first+`"]`, chromedp.ByQuery),
		chromedp.WaitVisible(settled, chromedp.ByQuery))
	tabTo(`#imas-live`)
	b.run(t, chromedp.KeyEvent(kb.Home), chromedp.WaitVisible(`#peak tr[data-key]`, chromedp.ByQuery))
	var title string
	b.eval(t, `document.getElementById('peak-title').textContent`, &title)
	if !strings.HasPrefix(title, "Peak at step") {
		t.Errorf("after Home on the timeline: %q", title)
	}
	// The focus is visible: an outline on the focused element.
	var outline string
	b.eval(t, `getComputedStyle(document.activeElement).outlineStyle`, &outline)
	if outline == "none" {
		t.Error("the focused timeline shows no outline")
	}
	b.clean(t)
}

// TestEscCancels: Esc stops a running analysis like the Cancel button.
func TestEscCancels(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.log")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(4 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	b.run(t, chromedp.SetUploadFiles("#files", []string{big}, chromedp.ByQuery), chromedp.WaitVisible(`#cancel`, chromedp.ByQuery))
	for try := 0; ; try++ {
		b.run(t, chromedp.KeyEvent(kb.Escape))
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		err := chromedp.Run(ctx, chromedp.WaitVisible(`.imas[data-ends="1"]`, chromedp.ByQuery))
		cancel()
		if err == nil {
			break
		}
		if try == 2 {
			t.Fatal("Esc did not cancel the analysis")
		}
	}
	var msg string
	b.eval(t, `document.querySelector('#error').textContent`, &msg)
	if !strings.HasPrefix(msg, "Cancelled") {
		t.Errorf("after Esc: %q", msg)
	}
	b.clean(t)
}

// TestURLRestore: the view (graph, tab, tensor) goes into the address, and
// opening that address and the same logs shows it again.
func TestURLRestore(t *testing.T) {
	files, _ := sample(t, "mixed")
	b := newTab(t, 120*time.Second)
	b.open(t, "")
	b.load(t, 1, files...)
	var id, key, hash string
	b.eval(t, `document.querySelectorAll('#graphs tr[data-graph]')[2].dataset.graph`, &id)
	b.run(t, chromedp.Click(`#graphs tr[data-graph="`+id+`"] td`, chromedp.ByQuery),
		chromedp.WaitVisible(`#graphs tr.sel[data-graph="`+id+`"]`, chromedp.ByQuery), chromedp.WaitVisible(settled, chromedp.ByQuery),
		chromedp.Click(`.graphtabs button[data-tab="waste"]`, chromedp.ByQuery),
		chromedp.Click(`#tensors tr[data-row]:nth-of-type(3)`, chromedp.ByQuery),
		chromedp.WaitVisible(`#detail`, chromedp.ByQuery), chromedp.WaitVisible(settled, chromedp.ByQuery))
	b.eval(t, `document.querySelector('#detail h3').textContent`, &key)
	b.eval(t, `location.hash`, &hash)
	if !strings.Contains(hash, "tab=waste") || !strings.Contains(hash, "tensor=") {
		t.Fatalf("address after choosing a graph, a tab and a tensor: %q", hash)
	}
	c := newTab(t, 120*time.Second)
	c.open(t, hash)
	c.load(t, 1, files...)
	var shown string
	c.run(t, chromedp.WaitVisible(`#graphs tr.sel[data-graph="`+id+`"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.graphtabs button.on[data-tab="waste"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#detail`, chromedp.ByQuery))
	c.eval(t, `document.querySelector('#detail h3').textContent`, &shown)
	if shown != key {
		t.Errorf("restored tensor %q, want %q", shown, key)
	}
	b.clean(t)
	c.clean(t)
}

// TestSampleButton analyses the log built into the page.
func TestSampleButton(t *testing.T) {
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	b.run(t, chromedp.Click(`#sample`, chromedp.ByQuery), chromedp.WaitVisible(`.imas[data-ends="1"][data-pending="0"]`, chromedp.ByQuery))
	var state string
	var graphs, conflicts int
	b.run(t, chromedp.AttributeValue(".imas", "data-state", &state, nil, chromedp.ByQuery))
	b.eval(t, `document.querySelectorAll('#graphs tr[data-graph]').length`, &graphs)
	b.eval(t, `[...document.querySelectorAll('#graphs td[data-field=conflicts]')].reduce((n, td) => n + +td.dataset.value, 0)`, &conflicts)
	if state != "done" || graphs < 3 || conflicts == 0 {
		t.Errorf("the sample: state %q, %d graph rows, %d conflicts", state, graphs, conflicts)
	}
	b.clean(t)
}

// TestPerfettoSetting: ?perfetto=URL points Open in Perfetto at another
// UI, and one that does not answer gives the download within seconds,
// not a dead tab.
func TestPerfettoSetting(t *testing.T) {
	u := pageURL(t, "")
	silent := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<!doctype html><title>silent</title>") })
	ui := httptest.NewServer(silent)
	defer ui.Close()
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Dir(strings.TrimPrefix(u, "file://")))))
	defer srv.Close()
	files, _ := sample(t, "basic")
	b := newTab(t, 90*time.Second)
	b.run(t, chromedp.Navigate(srv.URL+"/index.html?perfetto="+ui.URL+"/ui"), chromedp.WaitVisible(`.imas[data-state="idle"]`, chromedp.ByQuery))
	var set string
	b.eval(t, `document.documentElement.dataset.perfetto`, &set)
	if set != ui.URL+"/ui" {
		t.Errorf("Perfetto UI %q, want %q", set, ui.URL+"/ui")
	}
	b.load(t, 1, files...)
	start := time.Now()
	var note string
	b.run(t, chromedp.Click(`#perfetto`, chromedp.ByQuery), chromedp.WaitVisible(`.note`, chromedp.ByQuery))
	b.run(t, chromedp.Poll(`document.querySelector('.note') && !document.querySelector('.note').textContent.startsWith('Preparing')`, nil))
	b.eval(t, `document.querySelector('.note').textContent`, &note)
	if !strings.Contains(note, "did not answer within 8 s") {
		t.Errorf("after a silent Perfetto UI (%v): %q", time.Since(start), note)
	}
	b.clean(t)
}
