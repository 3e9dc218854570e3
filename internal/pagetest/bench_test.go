package pagetest

// Benchmarks of the page in headless Chromium (make bench-page). They
// measure; they assert nothing about speed. Each reports:
//
//	MB/s           input bytes (as given: compressed for .gz) / wall time
//	               from choosing the files to the results on screen
//	text-MB/s      the same for the uncompressed log text
//	engine-MB/s    text bytes / the engine's own analysis time
//	stall-max-ms   the longest the page's event loop was blocked while the
//	               logs were read and parsed: a 10 ms interval timer's worst
//	               lateness, which bounds the delay of any click or key press
//	stall-p99-ms   its 99th percentile
//	result-ms      the longest block after the engine answered: decoding
//	               and rendering the results, once per analysis
//	first-elements the page's elements once the results' first render is
//	               in the DOM: what the first result frame lays out
//	elements       the page's elements once every answer is shown

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"imas/internal/gen"
)

// benchInputs are made once: ~200 MB of generated plog (the "large"
// profile) and its gzip, kept in benchDir for the next runs (the generator
// is deterministic), as make bench keeps its CLI inputs.
var benchInputs struct {
	once      sync.Once
	plain, gz string
	err       error
}

var benchDir = filepath.Join(os.TempDir(), "imas-bench-page-200M")

