package pagetest

import (
	"archive/tar"
	"archive/zip"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"imas/core/model"
	"imas/internal/gen"
)

type truthGraph struct {
	PID        int64  `json:"pid"`
	Graph      string `json:"graph"`
	MemType    int64  `json:"memtype"`
	MemorySize int64  `json:"memory_size"`
	Tensors    int64  `json:"tensors"`
}

func sample(t *testing.T, name string) (files []string, graphs []truthGraph) {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "samples", name))
	files, err := filepath.Glob(filepath.Join(dir, "plog-*.log"))
	if err != nil || len(files) == 0 {
		t.Fatalf("sample %s: %v", name, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		Graphs []truthGraph `json:"graphs"`
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatal(err)
	}
	return files, tr.Graphs
}

// shownGraphs reads the summary table: data-graph → data-field → data-value.
func (b *tab) shownGraphs(t *testing.T) map[string]map[string]string {
	t.Helper()
	var got map[string]map[string]string
	b.eval(t, `Object.fromEntries([...document.querySelectorAll('tr[data-graph]')].map(tr =>
		[tr.dataset.graph, Object.fromEntries([...tr.querySelectorAll('[data-field]')].map(td => [td.dataset.field, td.dataset.value]))]))`, &got)
	return got
}

func checkFigures(t *testing.T, got map[string]map[string]string, want []truthGraph) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d graph rows shown, truth has %d", len(got), len(want))
	}
	for _, w := range want {
		id := fmt.Sprintf("%d/%s/%d", w.PID, w.Graph, w.MemType)
		row, ok := got[id]
		if !ok {
			t.Errorf("no row data-graph=%q", id)
			continue
		}
		if row["memory_size"] != strconv.FormatInt(w.MemorySize, 10) || row["tensors"] != strconv.FormatInt(w.Tensors, 10) {
			t.Errorf("%s: memory_size %s tensors %s, want %d %d", id, row["memory_size"], row["tensors"], w.MemorySize, w.Tensors)
		}
		for _, f := range []string{"memory_size", "after_reuse", "total", "ge_total", "theory_min", "no_reuse", "atomic",
			"zero_copy", "continuous", "streams", "tensors", "reuse_rate", "reach_theory_rate"} {
			if _, ok := row[f]; !ok {
				t.Errorf("%s: no data-field=%s", id, f)
			}
		}
	}
}

// TestSamples loads each sample through the file input and checks every
// graph row against truth.json, the map and the hover card.
func TestSamples(t *testing.T) {
	for _, name := range []string{"basic", "mixed", "conflicts"} {
		t.Run(name, func(t *testing.T) {
			b := newTab(t, 90*time.Second)
			b.open(t, "")
			files, want := sample(t, name)
			b.load(t, 1, files...)
			checkFigures(t, b.shownGraphs(t), want)
			b.checkMap(t)
			// vugu renders a component's root element whatever its vg-if:
			// logs without memory errors must show no (empty) card.
			var card bool
			b.eval(t, `!!document.querySelector('section.memory-errors')`, &card)
			if card {
				t.Error("a memory-errors card for logs without memory errors")
			}
			b.clean(t)
		})
	}
}

