package pagetest

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestReadExperiment measures ways of reading the 200 MB File in a settled
// page (READEXP=1; READEXP=gz: the browser inflating the gzipped log; a
// measuring tool, skipped otherwise): slice sizes,
// streams, FileReaderSync, and reading next to a thread that computes
// 60 ms per 16 MiB without returning to its event loop, as the engine
// does: a worker's own reads wait for its loop (docs/page.md), which is
// why page.js has a reader worker.
func TestReadExperiment(t *testing.T) {
	if os.Getenv("READEXP") == "" {
		t.Skip("READEXP not set")
	}
	plain, gz := inputs(t)
	st, _ := os.Stat(plain)
	variants := map[string]string{
		"slice16-d1": `async (f) => { const n = 16 << 20; let next = f.slice(0, n).arrayBuffer(), s = 0;
			for (let off = 0; off < f.size; off += n) { const b = await next; if (off + n < f.size) next = f.slice(off + n, off + 2 * n).arrayBuffer(); s += new Uint8Array(b)[0]; } return s; }`,
		"slice16-d3": `async (f) => { const n = 16 << 20, q = []; let off = 0, s = 0;
			while (q.length < 3 && off < f.size) { q.push(f.slice(off, off + n).arrayBuffer()); off += n; }
			while (q.length) { const b = await q.shift(); if (off < f.size) { q.push(f.slice(off, off + n).arrayBuffer()); off += n; } s += new Uint8Array(b)[0]; } return s; }`,
		"slice4-d4": `async (f) => { const n = 4 << 20, q = []; let off = 0, s = 0;
			while (q.length < 4 && off < f.size) { q.push(f.slice(off, off + n).arrayBuffer()); off += n; }
			while (q.length) { const b = await q.shift(); if (off < f.size) { q.push(f.slice(off, off + n).arrayBuffer()); off += n; } s += new Uint8Array(b)[0]; } return s; }`,
		"slice64-d1": `async (f) => { const n = 64 << 20; let next = f.slice(0, n).arrayBuffer(), s = 0;
			for (let off = 0; off < f.size; off += n) { const b = await next; if (off + n < f.size) next = f.slice(off + n, off + 2 * n).arrayBuffer(); s += new Uint8Array(b)[0]; } return s; }`,
		"stream": `async (f) => { const r = f.stream().getReader(); let s = 0; for (;;) { const {done, value} = await r.read(); if (done) break; s += value[0]; } return s; }`,
		"stream-byob": `async (f) => { const r = f.stream().getReader({mode: 'byob'}); let buf = new ArrayBuffer(16 << 20), s = 0;
			for (;;) { const {done, value} = await r.read(new Uint8Array(buf)); if (done) break; s += value[0]; buf = value.buffer; } return s; }`,
		"worker-sync16": `(f) => new Promise((res) => { const src = 'onmessage = (e) => { const f = e.data, r = new FileReaderSync(), n = 16 << 20; let s = 0; for (let off = 0; off < f.size; off += n) s += new Uint8Array(r.readAsArrayBuffer(f.slice(off, off + n)))[0]; postMessage(s); };';
			const w = new Worker(URL.createObjectURL(new Blob([src]))); w.onmessage = (e) => { w.terminate(); res(e.data); }; w.postMessage(f); })`,
		"worker-slice16-d1": `(f) => new Promise((res) => { const src = 'onmessage = async (e) => { const f = e.data, n = 16 << 20; let next = f.slice(0, n).arrayBuffer(), s = 0; for (let off = 0; off < f.size; off += n) { const b = await next; if (off + n < f.size) next = f.slice(off + n, off + 2 * n).arrayBuffer(); s += new Uint8Array(b)[0]; } postMessage(s); };';
			const w = new Worker(URL.createObjectURL(new Blob([src]))); w.onmessage = (e) => { w.terminate(); res(e.data); }; w.postMessage(f); })`,
	}
	variants["worker-busy60"] = `(f) => new Promise((res) => { const src = 'onmessage = async (e) => { const f = e.data, n = 16 << 20; let next = f.slice(0, n).arrayBuffer(), s = 0; for (let off = 0; off < f.size; off += n) { const b = await next; if (off + n < f.size) next = f.slice(off + n, off + 2 * n).arrayBuffer(); s += new Uint8Array(b)[0]; const t = performance.now(); while (performance.now() - t < 60) {} } postMessage(s); };';
			const w = new Worker(URL.createObjectURL(new Blob([src]))); w.onmessage = (e) => { w.terminate(); res(e.data); }; w.postMessage(f); })`
	variants["main-to-busy60"] = `(f) => new Promise((res) => { const src = 'let s = 0, k = 0; onmessage = (e) => { if (e.data === "end") { postMessage(s); return; } s += new Uint8Array(e.data)[0]; const t = performance.now(); while (performance.now() - t < 60) {} };';
			const w = new Worker(URL.createObjectURL(new Blob([src]))); w.onmessage = (e) => { w.terminate(); res(e.data); };
			(async () => { const n = 16 << 20; for (let off = 0; off < f.size; off += n) { const b = await f.slice(off, off + n).arrayBuffer(); w.postMessage(b, [b]); } w.postMessage("end"); })(); })`
	variants["busy60-alone"] = `(f) => new Promise((res) => { const src = 'onmessage = (e) => { for (let i = 0; i < 13; i++) { const t = performance.now(); while (performance.now() - t < 60) {} } postMessage(0); };';
			const w = new Worker(URL.createObjectURL(new Blob([src]))); w.onmessage = (e) => { w.terminate(); res(e.data); }; w.postMessage(0); })`
	variants["nested-busy60"] = "(f) => new Promise((res) => { const rsrc = " + "`" + `onmessage = async (e) => { const {id, file, off, end} = e.data; const b = await file.slice(off, end).arrayBuffer(); postMessage({id, b}, [b]); };` + "`" + `;
			const src = 'const rd = new Worker(URL.createObjectURL(new Blob([' + JSON.stringify(rsrc) + ']))); const waits = new Map(); let seq = 0; rd.onmessage = (e) => { waits.get(e.data.id)(e.data.b); waits.delete(e.data.id); };' +
			'const read = (file, off, end) => new Promise((r) => { const id = ++seq; waits.set(id, r); rd.postMessage({id, file, off, end}); });' +
			'onmessage = async (e) => { const f = e.data, n = 16 << 20; let next = read(f, 0, n), s = 0; for (let off = 0; off < f.size; off += n) { const b = await next; if (off + n < f.size) next = read(f, off + n, off + 2 * n); s += new Uint8Array(b)[0]; const t = performance.now(); while (performance.now() - t < 60) {} } rd.terminate(); postMessage(s); };';
			const w = new Worker(URL.createObjectURL(new Blob([src]))); w.onmessage = (e) => { w.terminate(); res(e.data); }; w.postMessage(f); })`
	// .gz variants (the File is the gzipped log; MB/s of text): the
	// browser's DecompressionStream, alone, with the engine's counting
	// stage, and into 16 MiB pieces as page.js's reader worker does.
	variants["gz-inflate"] = `async (f) => { const r = f.stream().pipeThrough(new DecompressionStream('gzip')).getReader(); let s = 0, k = 0;
			for (;;) { const {done, value} = await r.read(); if (done) break; s += value[0]; k++; } return k; }`
	variants["gz-inflate-count"] = `async (f) => { let c = 0; const t = new TransformStream({transform(ch, ctl) { c += ch.byteLength; ctl.enqueue(ch); }});
			const r = f.stream().pipeThrough(t).pipeThrough(new DecompressionStream('gzip')).getReader(); let s = 0;
			for (;;) { const {done, value} = await r.read(); if (done) break; s += value[0]; } return c; }`
	variants["gz-inflate-pieces"] = `async (f) => { const r = f.stream().pipeThrough(new DecompressionStream('gzip')).getReader(); const want = 16 << 20; let buf = new Uint8Array(want), n = 0, s = 0;
			for (;;) { const {done, value} = await r.read(); if (done) break; let v = value; while (v.byteLength) { const k = Math.min(v.byteLength, want - n); buf.set(v.subarray(0, k), n); n += k; v = v.subarray(k); if (n === want) { s += buf[0]; n = 0; } } } return s; }`
	variants["gz-inflate-worker"] = `(f) => new Promise((res) => { const src = 'onmessage = async (e) => { const r = e.data.stream().pipeThrough(new DecompressionStream("gzip")).getReader(); let s = 0; for (;;) { const {done, value} = await r.read(); if (done) break; s += value[0]; } postMessage(s); };';
			const w = new Worker(URL.createObjectURL(new Blob([src]))); w.onmessage = (e) => { w.terminate(); res(e.data); }; w.postMessage(f); })`
	// measure reads file with one variant in a settled page, in seconds.
	measure := func(variant, file string) float64 {
		b := newTab(t, 5*time.Minute)
		defer b.clean(t)
		b.open(t, "")
		b.run(t, chromedp.WaitReady(`html[data-warm]`, chromedp.ByQuery))
		time.Sleep(2 * time.Second)
		b.eval(t, `(() => { const i = document.createElement('input'); i.type = 'file'; i.id = 'bench-file'; document.body.append(i); })()`, nil)
		b.run(t, chromedp.SetUploadFiles(`#bench-file`, []string{file}, chromedp.ByQuery))
		var secs float64
		b.run(t, chromedp.Evaluate(`(async () => { const f = document.getElementById('bench-file').files[0], t0 = performance.now();
			await (`+variant+`)(f); return (performance.now() - t0) / 1000; })()`, &secs,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
		return secs
	}
	order, file, unit := []string{"slice16-d1", "slice16-d3", "slice4-d4", "slice64-d1", "stream", "stream-byob", "worker-sync16", "worker-slice16-d1",
		"busy60-alone", "worker-busy60", "nested-busy60", "main-to-busy60"}, plain, "MB/s"
	if os.Getenv("READEXP") == "gz" {
		order, file, unit = []string{"gz-inflate", "gz-inflate-count", "gz-inflate-pieces", "gz-inflate-worker"}, gz, "MB/s of text"
	}
	for round := 0; round < 3; round++ {
		for _, name := range order {
			t.Logf("%-18s %6.1f %s", name, float64(st.Size())/1e6/measure(variants[name], file), unit)
		}
	}
}