func inputs(b testing.TB) (plain, gz string) {
	in := &benchInputs
	in.once.Do(func() {
		in.plain = filepath.Join(benchDir, "plog-777001_large.log")
		in.gz = in.plain + ".gz"
		done := filepath.Join(benchDir, "complete")
		if _, err := os.Stat(done); err == nil {
			return
		}
		if in.err = os.MkdirAll(benchDir, 0o755); in.err != nil {
			return
		}
		p, err := gen.ProfileByName("large", 0, 200<<20)
		if err == nil {
			var f *os.File
			if f, err = os.Create(in.plain); err == nil {
				_, err = gen.GenerateStream(p, f, filepath.Base(in.plain))
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
		}
		if in.err = err; err == nil {
			in.err = errors.New("the bench inputs could not be gzipped") // if gzipFile fails the benchmark
			gzipFile(b, in.plain, in.gz)
			in.err = os.WriteFile(done, nil, 0o644) // both files are whole
		}
	})
	if in.err != nil {
		b.Fatal(in.err)
	}
	return in.plain, in.gz
}

// endsJS notes when the page's analysis count changes, from now, and how
// many elements the page has then (the render that changed it is in the
// DOM when the observer runs, before the browser lays it out).
const endsJS = `(() => { const el = document.querySelector('.imas'), e0 = el.dataset.ends;
  window.imasEnds = {t0: performance.now(), at: NaN, elements: 0};
  new MutationObserver(() => { if (el.dataset.ends !== e0 && isNaN(imasEnds.at)) {
    imasEnds.at = performance.now(); imasEnds.elements = document.getElementsByTagName('*').length; } })
    .observe(el, {attributeFilter: ['data-ends']}); })()`

const probeJS = `window.imasProbe = {gaps: []};
(() => { let last = performance.now();
  setInterval(() => { const now = performance.now(); imasProbe.gaps.push([now, now - last - 10]); last = now; }, 10); })();`

// stalls returns the probe's worst and 99th-percentile lateness (ms)
// before the engine answered (the "imas-analysed" mark), and its worst
// after; and resets the probe.
func (b *tab) stalls(t testing.TB) (worst, p99, after float64) {
	var r []float64
	b.eval(t, `(() => {
		const m = performance.getEntriesByName('imas-analysed').pop(), end = m ? m.startTime : Infinity;
		const during = imasProbe.gaps.filter(g => g[0] < end).map(g => g[1]).sort((a, b) => a - b);
		const later = imasProbe.gaps.filter(g => g[0] >= end).map(g => g[1]);
		imasProbe.gaps = [];
		performance.clearMarks('imas-analysed');
		return [during.length ? during[during.length - 1] : 0, during.length ? during[Math.floor(during.length * 0.99)] : 0,
			later.length ? Math.max(...later) : 0];
	})()`, &r)
	return r[0], r[1], r[2]
}

// BenchmarkPageLoad is the time from navigation to a page ready for input.
func BenchmarkPageLoad(b *testing.B) {
	for i := 0; i < b.N; i++ {
		t := newTab(b, 2*time.Minute)
		start := time.Now()
		t.open(b, "")
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "load-ms")
		var boot float64
		t.eval(b, `imasPage.bootMs`, &boot)
		b.ReportMetric(boot, "wasm-ready-ms")
		t.clean(b)
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkPageAnalyze reads the 200 MB plog, plain and gzipped, with the
// engine in its Web Worker: "worker" chooses the file as soon as the page
// is ready (the engine's warm-up, engine.WarmUp, is cut short), "settled"
// 2 s after the warm-ups finished (the engine's and the page's, ui.WarmUp),
// as a user who needs a few seconds to pick a file sees it, and "cold" with no warm-up at all (?warmup=0); "page" runs the
// engine in the page's own thread (?engine=page).
func BenchmarkPageAnalyze(b *testing.B) {
	const settleAfterWarmUp = 2 * time.Second
	pageURL(b, "")
	plain, gz := inputs(b)
	for _, mode := range []string{"worker", "settled", "cold", "page"} {
		for _, file := range []string{plain, gz} {
			name := mode + "/" + map[bool]string{true: "plain", false: "gzip"}[file == plain]
			b.Run(name, func(b *testing.B) {
				query := map[string]string{"cold": "?warmup=0", "page": "?engine=page"}[mode]
				if q := os.Getenv("IMAS_BENCH_QUERY"); q != "" { // e.g. ?warmup=32, ?parsers=0
					if query == "" {
						query = q
					} else {
						query += "&" + strings.TrimPrefix(q, "?")
					}
				}
				st, err := os.Stat(file)
				if err != nil {
					b.Fatal(err)
				}
				text, err := os.Stat(plain)
				if err != nil {
					b.Fatal(err)
				}
				for i := 0; i < b.N; i++ {
					t := newTab(b, 5*time.Minute)
					t.open(b, query)
					if mode == "settled" {
						t.run(b, chromedp.WaitReady(`html[data-warm]`, chromedp.ByQuery))
						var warm struct {
							Seconds float64
							PageMs  float64 `json:"page_ms"`
						}
						t.eval(b, `JSON.parse(document.documentElement.dataset.warm)`, &warm)
						b.ReportMetric(warm.Seconds*1000, "warm-up-ms")
						b.ReportMetric(warm.PageMs, "page-warm-up-ms")
						// The browser's optimising compiler works on in
						// background threads after the warm-ups return, out
						// of sight of the page: a user picking a file takes
						// longer than this.
						time.Sleep(settleAfterWarmUp)
					}
					t.eval(b, probeJS, nil)
					t.eval(b, endsJS, nil)
					t.stalls(b)
					start := time.Now()
					t.load(b, 1, file)
					wall := time.Since(start)
					// load waits until the first graph's map and table are
					// shown too; "ended-MB/s" stops at the analysis' end.
					var ended, elements float64
					t.eval(b, `imasEnds.at - imasEnds.t0`, &ended)
					t.eval(b, `imasEnds.elements`, &elements)
					b.ReportMetric(elements, "first-elements")
					t.eval(b, `document.getElementsByTagName('*').length`, &elements)
					b.ReportMetric(elements, "elements")
					b.ReportMetric(float64(text.Size())/1e3/ended, "ended-MB/s")
					worst, p99, after := t.stalls(b)
					var secs string
					t.run(b, chromedp.AttributeValue(`[data-field="seconds"]`, "data-value", &secs, nil, chromedp.ByQuery))
					engine, _ := strconv.ParseFloat(secs, 64)
					b.ReportMetric(float64(st.Size())/1e6/wall.Seconds(), "MB/s")
					b.ReportMetric(float64(text.Size())/1e6/wall.Seconds(), "text-MB/s")
					b.ReportMetric(float64(text.Size())/1e6/engine, "engine-MB/s")
					b.ReportMetric(worst, "stall-max-ms")
					b.ReportMetric(p99, "stall-p99-ms")
					b.ReportMetric(after, "result-ms")
					var parsed []int64
					t.eval(b, `JSON.parse(imasPage.progress || '{}').parsed || []`, &parsed)
					b.ReportMetric(float64(len(parsed)), "parse-workers")
					t.clean(b)
				}
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// writeMillion writes one graph of n tensors placed without conflicts: L
// address lanes, each holding tensors one after another in time.
func writeMillion(b testing.TB, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	ops := []string{"MatMul", "Add", "Relu", "Conv2D", "Cast", "Softmax", "LayerNorm", "Gelu", "Mul", "Sub", "Transpose", "Reshape", "Concat", "Slice"}
	const lanes = 1000
	const lane = 4 << 20
	step := make([]int, lanes)
	for i := 0; i < n; i++ {
		l := i % lanes
		size := 512 * (1 + (i*7919)%(lane/512-1))
		begin := step[l] + 1
		end := begin + (i*31)%17
		step[l] = end
		fmt.Fprintf(w, "[INFO] GE(4242,python3):2026-04-18-10:00:00.927.044 [block_mem_assigner.cc:2914]4243 SetOffsetSize:[IMAS]Set big_graph name[node_%d] optype[%s] output[0] offset to [%d] streamid[%d] memtype[2] size[%d] realsize[%d] noalignsize[%d] life time begin[%d] life time end[%d] child[0:1:0:0:1] isref[0] batch[], block_type[]\n",
			i, ops[i%len(ops)], l*lane, i%3, size, size-32, size-40, begin, end)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPageMap draws the memory map of one graph of 10^6 tensors:
// the first full draw, a warm one, a zoomed one, and the hover hit-test.
func BenchmarkPageMap(b *testing.B) {
	pageURL(b, "")
	path := filepath.Join(b.TempDir(), "plog-4242_million.log")
	writeMillion(b, path, 1_000_000)
	for i := 0; i < b.N; i++ {
		t := newTab(b, 10*time.Minute)
		t.open(b, "")
		t.load(b, 1, path)
		var n, ms string
		t.run(b, chromedp.WaitVisible(`#imas-map[data-drawn]`, chromedp.ByQuery),
			chromedp.AttributeValue("#imas-map", "data-n", &n, nil, chromedp.ByQuery),
			chromedp.AttributeValue("#imas-map", "data-ms", &ms, nil, chromedp.ByQuery))
		if n != "1000000" {
			b.Fatalf("map of %s rectangles", n)
		}
		full, _ := strconv.ParseFloat(ms, 64)
		b.ReportMetric(full, "draw-ms")
		// A warm redraw of the whole graph (outlining a tensor redraws).
		t.run(b, chromedp.Evaluate(`imasMap.mark(0); new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`, nil,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
			chromedp.AttributeValue("#imas-map", "data-ms", &ms, nil, chromedp.ByQuery))
		warm, _ := strconv.ParseFloat(ms, 64)
		b.ReportMetric(warm, "redraw-ms")

		var box struct{ X, Y, W, H float64 }
		t.eval(b, `(() => { const c = document.getElementById('imas-map'); c.scrollIntoView({block: 'center'});
			const r = c.getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`, &box)
		cx, cy := box.X+box.W/2, box.Y+box.H/2
		t.eval(b, probeJS, nil)
		t.stalls(b)
		var drawn string
		t.run(b, chromedp.MouseEvent(input.MouseWheel, cx, cy, chromedp.ButtonNone, func(p *input.DispatchMouseEventParams) *input.DispatchMouseEventParams {
			return p.WithDeltaY(-1500)
		}), chromedp.Sleep(300*time.Millisecond),
			chromedp.AttributeValue("#imas-map", "data-ms", &ms, nil, chromedp.ByQuery),
			chromedp.AttributeValue("#imas-map", "data-drawn", &drawn, nil, chromedp.ByQuery))
		zoom, _ := strconv.ParseFloat(ms, 64)
		b.ReportMetric(zoom, "zoomed-draw-ms")
		visible, _ := strconv.ParseFloat(drawn, 64)
		b.ReportMetric(visible, "zoomed-rects")
		start := time.Now()
		t.run(b, chromedp.MouseEvent(input.MouseMoved, cx+3, cy+3),
			chromedp.WaitVisible(`.hovercard[data-row]`, chromedp.ByQuery))
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "hover-ms")
		worst, _, after := t.stalls(b)
		b.ReportMetric(max(worst, after), "stall-max-ms")
		t.clean(b)
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkPageRead is the browser's side alone: reading the 200 MB file
// in 16 MiB File.slice().arrayBuffer() chunks, the next one requested
// before the current one is used — as the engine's reader does — with no
// parsing. It bounds what the page could do with a faster core.
func BenchmarkPageRead(b *testing.B) {
	pageURL(b, "")
	plain, _ := inputs(b)
	st, err := os.Stat(plain)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		t := newTab(b, 5*time.Minute)
		t.open(b, "")
		t.eval(b, `(() => { const i = document.createElement('input'); i.type = 'file'; i.id = 'bench-file'; document.body.append(i); })()`, nil)
		t.run(b, chromedp.SetUploadFiles(`#bench-file`, []string{plain}, chromedp.ByQuery))
		var secs float64
		t.run(b, chromedp.Evaluate(`(async () => {
			const f = document.getElementById('bench-file').files[0], n = 16 << 20, t0 = performance.now();
			let next = f.slice(0, n).arrayBuffer(), sum = 0;
			for (let off = 0; off < f.size; off += n) {
				const buf = await next;
				if (off + n < f.size) next = f.slice(off + n, off + 2 * n).arrayBuffer();
				sum += new Uint8Array(buf)[0];
			}
			return (performance.now() - t0) / 1000;
		})()`, &secs, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
		b.ReportMetric(float64(st.Size())/1e6/secs, "MB/s")
		t.clean(b)
	}
	b.ReportMetric(0, "ns/op")
}
