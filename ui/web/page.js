// page.js boots imas and does the few browser chores Go leaves to JS: it
// loads the wasm (inlined and gzipped in imas.html, fetched in index.html),
// starts the engine in a Web Worker made from a Blob URL (file:// pages
// cannot load worker scripts by path), collects dropped files and folders,
// and saves downloads. Everything else is Go (wasm/app, ui/).
(function () {
  'use strict';

  // files turns a FileList (or array of Files) into [{file, name}], naming
  // folder members by their relative path.
  function files(list) {
    const out = [];
    for (const f of list) out.push({file: f, name: f.webkitRelativePath || f.name});
    return out;
  }

  // collect reads a drop: files, and folders recursively. Entries and the
  // file list must be taken while the drop event is being dispatched, so
  // that part is sync. Where the entries cannot be read, the plain file
  // list is used.
  function collect(dt) {
    const flat = files(dt.files);
    const entries = [];
    for (const it of dt.items || []) {
      const e = it.kind === 'file' && it.webkitGetAsEntry ? it.webkitGetAsEntry() : null;
      if (e) entries.push(e);
    }
    if (!entries.length) return Promise.resolve(flat);
    const out = [];
    const walk = async (entry, dir) => {
      if (entry.isFile) {
        const file = await new Promise((ok, fail) => entry.file(ok, fail));
        out.push({file, name: dir + file.name});
        return;
      }
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
        if (!batch.length) break;
        for (const e of batch) await walk(e, dir + entry.name + '/');
      }
    };
    return entries.reduce((p, e) => p.then(() => walk(e, '')), Promise.resolve())
      .then(() => out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), () => flat);
  }

  // save downloads buf under name.
  function save(buf, name, mime) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([buf], {type: mime || 'application/octet-stream'}));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
  }

  // reveal scrolls the element sel into view once a render has put it on
  // the page (Go asks before it renders): it looks at each frame for up to
  // 5 s, as a render of the whole page can take a second on a busy machine.
  function reveal(sel) {
    const until = performance.now() + 5000;
    const look = () => {
      const e = document.querySelector(sel);
      if (e) e.scrollIntoView({block: 'nearest', behavior: 'instant'});
      else if (performance.now() < until) requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }

  // widths sizes the parts of the stacked bars from their data-w (the
  // CSP allows no style attributes; styles set from script are fine).
  function widths() {
    for (const e of document.querySelectorAll('[data-w]')) e.style.width = (100 * parseFloat(e.dataset.w) || 0) + '%';
  }

  // sethash puts the view in the address without a history entry.
  function sethash(h) {
    const url = location.pathname + location.search + (h ? '#' + h : '');
    if (url !== location.pathname + location.search + location.hash) history.replaceState(null, '', url);
  }

  // sample is the generated log built into the page (#imas-sample,
  // gzipped) as the files of a drop; null when the page has none.
  function sample() {
    const e = document.getElementById('imas-sample');
    if (!e) return null;
    const file = new File([fromBase64(e.textContent)], 'sample/plog-sample.log.gz', {type: 'application/gzip'});
    return [{file, name: file.name}];
  }

  const page = {files, save, reveal, widths, sethash, sample, ondrop: null, onescape: null};
  window.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && page.onescape) page.onescape();
  });
  window.imasPage = page;

  // The whole window takes drops; the nearest [data-drop] says for what.
  window.addEventListener('dragover', (e) => {
    e.preventDefault();
    document.body.classList.add('dragging');
  });
  window.addEventListener('dragleave', (e) => {
    if (!e.relatedTarget) document.body.classList.remove('dragging');
  });
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    const zone = e.target.closest && e.target.closest('[data-drop]');
    const slot = zone ? zone.dataset.drop : 'run';
    collect(e.dataTransfer).then((fs) => {
      if (fs.length && page.ondrop) page.ondrop(slot, fs);
    }, fatal);
  });

  function fatal(err) {
    console.error(err);
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = 'imas: ' + (err && err.message ? err.message : err);
    document.body.prepend(p);
  }

  function fromBase64(b64) {
    const text = atob(b64.trim());
    const buf = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) buf[i] = text.charCodeAt(i);
    return buf;
  }

  // fromBase85 decodes tools/mkhtml's EncodeBase85 (the inlined wasm):
  // five digits per four bytes, big-endian; a short last group is padded
  // with the top digit.
  const B85 = '!#$%()*+,-./0123456789:;=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_abcdefghijklmnopqrstuvwxyz{';
  function fromBase85(text) {
    const s = text.trim(), t = new Uint8Array(128);
    for (let i = 0; i < 85; i++) t[B85.charCodeAt(i)] = i;
    const full = Math.floor(s.length / 5), rest = s.length % 5;
    const out = new Uint8Array(full * 4 + Math.max(0, rest - 1));
    let o = 0;
    for (let i = 0; i < s.length; i += 5) {
      let v = 0;
      for (let k = 0; k < 5; k++) v = v * 85 + (i + k < s.length ? t[s.charCodeAt(i + k)] : 84);
      for (let k = 0; k < 4 && o < out.length && (i + 5 <= s.length || k < rest - 1); k++) out[o++] = (v >>> (24 - 8 * k)) & 255;
    }
    return out;
  }

  // wasmBytes returns the Go program: the inlined base85 of imas.html, or
  // imas.wasm.gz next to index.html. Both are gzip; a server that already
  // decoded the gzip is fine too.
  async function wasmBytes() {
    const inline = document.getElementById('imas-wasm');
    let buf;
    if (inline) {
      buf = inline.dataset.encoding === 'base85' ? fromBase85(inline.textContent) : fromBase64(inline.textContent);
    } else {
      const res = await fetch('imas.wasm.gz');
      if (!res.ok) throw new Error('imas.wasm.gz: ' + res.status + ' ' + res.statusText);
      buf = new Uint8Array(await res.arrayBuffer());
    }
    if (buf[0] !== 0x1f || buf[1] !== 0x8b) return buf;
    const raw = new Blob([buf]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(raw).arrayBuffer();
  }

  // vectorModule compiles the WebAssembly SIMD kernel of the candidate
  // scan (internal/wasmsimd, inlined in both pages), or returns null where
  // the browser has no SIMD: the engine then keeps its portable scan.
  async function vectorModule() {
    const inline = document.getElementById('imas-vector');
    if (!inline) return null;
    try {
      return await WebAssembly.compile(fromBase64(inline.textContent));
    } catch {
      return null;
    }
  }

  // linkVector instantiates the kernel against the memory of the Go
  // instance inst and puts its filter where the engine looks for it
  // (wasm/engine/vector_js.go), so it must run before go.run. The worker
  // runs it too: its source is part of the worker's.
  async function linkVector(vector, inst) {
    if (!vector) return;
    try {
      const k = await WebAssembly.instantiate(vector, {env: {mem: inst.exports.mem}});
      globalThis.imasVector = k.exports.filter;
    } catch {
      // the portable scan
    }
  }

  // readerMain runs in a worker that the page starts, and reads
  // File slices for it. A File is read on the event loop of the thread that
  // asked, in small pieces, and the engine's thread runs Go for seconds
  // without returning to its loop: reading there, the browser read and Go
  // parsed in turns (a measured 120-130 MB/s for reads and work that take
  // 250 MB/s each; 150-180 MB/s with the reads in a thread of their own).
  // Consecutive slices of a file come from one byte stream read into
  // buffers the engine hands back once it has copied them: a fresh 16 MiB
  // ArrayBuffer per slice is memory touched for the first time, and
  // TestReadExperiment read the 200 MB log at 150-190 MB/s by slices,
  // 510 MB/s by a BYOB stream into one buffer. The engine reads the files
  // of a folder side by side (a piece of one, then of another), so each of
  // its readers (key) keeps a stream of its own: with one stream for all,
  // every piece started a new one, and the engine waited for the reads.
  // The requests of one reader are served in order; those of different
  // readers go on side by side.
  function readerMain() {
    // The page hands over the engine's end of a MessageChannel first; the
    // requests come and the answers go on it.
    let port = null;
    const answer = (m, t) => (port ? port.postMessage(m, t) : postMessage(m, t));
    const pool = [];
    let byob = true, queue = Promise.resolve();
    // Handed-back buffers are kept up to poolBytes: a buffer used again is
    // memory already touched. Two pieces of each file being read are out
    // at a time, so the pool holds what a folder's open files go through.
    const poolBytes = 32 << 20;
    const bufferFor = (n) => {
      const i = pool.findIndex((b) => b.byteLength >= n);
      return i >= 0 ? pool.splice(i, 1)[0] : new ArrayBuffer(n);
    };
    // streams: the open byte stream of each engine reader (key), the
    // most recently used last. A reader closed before its end leaves its
    // stream here until maxStreams newer ones push it out (?readstreams=N
    // sets it, to test streams started again at an offset).
    const streams = new Map(), readerQueues = new Map();
    let maxStreams = 32;
    const dropStream = (key) => {
      const st = streams.get(key);
      if (st) st.reader.cancel().catch(() => {});
      streams.delete(key);
    };
    // key names the engine's reader of a File: a File posted here is a new
    // object each time, so it cannot say which stream goes on.
    const streamAt = (file, off, key) => {
      const st = streams.get(key);
      streams.delete(key);
      if (st && st.pos === off) {
        streams.set(key, st);
        return st;
      }
      if (st) st.reader.cancel().catch(() => {});
      const fresh = {pos: off, reader: file.slice(off).stream().getReader({mode: 'byob'})};
      streams.set(key, fresh);
      for (const old of streams.keys()) {
        if (streams.size <= maxStreams) break;
        dropStream(old);
      }
      return fresh;
    };
    const readStream = async (file, off, end, key) => {
      const st = streamAt(file, off, key);
      let buf = bufferFor(end - off), n = 0;
      while (n < end - off) {
        const {done, value} = await st.reader.read(new Uint8Array(buf, n, end - off - n));
        if (value) buf = value.buffer;
        if (done) break;
        n += value.byteLength;
      }
      st.pos += n;
      if (st.pos >= file.size && streams.get(key) === st) dropStream(key); // at its end
      return {b: buf, n};
    };
    // A gzip File read decompressed by the browser's DecompressionStream
    // (native, on this thread) in pieces of up to want bytes, in order. The
    // compressed bytes the stream consumed (c) go with each piece: the
    // engine's expansion-ratio limit compares against them. An error after
    // some bytes of a piece comes with the next request, after those bytes.
    let inf = null;
    const inflateStart = (file) => {
      if (inf) inf.reader.cancel().catch(() => {});
      const st = {comp: 0, left: null, err: null, reader: null};
      const count = new TransformStream({transform(ch, ctl) { st.comp += ch.byteLength; ctl.enqueue(ch); }});
      st.reader = file.stream().pipeThrough(count).pipeThrough(new DecompressionStream('gzip')).getReader();
      inf = st;
      return st;
    };
    const inflateServe = async ({id, file, inflate, want}) => {
      // One stream at a time: the engine reads its sources one after the
      // other. (A File posted here is a new object each time: it cannot
      // tell the streams apart.)
      if (inflate === 'stop') {
        if (inf) inf.reader.cancel().catch(() => {});
        inf = null;
        return;
      }
      try {
        if (inflate !== 'start' && !inf) throw new Error('inflate: the stream was lost');
        const st = inflate === 'start' ? inflateStart(file) : inf;
        if (st.err) throw st.err;
        const buf = bufferFor(want), u = new Uint8Array(buf, 0, want);
        let n = 0;
        while (n < want) {
          let v = st.left;
          st.left = null;
          if (!v) {
            let r;
            try {
              r = await st.reader.read();
            } catch (err) {
              if (n === 0) throw err;
              st.err = err;
              break;
            }
            if (r.done) break;
            v = r.value;
          }
          const k = Math.min(v.byteLength, want - n);
          u.set(k === v.byteLength ? v : v.subarray(0, k), n);
          if (k < v.byteLength) st.left = v.subarray(k);
          n += k;
        }
        answer({id, b: buf, n, c: st.comp}, [buf]);
      } catch (err) {
        inf = null;
        answer({id, err: String((err && err.message) || err)});
      }
    };
    const serve = async ({id, file, off, end, key}) => {
      try {
        let r = null;
        if (byob) {
          try {
            r = await readStream(file, off, end, key);
          } catch (err) {
            // Slices are read by offset, so this one is read again below,
            // whatever the stream had consumed; a TypeError means there are
            // no byte streams here, and slices from now on.
            dropStream(key);
            if (err instanceof TypeError) byob = false;
          }
        }
        if (!r) {
          const b = await file.slice(off, end).arrayBuffer();
          r = {b, n: b.byteLength};
        }
        answer({id, b: r.b, n: r.n}, [r.b]);
      } catch (err) {
        dropStream(key);
        answer({id, err: String((err && err.message) || err)});
      }
    };
    // The pooled buffers are let go after 10 s without a request, so an
    // idle page does not keep them; so are the streams.
    let idle = 0;
    const handle = (e) => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        pool.length = 0;
        for (const key of [...streams.keys()]) dropStream(key);
      }, 10000);
      if (e.data.slices) { // ?read=slices: the reads of browsers without byte streams
        byob = false;
        return;
      }
      if (e.data.streams) {
        maxStreams = e.data.streams;
        return;
      }
      if (e.data.back) {
        if (pool.reduce((n, b) => n + b.byteLength, 0) + e.data.back.byteLength <= poolBytes) pool.push(e.data.back);
        return;
      }
      if (e.data.inflate) {
        queue = queue.then(() => inflateServe(e.data));
        return;
      }
      // One chain per reader: its pieces in order, other readers' beside.
      const key = e.data.key;
      if (key === undefined) {
        queue = queue.then(() => serve(e.data));
        return;
      }
      const next = (readerQueues.get(key) || Promise.resolve()).then(() => serve(e.data));
      readerQueues.set(key, next);
      next.then(() => { if (readerQueues.get(key) === next) readerQueues.delete(key); });
    };
    onmessage = (e) => {
      if (e.data && e.data.port) {
        port = e.data.port;
        // ?readstall: ready, then silent (the watchdog's test)
        if (!e.data.stall) port.onmessage = handle;
        port.postMessage({ready: true});
        return;
      }
      handle(e);
    };
  }

  // startReader gives the engine imasReadSlice(file, off, end), a promise
  // of a Uint8Array of that slice read by readerMain, and
  // imasReturnSlice(view), which gives the view's buffer back for the next
  // reads. port is the engine's end of a MessageChannel to the reader
  // worker, which the page starts: in Firefox a worker's own new Worker is
  // a synchronous round trip to the page's thread that sometimes never
  // returns (startParsers). Until the reader says it is ready, and where
  // there is no reader (or it fails to start), slices are read here, as
  // before. slices asks the reader for slices only; streams, when above
  // zero, bounds its open byte streams (?readstreams=N). The watchdog: a
  // reader that holds reads and answers none of them for timeout ms
  // (20 s unless given; ?readtimeout=MS) is given up, as a failed one is:
  // its reads and every later one are made here, an inflate falls back to
  // Go's inflater, and imasReadStalled tells the engine's progress. So an
  // analysis never waits forever for the reader.
  function startReader(slices, inflate, port, streams, timeout) {
    const waits = new Map();
    let seq = 0, rd = null, since = 0, watch = 0;
    const bound = timeout > 0 ? timeout : 20000;
    const direct = (w) => w.file.slice(w.off, w.end).arrayBuffer().then((b) => w.resolve(new Uint8Array(b)), w.reject);
    const fail = () => {
      rd = null;
      clearInterval(watch);
      // An inflate fails: the engine goes on with its own inflater.
      for (const w of waits.values()) w.inflate ? w.reject(new Error('the reader worker failed')) : direct(w);
      waits.clear();
    };
    const check = () => {
      if (!rd || !waits.size) {
        clearInterval(watch);
        watch = 0;
      } else if (performance.now() - since > bound) {
        globalThis.imasReadStalled = true;
        port.onmessage = null;
        port.close();
        fail();
      }
    };
    const ask = (m) => {
      if (!waits.size) since = performance.now();
      if (!watch) watch = setInterval(check, Math.max(50, bound / 4));
      rd.postMessage(m);
    };
    const receive = (e) => {
      if (e.data.ready) {
        rd = port;
        if (slices) rd.postMessage({slices: true});
        if (streams > 0) rd.postMessage({streams});
        return;
      }
      const w = waits.get(e.data.id);
      if (!w) return;
      waits.delete(e.data.id);
      since = performance.now();
      if (e.data.err !== undefined) w.reject(new Error(e.data.err));
      else if (w.inflate) w.resolve({b: new Uint8Array(e.data.b, 0, e.data.n), c: e.data.c});
      else w.resolve(new Uint8Array(e.data.b, 0, e.data.n));
    };
    if (port) {
      port.onmessage = receive;
      port.onmessageerror = fail;
    }
    globalThis.imasReadSlice = (file, off, end, key) => new Promise((resolve, reject) => {
      const w = {file, off, end, resolve, reject};
      if (!rd) return direct(w);
      const id = ++seq;
      waits.set(id, w);
      ask({id, file, off, end, key});
    });
    // imasInflate(file, 'start' | 'next', want): a promise of the next
    // piece {b: Uint8Array, c: compressed bytes consumed} of a gzip File
    // decompressed by the browser (an empty piece at the end);
    // imasInflate(file, 'stop') drops the stream. Only where the browser
    // has DecompressionStream, and not with ?inflate=go.
    if (inflate && typeof DecompressionStream === 'function' && typeof TransformStream === 'function') {
      globalThis.imasInflate = (file, mode, want) => {
        if (mode === 'stop') {
          if (rd) rd.postMessage({file, inflate: 'stop'});
          return undefined;
        }
        return new Promise((resolve, reject) => {
          if (!rd) return reject(new Error('no reader worker'));
          const id = ++seq;
          waits.set(id, {resolve, reject, inflate: true});
          ask({id, file, inflate: mode, want});
        });
      };
    }
    globalThis.imasReturnSlice = (view) => {
      if (rd && view.buffer.byteLength > 0) rd.postMessage({back: view.buffer}, [view.buffer]);
    };
  }

  // startParsers runs in the engine's worker and connects it to its parse
  // workers: init.parserPorts, MessagePorts each at the end of a channel
  // to a worker that the page started (parseWorkers) and that parses
  // chunks for the engine (wasm/engine ServeParse). The page starts
  // them because in Firefox a worker's own `new Worker` is a synchronous
  // round trip to the page's thread that sometimes never returns: the
  // engine's thread then hung before Go ever ran (seen starting the third
  // worker of the engine's worker, in one page load in ten to twenty).
  // It gives the engine imasParsers (their number), imasParseBuffer(n) (a
  // Uint8Array of n bytes to write a request into, from buffers the workers
  // handed back), imasParse(request) (a promise of {b: the parsed chunk, w:
  // the worker's number}) and imasParseCancel() (every worker stopped at
  // once and replaced). Each worker holds at most two requests, so that it
  // has the next chunk at hand while the engine's thread is busy; the rest
  // wait here. A request whose worker fails is rejected: the engine then
  // parses that chunk itself. The watchdog: a worker that holds requests
  // and answers none of them for init.parseTimeout ms (or, with no worker
  // ready, a request that waited that long) is given up — its requests
  // rejected, it replaced, imasParseStalls counted (the engine's progress
  // shows it) — so an analysis never waits forever for a worker.
  function startParsers(init) {
    const ports = init.parserPorts || [];
    const n = ports.length;
    if (n <= 0) return;
    const bound = init.parseTimeout > 0 ? init.parseTimeout : 20000;
    const buffers = [], queue = [], waits = new Map();
    let seq = 0, watch = 0;
    const workers = [];
    globalThis.imasParseStalls = 0;
    const pump = () => {
      while (queue.length) {
        let best = null;
        for (const p of workers) if (p.ready && p.out < 2 && (!best || p.out < best.out)) best = p;
        if (!best) break;
        const q = queue.shift(), id = ++seq;
        q.p = best;
        if (best.out++ === 0) best.since = performance.now();
        waits.set(id, q);
        best.port.postMessage({id, b: q.req}, [q.req.buffer]);
      }
      if (queue.length && workers.every((p) => p.dead)) {
        for (const q of queue.splice(0)) q.reject(new Error('no parse worker'));
      }
      if ((queue.length || waits.size) && !watch) watch = setInterval(check, Math.max(50, bound / 4));
    };
    // stop gives up worker p: its requests are rejected and, if replace,
    // the page is asked for a new one (attach). A worker that failed is
    // not replaced (its successor would fail the same way), nor one given
    // up by the watchdog for the third time.
    const stalls = new Array(n).fill(0);
    const stop = (p, why, replace) => {
      if (p.dead) return;
      p.dead = true;
      p.ready = false;
      p.port.onmessage = null;
      p.port.close();
      for (const [id, q] of waits) {
        if (q.p === p) {
          waits.delete(id);
          q.reject(new Error(why));
        }
      }
      if (replace) postMessage({kind: 'parsers', id: -1, replace: p.i});
    };
    const check = () => {
      const now = performance.now();
      for (const p of workers) {
        if (!p.dead && p.out > 0 && now - p.since > bound) {
          globalThis.imasParseStalls++;
          stop(p, 'parse worker ' + p.i + ' did not answer in ' + bound + ' ms', ++stalls[p.i] < 3);
        }
      }
      if (queue.length && now - queue[0].at > bound && !workers.some((p) => p.ready)) {
        globalThis.imasParseStalls++;
        for (const q of queue.splice(0)) q.reject(new Error('no parse worker ready in ' + bound + ' ms'));
      }
      if (!queue.length && !waits.size) {
        clearInterval(watch);
        watch = 0;
      }
      pump();
    };
    const attach = (i, port) => {
      const p = {port, i, ready: false, dead: false, out: 0, since: 0};
      workers[i] = p;
      port.onmessage = (e) => {
        const m = e.data;
        if (m.kind === 'ready') {
          p.ready = true;
          pump();
          return;
        }
        if (m.kind === 'failed') {
          stop(p, 'a parse worker failed: ' + m.err, false);
          pump();
          return;
        }
        const q = waits.get(m.id);
        if (m.back && buffers.length < 2 * n) buffers.push(m.back);
        if (!q) return;
        waits.delete(m.id);
        p.out--;
        p.since = performance.now();
        if (m.err !== undefined) q.reject(new Error(m.err));
        else q.resolve({b: new Uint8Array(m.b), w: p.i});
        pump();
      };
    };
    ports.forEach((port, i) => attach(i, port));
    // The page's answers: a new worker's port, or word that one failed.
    // This listener comes before Go's onmessage (set when Go starts), and
    // keeps these messages from it.
    addEventListener('message', (e) => {
      const m = e.data;
      if (!m || m.parser === undefined) return;
      e.stopImmediatePropagation();
      if (m.port) attach(m.parser, m.port);
      else if (workers[m.parser]) stop(workers[m.parser], 'a parse worker failed: ' + m.err, false);
      pump();
    });
    globalThis.imasParsers = n;
    globalThis.imasParseBuffer = (len) => {
      const i = buffers.findIndex((b) => b.byteLength >= len);
      return new Uint8Array(i >= 0 ? buffers.splice(i, 1)[0] : new ArrayBuffer(len), 0, len);
    };
    globalThis.imasParse = (req) => new Promise((resolve, reject) => {
      queue.push({req, resolve, reject, at: performance.now()});
      pump();
    });
    globalThis.imasParseCancel = () => {
      for (const q of queue.splice(0)) q.reject(new Error('cancelled'));
      for (const p of workers) stop(p, 'cancelled', true);
    };
  }

  // parseWorkers starts n parse workers from the page's thread (see
  // startParsers), each on a MessageChannel whose other ends it returns,
  // to be handed to the engine's worker. onReplace(engine, msg) serves the
  // engine's {kind: 'parsers', replace: i}: worker i is terminated and a
  // new one's port posted to the engine. ?parsestall=I starts worker I as
  // one that takes requests and never answers (the watchdog's test).
  // imasPage.parseWorkers counts the workers started and terminated.
  function parseWorkers(src, module, vector, n, warmup, stall) {
    const url = URL.createObjectURL(new Blob([src], {type: 'text/javascript'}));
    const ws = [], count = page.parseWorkers = {started: 0, terminated: 0};
    let engine = null;
    const start = (i) => {
      const ch = new MessageChannel();
      count.started++;
      try {
        ws[i] = new Worker(url);
      } catch (err) {
        ch.port1.postMessage({kind: 'failed', err: String((err && err.message) || err)});
        return ch.port2;
      }
      ws[i].onerror = (e) => {
        e.preventDefault();
        if (engine) engine.postMessage({parser: i, err: e.message || 'unknown error'});
      };
      ws[i].postMessage({module, vector, parse: true, warmup, stall: i === stall, port: ch.port1}, [ch.port1]);
      return ch.port2;
    };
    const ports = Array.from({length: n}, (_, i) => start(i));
    const onReplace = (w, m) => {
      engine = w;
      const i = m.replace;
      if (!(i >= 0 && i < n)) return;
      if (ws[i]) {
        ws[i].terminate();
        count.terminated++;
      }
      const port = start(i);
      w.postMessage({parser: i, port}, [port]);
    };
    return {ports, attach: (w) => { engine = w; }, onReplace};
  }

  // The worker runs the same program: without a document, it serves the
  // engine on its global scope, or, in the engine's parse workers
  // (startParsers), parses chunks for it.
  function workerMain() {
    onmessage = async (e) => {
      onmessage = null;
      const init = e.data;
      if (init.parse) {
        if (init.stall) {
          // ?parsestall: ready, then silent
          init.port.postMessage({kind: 'ready'});
          return;
        }
        globalThis.imasParseWorker = true;
        globalThis.imasParsePort = init.port;
        globalThis.imasParseWarmUp = init.warmup;
      } else {
        globalThis.imasNoEarly = init.noEarly;
        startReader(init.slices, init.inflate, init.readerPort, init.readStreams, init.readTimeout);
        startParsers(init);
      }
      const go = new Go();
      const inst = await WebAssembly.instantiate(init.module, go.importObject);
      await linkVector(init.vector, inst);
      go.run(inst);
    };
  }

  // parserCount is how many parse workers the engine gets: ?parsers=N (at
  // most 16), else hardwareConcurrency less two (the page's thread and the
  // engine's), at most 4: with two cores a parse worker measured no faster
  // than the engine alone, and past four the engine's own share of the
  // work (reading, merging, the model) is what bounds the rate
  // (docs/page.md).
  function parserCount() {
    const q = new URLSearchParams(location.search).get('parsers');
    if (q !== null && /^[0-9]+$/.test(q)) return Math.min(+q, 16);
    return Math.max(0, Math.min((navigator.hardwareConcurrency | 0) - 2, 4));
  }

  // queryInt is ?name=N as a number, or undefined.
  function queryInt(name) {
    const q = new URLSearchParams(location.search).get(name);
    return q !== null && /^[0-9]+$/.test(q) ? +q : undefined;
  }

  // startReaderWorker starts the worker that reads Files for the engine
  // (readerMain) and returns the engine's end of a MessageChannel to it,
  // or undefined where no worker starts (the engine then reads Files
  // itself).
  function startReaderWorker(stall) {
    if (typeof Worker !== 'function' || typeof MessageChannel !== 'function') return undefined;
    try {
      const url = URL.createObjectURL(new Blob(['(' + readerMain + ')();'], {type: 'text/javascript'}));
      const rd = new Worker(url);
      const ch = new MessageChannel();
      rd.postMessage({port: ch.port2, stall}, [ch.port2]);
      return ch.port1;
    } catch {
      return undefined;
    }
  }

  function startWorker(module, vector) {
    const src = document.getElementById('imas-wasm-exec').textContent + '\n' + linkVector +
      '\n' + readerMain + '\n' + startReader + '\n' + startParsers + '\n;(' + workerMain + ')();\n';
    const url = URL.createObjectURL(new Blob([src], {type: 'text/javascript'}));
    const w = new Worker(url);
    w.addEventListener('message', () => URL.revokeObjectURL(url), {once: true});
    w.addEventListener('error', (e) => fatal(e.message || 'the engine worker failed'));
    // ?read=slices reads Files by slices, as browsers without byte streams
    // do (a test of that path, and a way around a browser's stream bug).
    // ?inflate=go inflates .gz in Go (wasm) instead of the browser.
    const q = new URLSearchParams(location.search);
    // ?warmup=0 (no warm-up at all) holds for the parse workers too.
    const warmup = q.get('warmup') === '0' ? 0 : undefined;
    const n = parserCount();
    const parsers = n > 0 ? parseWorkers(src, module, vector, n, warmup, queryInt('parsestall')) : null;
    if (parsers) {
      parsers.attach(w);
      w.addEventListener('message', (e) => {
        if (e.data && e.data.kind === 'parsers') parsers.onReplace(w, e.data);
      });
    }
    // ?parsetimeout=MS and ?readtimeout=MS bound a parse worker's and the
    // reader's silence (the watchdogs); ?readstall starts a reader that
    // never answers.
    const ports = parsers ? parsers.ports : [];
    const readerPort = startReaderWorker(q.has('readstall'));
    w.postMessage({module, vector, slices: q.get('read') === 'slices', inflate: q.get('inflate') !== 'go',
      parserPorts: ports, parseTimeout: queryInt('parsetimeout'), readTimeout: queryInt('readtimeout'), readerPort,
      readStreams: queryInt('readstreams'), noEarly: q.get('early') === '0'},
    readerPort ? [...ports, readerPort] : ports);
    return w;
  }

  // perfettoSetup points Open in Perfetto at the UI to use: ?perfetto=URL,
  // else the address saved in the settings panel, else ui.perfetto.dev;
  // and gives up waiting for it after 8 s (then the trace is downloaded).
  function perfettoSetup() {
    const open = window.imasOpenPerfetto, field = document.getElementById('perfetto-url');
    if (!open) return;
    const KEY = 'imas.perfetto';
    const stored = () => {
      try { return localStorage.getItem(KEY) || ''; } catch { return ''; }
    };
    const apply = (url) => {
      open.defaults.url = url || 'https://ui.perfetto.dev/#!/';
      document.documentElement.dataset.perfetto = open.defaults.url;
    };
    open.defaults.timeoutMs = 8000;
    const fromQuery = new URLSearchParams(location.search).get('perfetto');
    apply(fromQuery || stored());
    if (!field) return;
    field.value = fromQuery || stored();
    field.addEventListener('change', () => {
      const url = field.value.trim();
      if (url && !/^https?:\/\//.test(url)) {
        field.setCustomValidity('an http(s) address');
        field.reportValidity();
        return;
      }
      field.setCustomValidity('');
      try { url ? localStorage.setItem(KEY, url) : localStorage.removeItem(KEY); } catch { /* private mode: this visit only */ }
      apply(url);
    });
  }

  async function boot() {
    perfettoSetup();
    const t0 = performance.now();
    const module = await WebAssembly.compile(await wasmBytes());
    const vector = await vectorModule();
    // ?engine=page runs the engine in the page's own thread (a
    // MessageChannel instead of a worker): kept to measure the difference.
    if (new URLSearchParams(location.search).get('engine') === 'page') {
      const ch = new MessageChannel();
      window.imasEnginePort = ch.port2;
      window.imasEngine = ch.port1;
    } else {
      window.imasEngine = startWorker(module, vector);
      // The last progress of an analysis (its final counts), for tests.
      window.imasEngine.addEventListener('message', (e) => {
        if (e.data && e.data.kind === 'progress') page.progress = e.data.json;
      });
    }
    const go = new Go();
    const inst = await WebAssembly.instantiate(module, go.importObject);
    await linkVector(vector, inst);
    page.bootMs = performance.now() - t0;
    go.run(inst);
  }

  boot().catch(fatal);
})();