// checkMap waits for the map of the graph shown with the results (the
// biggest: the graphs table's first row, selected), points at the
// rectangle drawn last: the hover card must name its row, and a click must
// select it in the table and the detail panel.
func (b *tab) checkMap(t *testing.T) {
	t.Helper()
	var n, drawn string
	var biggest struct {
		First, Selected string
		Sizes           []int64
	}
	b.eval(t, `({first: document.querySelector('#graphs tr[data-graph]').dataset.graph,
		selected: (document.querySelector('#graphs tr.sel') || {dataset: {}}).dataset.graph,
		sizes: [...document.querySelectorAll('#graphs td[data-field=memory_size]')].map(td => +td.dataset.value)})`, &biggest)
	if biggest.First != biggest.Selected || !slices.IsSortedFunc(biggest.Sizes, func(a, b int64) int { return cmp.Compare(b, a) }) {
		t.Errorf("graphs table: first row %q, selected %q, memory_size %v: want the biggest first and selected", biggest.First, biggest.Selected, biggest.Sizes)
	}
	b.run(t, chromedp.WaitVisible(`#imas-map[data-shows^="graph:"][data-drawn]`, chromedp.ByQuery),
		chromedp.AttributeValue("#imas-map", "data-n", &n, nil, chromedp.ByQuery),
		chromedp.AttributeValue("#imas-map", "data-drawn", &drawn, nil, chromedp.ByQuery))
	if n == "0" || n != drawn {
		t.Fatalf("map drew %s of %s rectangles", drawn, n)
	}
	var top struct {
		X, Y float64
		Row  int
	}
	b.eval(t, `document.getElementById('imas-map').scrollIntoView({block: 'center'}), imasMap.top()`, &top)
	row := strconv.Itoa(top.Row)
	b.run(t, chromedp.MouseEvent(input.MouseMoved, top.X, top.Y),
		chromedp.WaitVisible(`.hovercard[data-row="`+row+`"]`, chromedp.ByQuery))
	var key string
	b.eval(t, `document.querySelector('.hovercard b').textContent`, &key)
	b.run(t, chromedp.MouseClickXY(top.X, top.Y),
		chromedp.WaitVisible(`#tensors tr.sel[data-row="`+row+`"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#detail`, chromedp.ByQuery))
	var shown, cell string
	b.eval(t, `document.querySelector('#detail h3').textContent`, &shown)
	b.eval(t, `document.querySelector('#tensors tr.sel td.name').textContent`, &cell)
	if shown != key || cell != key {
		t.Errorf("hover card shows %q, the detail %q, the table %q", key, shown, cell)
	}
	// Zooming in culls; a double click shows the whole graph again. (CDP's
	// clicks make no dblclick event, so the test sends one.)
	b.run(t, chromedp.MouseEvent(input.MouseWheel, top.X, top.Y, func(p *input.DispatchMouseEventParams) *input.DispatchMouseEventParams {
		return p.WithDeltaY(-3000)
	}), chromedp.WaitVisible(`#imas-map:not([data-drawn="`+n+`"])`, chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('imas-map').dispatchEvent(new MouseEvent('dblclick', {bubbles: true}))`, nil),
		chromedp.WaitVisible(`#imas-map[data-drawn="`+n+`"]`, chromedp.ByQuery))
}

// TestArchives reads the mixed sample as .tar.gz, as .zip and as single
// .gz files: the same figures must come out.
func TestArchives(t *testing.T) {
	files, want := sample(t, "mixed")
	dir := t.TempDir()
	tgz, zipped := filepath.Join(dir, "plogs.tar.gz"), filepath.Join(dir, "plogs.zip")
	var gzs []string
	writeArchives(t, files, tgz, zipped)
	for _, f := range files {
		gzs = append(gzs, gzipFile(t, f, filepath.Join(dir, filepath.Base(f)+".gz")))
	}
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	for i, set := range [][]string{{tgz}, {zipped}, gzs} {
		b.load(t, i+1, set...)
		checkFigures(t, b.shownGraphs(t), want)
	}
	b.clean(t)
}

func writeArchives(t *testing.T, files []string, tgz, zipped string) {
	t.Helper()
	tf, err := os.Create(tgz)
	if err != nil {
		t.Fatal(err)
	}
	zf, err := os.Create(zipped)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(tf)
	tw, zw := tar.NewWriter(gz), zip.NewWriter(zf)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := "plog/" + filepath.Base(f)
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, out := range []io.Writer{tw, w} {
			if _, err := out.Write(data); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []io.Closer{tw, gz, tf, zw, zf} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func gzipFile(t testing.TB, src, dst string) string {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(out)
	if _, err := io.Copy(zw, in); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// waitFile waits for a finished download.
func waitFile(t *testing.T, b *tab, path string) []byte {
	t.Helper()
	for b.ctx.Err() == nil {
		if data, err := os.ReadFile(path); err == nil {
			if _, err := os.Stat(path + ".crdownload"); os.IsNotExist(err) {
				return data
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s never arrived (page problems: %q)", filepath.Base(path), b.problems())
	return nil
}

// TestDownloads saves report.json and a CSV, and "opens" the Perfetto trace,
// which from file:// falls back to a download.
func TestDownloads(t *testing.T) {
	files, want := sample(t, "conflicts")
	dir := t.TempDir()
	b := newTab(t, 90*time.Second)
	b.run(t, browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dir))
	b.open(t, "")
	b.load(t, 1, files...)

	b.run(t, chromedp.Click(`button[data-output="report.json"]`, chromedp.ByQuery))
	var rep struct {
		Schema string `json:"schema"`
		Graphs []struct {
			MemorySize int64 `json:"memory_size"`
		} `json:"graphs"`
	}
	saved := waitFile(t, b, filepath.Join(dir, "report.json"))
	if err := json.Unmarshal(saved, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Schema != "imas.report/v1" || len(rep.Graphs) != len(want) {
		t.Errorf("downloaded report: schema %q, %d graphs, want %d", rep.Schema, len(rep.Graphs), len(want))
	}

	b.run(t, chromedp.WaitVisible(settled, chromedp.ByQuery), chromedp.Click(`button[data-output="imas_mem_graph.csv"]`, chromedp.ByQuery))
	if csv := waitFile(t, b, filepath.Join(dir, "imas_mem_graph.csv")); !strings.HasPrefix(string(csv), "Process_4242,") {
		t.Errorf("graph CSV starts %q", string(csv[:min(40, len(csv))]))
	}

	b.run(t, chromedp.WaitVisible(settled, chromedp.ByQuery), chromedp.Click(`#perfetto`, chromedp.ByQuery), chromedp.WaitVisible(`.note`, chromedp.ByQuery))
	var trace struct {
		TraceEvents []json.RawMessage `json:"traceEvents"`
	}
	if err := json.Unmarshal(waitFile(t, b, filepath.Join(dir, "imas_graph_perfetto.json")), &trace); err != nil || len(trace.TraceEvents) == 0 {
		t.Errorf("Perfetto fallback download: %d events, %v", len(trace.TraceEvents), err)
	}
	var note string
	b.run(t, chromedp.WaitVisible(`.note`, chromedp.ByQuery), chromedp.Text(`.note`, &note, chromedp.ByQuery))
	if !strings.Contains(note, "file://") {
		t.Errorf("note after Open in Perfetto from file://: %q", note)
	}

	// The saved report, opened again under another name (what it is comes
	// from its content, as in the CLI and the server), shows the figures
	// the logs showed, labelled as a saved report.
	fromLogs := b.shownGraphs(t)
	renamed := filepath.Join(t.TempDir(), "saved.txt")
	if err := os.WriteFile(renamed, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	b.load(t, 2, renamed)
	var label string
	b.eval(t, `(document.getElementById('loaded')||{}).textContent||''`, &label)
	if !strings.Contains(label, "A saved report") {
		t.Errorf("the saved report is labelled %q", label)
	}
	if got := b.shownGraphs(t); !reflect.DeepEqual(got, fromLogs) {
		t.Errorf("the saved report shows\n%v\nthe logs showed\n%v", got, fromLogs)
	}
	checkFigures(t, b.shownGraphs(t), want)
	b.clean(t)
}

// TestHostileNames loads logs whose node names are markup: they must show
// as text, and nothing must run.
func TestHostileNames(t *testing.T) {
	files, _ := generated(t, "hostile")
	const hostile = "<img src=x onerror=alert(1)>"
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	b.load(t, 1, files...)
	var ids []string
	b.eval(t, `[...document.querySelectorAll('tr[data-graph^="31001/"]')].map(tr => tr.dataset.graph)`, &ids)
	found := false
	for _, id := range ids {
		// The name filter applies once typing pauses; the table's title
		// then says how many rows match.
		b.run(t, chromedp.WaitVisible(settled, chromedp.ByQuery), chromedp.Click(`tr[data-graph="`+id+`"] td`, chromedp.ByQuery),
			chromedp.WaitVisible(`#graphs tr.sel[data-graph="`+id+`"]`, chromedp.ByQuery), chromedp.WaitVisible(settled, chromedp.ByQuery),
			chromedp.SetValue(`#f-name`, "onerror", chromedp.ByQuery),
			chromedp.Evaluate(`document.getElementById('f-name').dispatchEvent(new Event('input', {bubbles: true}))`, nil),
			chromedp.Poll(`document.querySelector('.tensors h2 small').textContent.includes('match')`, nil),
			chromedp.WaitVisible(settled, chromedp.ByQuery))
		var names []string
		b.eval(t, `[...document.querySelectorAll('#tensors td.name')].map(td => td.textContent)`, &names)
		for _, n := range names {
			found = found || strings.HasPrefix(n, hostile+":")
		}
		if found {
			break
		}
	}
	if !found {
		t.Errorf("no tensor named %q shown as text", hostile)
	}
	var imgs int
	b.eval(t, `document.querySelectorAll('img').length`, &imgs)
	if imgs != 0 {
		t.Errorf("%d <img> elements were created from log data", imgs)
	}
	b.clean(t)
}

// TestCancel starts reading a large file and cancels: the previous results
// stay.
func TestCancel(t *testing.T) {
	files, want := sample(t, "basic")
	big := filepath.Join(t.TempDir(), "big.log")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse 4 GiB file: free to make, and seconds to read.
	if err := f.Truncate(4 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	b.load(t, 1, files...)
	b.run(t, chromedp.SetUploadFiles("#files", []string{big}, chromedp.ByQuery),
		chromedp.WaitVisible(`#cancel`, chromedp.ByQuery))
	// The page is busy by design here: the progress bar re-renders under
	// the button while it is clicked, so this click may be repeated.
	b.clickFor(t, `#cancel`, `.imas[data-ends="2"][data-pending="0"]`)
	var msg string
	b.run(t, chromedp.Text(`.error`, &msg, chromedp.ByQuery))
	if !strings.Contains(msg, "Cancelled") {
		t.Errorf("after cancel: %q", msg)
	}
	checkFigures(t, b.shownGraphs(t), want)
	b.clean(t)
}

// TestDiff compares a run with a baseline dropped on the Compare tab.
func TestDiff(t *testing.T) {
	files, want := sample(t, "basic")
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	b.load(t, 1, files...)
	b.run(t, chromedp.Click(`button[data-tab="diff"]`, chromedp.ByQuery), chromedp.WaitVisible(`.panel.diff`, chromedp.ByQuery))
	b.loadInto(t, "#basefiles", 2, files...)
	b.run(t, chromedp.WaitVisible(`#diff-totals`, chromedp.ByQuery))
	var graphs int
	var deltas []string
	b.eval(t, `document.querySelectorAll('.diffgraph').length`, &graphs)
	b.eval(t, `[...document.querySelectorAll('#diff-totals td[data-value]')].map(td => td.dataset.value)`, &deltas)
	if graphs != len(want) || len(deltas) == 0 {
		t.Errorf("diff of a run with itself: %d graphs (want %d), %d totals", graphs, len(want), len(deltas))
	}
	for _, d := range deltas {
		if d != "0.000000" {
			t.Errorf("a total changed against itself: %s", d)
		}
	}
	// The page scrolled to the comparison, and kept the results above it.
	var top, height float64
	var results bool
	b.run(t, chromedp.Poll(`(r => r.top < innerHeight && r.bottom > 0)(document.getElementById('diff').getBoundingClientRect())`, nil))
	b.eval(t, `document.getElementById('diff').getBoundingClientRect().top`, &top)
	b.eval(t, `innerHeight`, &height)
	b.eval(t, `!!document.querySelector('main #graphs')`, &results)
	if top >= height || !results {
		t.Errorf("the comparison starts at %.0f px in a %.0f px window; results shown %v", top, height, results)
	}
	b.clean(t)
}

// TestPools loads the pool sample (no static graphs): its pools are listed
// and mapped, and the run-time lists render generically.
func TestPools(t *testing.T) {
	files, _ := sample(t, "pool")
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	b.load(t, 1, files...)
	var n, drawn, row string
	b.run(t, chromedp.WaitVisible(`#pools tr.sel[data-pool="0"]`, chromedp.ByQuery),
		chromedp.WaitVisible(settled, chromedp.ByQuery),
		chromedp.Click(`#pools tr[data-pool="1"] button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#pools tr.sel[data-pool="1"]`, chromedp.ByQuery),
		// The row is marked before the engine returns the map: wait for
		// pool 1's map itself, or the hover below points at pool 0's.
		chromedp.WaitVisible(`#imas-map[data-shows="pool:1"][data-drawn]`, chromedp.ByQuery),
		chromedp.AttributeValue("#imas-map", "data-n", &n, nil, chromedp.ByQuery),
		chromedp.AttributeValue("#imas-map", "data-drawn", &drawn, nil, chromedp.ByQuery))
	if n == "0" || n != drawn {
		t.Errorf("pool map drew %s of %s allocations", drawn, n)
	}
	var graphs bool
	b.eval(t, `!!document.querySelector('section.graphs')`, &graphs)
	if graphs {
		t.Error("a graphs table for logs without static graphs")
	}
	var top struct {
		X, Y float64
		Row  int
	}
	b.eval(t, `document.getElementById('imas-map').scrollIntoView({block: 'center'}), imasMap.top()`, &top)
	b.run(t, chromedp.MouseEvent(input.MouseMoved, top.X, top.Y),
		chromedp.WaitVisible(`.hovercard[data-row]`, chromedp.ByQuery),
		chromedp.Text(`.hovercard`, &row, chromedp.ByQuery))
	if !strings.Contains(row, "address 0x") {
		t.Errorf("pool hover card: %q", row)
	}
	checkPoolTime(t, b, native(t, files).Pools[1], row)
	var exact []string
	b.eval(t, `[...document.querySelectorAll('#pools td[data-value]')].map(td => td.title)`, &exact)
	for _, e := range exact {
		if !strings.HasSuffix(e, " bytes") {
			t.Errorf("pools table: a size's title %q, want its exact bytes", e)
		}
	}
	if len(exact) == 0 {
		t.Error("pools table: no sizes")
	}
	b.run(t, chromedp.WaitVisible(settled, chromedp.ByQuery), chromedp.Click(`button[data-tab="runtime"]`, chromedp.ByQuery))
	var rows int
	b.run(t, chromedp.Click(`[data-section="pools"] a.fold`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-section="pools"] table`, chromedp.ByQuery))
	b.eval(t, `document.querySelectorAll('[data-section="pools"] tr').length - 1`, &rows)
	if rows != 2 {
		t.Errorf("pools table has %d rows, the sample 2 allocators", rows)
	}
	// Run-time lists sort by any column too (largest first, then, as
	// here, the other way: the report lists the larger pool first).
	var peaks []int64
	b.run(t, chromedp.Click(`[data-section="pools"] button[data-sort="peak_live"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-section="pools"] th[aria-sort="descending"] button[data-sort="peak_live"]`, chromedp.ByQuery),
		chromedp.Click(`[data-section="pools"] button[data-sort="peak_live"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-section="pools"] th[aria-sort="ascending"] button[data-sort="peak_live"]`, chromedp.ByQuery))
	b.eval(t, `(() => { const t = document.querySelector('[data-section="pools"] table'),
		k = [...t.rows[0].cells].findIndex(th => th.querySelector('[data-sort="peak_live"]'));
		return [...t.rows].slice(1).map(r => +r.cells[k].dataset.value); })()`, &peaks)
	if len(peaks) != 2 || peaks[0] >= peaks[1] {
		t.Errorf("pools sorted by peak_live, smallest first: %v", peaks)
	}
	b.clean(t)
}

// checkPoolTime checks the shown pool's view on log time against the
// core's pool p: the timeline's top is p's peak_live, the x axes of the
// timeline and the map are labelled in round times, and the hover card
// (text card, after pointing at the map's top rectangle) gives its row's
// allocation and free times.
func checkPoolTime(t *testing.T, b *tab, p *model.Pool, card string) {
	t.Helper()
	var got struct {
		Max, Time   int64
		Row         int
		MapX, LiveX string
		Axes        string
	}
	b.eval(t, `(() => { const c = document.querySelector('.hovercard'), m = document.getElementById('imas-map'),
		l = document.getElementById('imas-live');
		return {max: +l.dataset.max, time: +c.dataset.time, row: +c.dataset.row, mapX: m.dataset.xticks,
			liveX: l.dataset.xticks, axes: document.querySelector('.maphead').textContent}; })()`, &got)
	if got.Max != p.PeakLive {
		t.Errorf("pool %s: the timeline's top is %d bytes, peak_live %d", p.Allocator, got.Max, p.PeakLive)
	}
	if !strings.Contains(got.Axes, "x: log time from ") {
		t.Errorf("pool map's axes: %q", got.Axes)
	}
	// Round times: evenly spaced by 1, 2 or 5 × 10^k µs (or whole minutes).
	tick := regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?) (µs|ms|s)$|^([0-9]+) min(?: ([0-9]+) s)?$`)
	unit := map[string]float64{"µs": 1, "ms": 1e3, "s": 1e6}
	for name, ticks := range map[string]string{"map": got.MapX, "timeline": got.LiveX} {
		var at []float64
		for _, l := range strings.Split(ticks, "|") {
			m := tick.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("%s: x tick %q is not a time", name, l)
				continue
			}
			if m[1] != "" {
				v, _ := strconv.ParseFloat(m[1], 64)
				at = append(at, math.Round(v*unit[m[2]]))
			} else {
				mi, _ := strconv.ParseFloat(m[3], 64)
				sec, _ := strconv.ParseFloat(cmp.Or(m[4], "0"), 64)
				at = append(at, (mi*60+sec)*1e6)
			}
		}
		if len(at) < 3 {
			t.Fatalf("%s: x ticks %q", name, ticks)
		}
		step := at[1] - at[0]
		mant := step / math.Pow(10, math.Floor(math.Log10(step)))
		for k := 1; k < len(at); k++ {
			if at[k]-at[k-1] != step || (mant != 1 && mant != 2 && mant != 5 && math.Mod(step, 60e6) != 0) {
				t.Errorf("%s: x ticks %q are not round times", name, ticks)
				break
			}
		}
	}
	if got.Row < 0 || got.Row >= len(p.Rows) {
		t.Fatalf("hover card on row %d of %d", got.Row, len(p.Rows))
	}
	r := p.Rows[got.Row]
	clock := func(us int64) string {
		return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(us) * time.Microsecond).Format("15:04:05.000000")
	}
	if got.Time != r.Time || !strings.Contains(card, "allocated "+clock(r.Time)) ||
		r.KernelFree && !strings.Contains(card, "freed "+clock(r.FreeTime)) || !r.KernelFree && !strings.Contains(card, "not freed") {
		t.Errorf("hover card on row %d (%s, allocated %s, freed %v at %s): %q", got.Row, r.Node, clock(r.Time), r.KernelFree, clock(r.FreeTime), card)
	}
}

// TestDrop drops plogs on the page, as a user would. (CDP cannot drop a
// folder: Chromium then hands the page an unreadable entry.)
func TestDrop(t *testing.T) {
	files, want := sample(t, "mixed")
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	data := &input.DragData{Items: []*input.DragDataItem{}, Files: files, DragOperationsMask: 1}
	drop := chromedp.Tasks{input.DispatchDragEvent(input.DragEnter, 300, 300, data),
		input.DispatchDragEvent(input.DragOver, 300, 300, data),
		input.DispatchDragEvent(input.Drop, 300, 300, data)}
	b.run(t, drop)
	// A drop made right after a fresh build can fail to reach the page
	// (CDP drag events on a cold page); it is repeated once, visibly,
	// rather than failing the run.
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	err := chromedp.Run(ctx, chromedp.WaitVisible(`.imas[data-ends="1"][data-pending="0"]`, chromedp.ByQuery))
	cancel()
	if err != nil {
		t.Logf("the drop had no effect in 20 s (%v); dropping again", err)
		b.run(t, drop, chromedp.WaitVisible(`.imas[data-ends="1"][data-pending="0"]`, chromedp.ByQuery))
	}
	checkFigures(t, b.shownGraphs(t), want)
	var inputs []string
	b.run(t, chromedp.Click(`button[data-tab="inputs"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-section="files"] table`, chromedp.ByQuery))
	b.eval(t, `[...document.querySelectorAll('[data-section="files"] tr td:first-child')].map(td => td.textContent)`, &inputs)
	if len(inputs) != len(files) || !strings.HasPrefix(inputs[0], "plog-") {
		t.Errorf("dropped files read as %q", inputs)
	}
	b.clean(t)
}

// TestHosted serves public/ over HTTP, as an intranet server would, and
// reads a sample through index.html (which fetches imas.wasm.gz).
func TestHosted(t *testing.T) {
	u := pageURL(t, "")
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Dir(strings.TrimPrefix(u, "file://")))))
	defer srv.Close()
	files, want := sample(t, "conflicts")
	b := newTab(t, 90*time.Second)
	b.run(t, chromedp.Navigate(srv.URL+"/index.html"), chromedp.WaitVisible(`.imas[data-state="idle"]`, chromedp.ByQuery))
	b.load(t, 1, files...)
	checkFigures(t, b.shownGraphs(t), want)
	b.clean(t)
}

// generated writes a generated profile's logs to a temporary folder and
// returns their paths and the generator's truth.
func generated(t *testing.T, profile string) ([]string, *gen.Truth) {
	t.Helper()
	dir := t.TempDir()
	p, err := gen.ProfileByName(profile, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	truth, err := gen.Generate(p, dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range truth.Files {
		files = append(files, filepath.Join(dir, f.Name))
	}
	return files, truth
}
