// memmap.js draws a graph's memory map on a canvas: x = lifetime step,
// y = offset, one rectangle per tensor placement. The rectangles arrive
// once per graph as one ArrayBuffer (layout in wasm/engine/mapdata.go), so
// drawing, culling, hit-testing and zooming never cross into Go.
//
// Level of detail: small rectangles (nearly all of them when 10^6 tensors
// share the canvas) are written straight into an ImageData; only visible
// larger ones are filled as paths. Off-screen ones are culled.
(function () {
  'use strict';

  const M = {left: 64, right: 8, top: 8, bottom: 22};
  const SMALL = 64; // pixels: smaller rectangles skip the canvas path API
  const map = {onpick: null, onstep: null};
  let canvas = null, card = null, box = null;
  let data = null; // {meta, pos: Float64Array, ints: Int32Array, offs: Uint32Array, text: Uint8Array, rectOf: Int32Array}
  let view = null; // [x0, x1, y0, y1] in data units
  let marked = -1, hover = -1, frame = 0, colors = null;
  let layer = null, layerPx = null; // the pixel layer, reused across frames
  let live = null, liveBox = null, step = -1; // the timeline's canvas, its box, the chosen step
  const decoder = new TextDecoder();

  function show(metaJSON, buf) {
    const meta = JSON.parse(metaJSON);
    const n = meta.n;
    const d = {
      meta,
      pos: new Float64Array(buf, 0, 4 * n),
      ints: new Int32Array(buf, 32 * n, 4 * n),
      offs: new Uint32Array(buf, 48 * n, n + 1),
      text: new Uint8Array(buf, 52 * n + 4),
      rectOf: new Int32Array(n),
    };
    for (let k = 0; k < n; k++) d.rectOf[d.ints[4 * k]] = k;
    data = d;
    marked = hover = -1;
    step = meta.live && meta.subject === 'graph' ? meta.peak_step : -1;
    reset();
    attach();
    redraw();
  }

  function reset() {
    if (!data) return;
    const m = data.meta;
    view = [0, Math.max(1, m.max_step), 0, Math.max(1, m.max_offset) * 1.02];
  }

  // attach puts the canvas in #imas-mapbox (vugu leaves that element's
  // children alone). It runs after every render, so it reads no layout: a
  // ResizeObserver sizes the canvas.
  const sizer = new ResizeObserver((entries) => {
    const r = entries[entries.length - 1].contentRect, dpr = window.devicePixelRatio || 1;
    const w = Math.max(200, Math.floor(r.width)), h = Math.max(200, Math.floor(r.height));
    if (canvas.width !== Math.floor(w * dpr) || canvas.height !== Math.floor(h * dpr)) {
      canvas.width = Math.floor(w * dpr);
      canvas.height = Math.floor(h * dpr);
      canvas.style.width = w + 'px';
      canvas.style.height = h + 'px';
      redraw();
    }
  });

  // The timeline's height is its box's, read here, after layout: read in
  // drawLive (clientHeight), it forced a layout of the whole page inside
  // the frame, seconds while the new results are being laid out.
  let liveHeight = 0;
  const liveSizer = new ResizeObserver(() => {
    const h = liveBox ? liveBox.clientHeight : 0;
    if (h !== liveHeight) {
      liveHeight = h;
      redraw();
    }
  });

  function attach() {
    const b = document.getElementById('imas-mapbox');
    if (!b) return;
    if (!canvas) {
      canvas = document.createElement('canvas');
      canvas.id = 'imas-map';
      card = document.createElement('div');
      card.className = 'hovercard';
      card.hidden = true;
      listen(canvas);
    }
    if (canvas.parentNode !== b) {
      b.replaceChildren(canvas, card);
      if (box) sizer.unobserve(box);
      sizer.observe(b);
      box = b;
      colors = null;
    }
    const lb = document.getElementById('imas-livebox');
    if (lb && !live) {
      live = document.createElement('canvas');
      live.id = 'imas-live';
      live.tabIndex = 0;
      live.setAttribute('role', 'img');
      listenLive(live);
    }
    if (lb && live.parentNode !== lb) {
      lb.replaceChildren(live);
      if (liveBox) liveSizer.unobserve(liveBox);
      liveSizer.observe(lb);
      liveBox = lb;
      redraw();
    }
  }

  function palette() {
    const cs = getComputedStyle(box || document.body);
    const get = (name) => cs.getPropertyValue(name).trim() || '#888888';
    const c = {fill: [], packed: []};
    const n = data ? data.meta.legend.length : 0;
    for (let k = 0; k < Math.max(n, 1); k++) c.fill.push(get('--c' + k));
    c.conflict = get('--conflict');
    c.peak = get('--peak');
    c.limit = get('--limit');
    c.sel = get('--sel');
    c.theory = get('--theory');
    c.axis = get('--axis');
    const pack = (hex) => {
      const v = parseInt(hex.replace('#', ''), 16) || 0;
      return (0xff << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff); // ABGR
    };
    c.packed = c.fill.map(pack);
    c.packedConflict = pack(c.conflict);
    return c;
  }

  function redraw() {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      draw();
    });
  }

  // geometry of the plot area in canvas pixels, and data → pixel scales.
  function geom() {
    const dpr = window.devicePixelRatio || 1;
    const L = M.left * dpr, T = M.top * dpr;
    const W = canvas.width - (M.left + M.right) * dpr, H = canvas.height - (M.top + M.bottom) * dpr;
    const sx = W / (view[1] - view[0]), sy = H / (view[3] - view[2]);
    return {dpr, L, T, W, H, sx, sy};
  }

  function draw() {
    if (!canvas || !data) return;
    const t0 = performance.now();
    if (!colors) colors = palette();
    const ctx = canvas.getContext('2d');
    const g = geom();
    const {L, T, W, H, sx, sy} = g;
    const n = data.meta.n, pos = data.pos, ints = data.ints;
    ctx.clearRect(0, 0, canvas.width, canvas.height);

    // Level of detail: rectangles covering at most SMALL pixels (at full
    // view, nearly all of them) are written into a pixel layer, one word
    // per pixel; only the few larger ones become canvas paths.
    const iw = Math.max(1, Math.floor(W)), ih = Math.max(1, Math.floor(H));
    if (!layer || layer.width !== iw || layer.height !== ih) {
      layer = ctx.createImageData(iw, ih);
      layerPx = new Uint32Array(layer.data.buffer);
    }
    const px = layerPx;
    px.fill(0);
    let drawn = 0;
    const big = [];
    for (let k = 0; k < n; k++) {
      const x0 = (pos[4 * k] - view[0]) * sx, x1 = (pos[4 * k + 1] - view[0]) * sx;
      const yb = H - (pos[4 * k + 2] - view[2]) * sy, yt = H - (pos[4 * k + 3] - view[2]) * sy;
      if (x1 < 0 || x0 > W || yb < 0 || yt > H) continue; // culled
      drawn++;
      const ix0 = Math.max(0, Math.floor(x0)), ix1 = Math.min(iw, Math.max(ix0 + 1, Math.ceil(x1)));
      const iy0 = Math.max(0, Math.floor(yt)), iy1 = Math.min(ih, Math.max(iy0 + 1, Math.ceil(yb)));
      if ((ix1 - ix0) * (iy1 - iy0) > SMALL || ints[4 * k + 2] & 1) {
        big.push(k);
        continue;
      }
      const c = colors.packed[ints[4 * k + 1]] || colors.packed[0];
      if (ix1 - ix0 === 1 && iy1 - iy0 === 1) px[iy0 * iw + ix0] = c;
      else for (let y = iy0; y < iy1; y++) px.fill(c, y * iw + ix0, y * iw + ix1);
    }
    ctx.putImageData(layer, L, T);
    ctx.save();
    ctx.beginPath();
    ctx.rect(L, T, W, H);
    ctx.clip();
    let style = -1;
    for (const k of big) {
      const conflict = ints[4 * k + 2] & 1;
      const c = conflict ? -2 : ints[4 * k + 1];
      if (c !== style) {
        ctx.fillStyle = conflict ? colors.conflict : colors.fill[c] || colors.fill[0];
        style = c;
      }
      const r = rectPx(k, g, conflict ? 2 : 1);
      ctx.fillRect(r[0], r[1], r[2], r[3]);
      if (r[2] > 6 && r[3] > 6) {
        ctx.strokeStyle = 'rgba(0,0,0,0.35)';
        ctx.lineWidth = 1;
        ctx.strokeRect(r[0] + 0.5, r[1] + 0.5, r[2] - 1, r[3] - 1);
      }
    }
    lines(ctx, g);
    if (marked >= 0) outline(ctx, g, data.rectOf[marked], colors.sel, 3);
    if (hover >= 0 && hover !== marked) outline(ctx, g, hover, colors.axis, 1);
    ctx.restore();
    axes(ctx, g, view[2], view[3]);
    drawLive();
    canvas.dataset.n = n;
    canvas.dataset.shows = data.meta.subject + ':' + data.meta.id; // which map: tests wait for it
    canvas.dataset.drawn = drawn;
    canvas.dataset.ms = (performance.now() - t0).toFixed(1);
  }

  // rectPx is rectangle k in canvas pixels, at least min pixels wide/high.
  function rectPx(k, g, min) {
    const pos = data.pos;
    let x = g.L + (pos[4 * k] - view[0]) * g.sx, w = (pos[4 * k + 1] - pos[4 * k]) * g.sx;
    let y = g.T + g.H - (pos[4 * k + 3] - view[2]) * g.sy, h = (pos[4 * k + 3] - pos[4 * k + 2]) * g.sy;
    if (w < min) { x -= (min - w) / 2; w = min; }
    if (h < min) { y -= (min - h) / 2; h = min; }
    // Keep huge zoomed rectangles within canvas coordinates.
    const x0 = Math.max(x, g.L - 10), y0 = Math.max(y, g.T - 10);
    return [x0, y0, Math.min(x + w, g.L + g.W + 10) - x0, Math.min(y + h, g.T + g.H + 10) - y0];
  }

  function outline(ctx, g, k, color, width) {
    const r = rectPx(k, g, 6);
    ctx.strokeStyle = color;
    ctx.lineWidth = width * g.dpr;
    ctx.strokeRect(r[0], r[1], r[2], r[3]);
  }

  // lines marks the peak step and memory_size.
  function lines(ctx, g) {
    const m = data.meta;
    ctx.setLineDash([6 * g.dpr, 4 * g.dpr]);
    ctx.lineWidth = 1.5 * g.dpr;
    if (m.peak_step >= 0) {
      const x = g.L + (m.peak_step + 0.5 - view[0]) * g.sx;
      ctx.strokeStyle = colors.peak;
      ctx.beginPath();
      ctx.moveTo(x, g.T);
      ctx.lineTo(x, g.T + g.H);
      ctx.stroke();
    }
    if (m.memory_size > 0) {
      const y = g.T + g.H - (m.memory_size - view[2]) * g.sy;
      ctx.strokeStyle = colors.limit;
      ctx.beginPath();
      ctx.moveTo(g.L, y);
      ctx.lineTo(g.L + g.W, y);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  // human formats bytes with binary units, labelled as such ("1.00 MiB").
  function human(n) {
    const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    while (Math.abs(n) >= 1024 && i < u.length - 1) { n /= 1024; i++; }
    return (i ? (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1)) : Math.round(n)) + ' ' + u[i];
  }

  // ticks are round values in [lo, hi], about n of them: steps of 1, 2 or
  // 5 × 10^k for step counts and times in µs (round in µs, ms and s; whole
  // minutes past half a minute), powers of two for bytes.
  function ticks(lo, hi, n, bytes, time) {
    const raw = Math.max((hi - lo) / n, 1);
    let step;
    if (bytes) step = Math.pow(2, Math.ceil(Math.log2(raw)));
    else if (time && raw > 30e6) step = [1, 2, 5, 10, 15, 30, 60, 120, 240, 480, 960].map((m) => m * 60e6).find((s) => s >= raw) || raw;
    else {
      const p = Math.pow(10, Math.floor(Math.log10(raw)));
      step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
    }
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi && out.length < 50; v += step) out.push(v);
    return out;
  }

  // elapsed formats µs as the time axis labels them: 750 µs, 12.5 ms,
  // 3.25 s, 4 min 10 s (as ui.Elapsed, without its fixed decimals).
  function elapsed(us) {
    const r = (v) => String(Number(v.toFixed(3)));
    if (us < 1000) return r(us) + ' µs';
    if (us < 1e6) return r(us / 1e3) + ' ms';
    if (us < 60e6) return r(us / 1e6) + ' s';
    const s = Math.round(us / 1e6);
    return Math.floor(s / 60) + ' min' + (s % 60 ? ' ' + (s % 60) + ' s' : '');
  }

  // clock formats a log time (µs since 2000-01-01, the log's local time)
  // as the plogs print it: 10:00:01.234567.
  function clock(us) {
    const d = new Date(Date.UTC(2000, 0, 1) + Math.floor(us / 1000));
    const p = (v, n) => String(v).padStart(n, '0');
    return p(d.getUTCHours(), 2) + ':' + p(d.getUTCMinutes(), 2) + ':' + p(d.getUTCSeconds(), 2) + '.' + p(((us % 1e6) + 1e6) % 1e6, 6);
  }

  // xLabel is the label of x on the map's clock.
  function xLabel(x) {
    return data.meta.clock === 'time' ? elapsed(x) : String(x);
  }

  // axes draws the frame and round ticks; labels stay inside the canvas.
  function axes(ctx, g, y0, y1) {
    ctx.fillStyle = colors.axis;
    ctx.strokeStyle = colors.axis;
    ctx.lineWidth = g.dpr;
    ctx.font = 11 * g.dpr + 'px sans-serif';
    ctx.strokeRect(g.L, g.T, g.W, g.H);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    const half = 6 * g.dpr;
    for (const v of ticks(y0, y1, g.H > 150 * g.dpr ? 4 : 2, true)) {
      const y = g.T + g.H - (v - y0) * g.H / (y1 - y0);
      ctx.fillRect(g.L - 3 * g.dpr, y, 3 * g.dpr, g.dpr);
      ctx.fillText(human(v), g.L - 5 * g.dpr, Math.min(Math.max(y, half), ctx.canvas.height - half));
    }
    ctx.textBaseline = 'top';
    const labels = [];
    for (const v of ticks(Math.max(0, view[0]), view[1], 6, false, data.meta.clock === 'time')) {
      const x = g.L + (v - view[0]) * g.sx, label = xLabel(v);
      labels.push(label);
      const w = ctx.measureText(label).width / 2;
      ctx.textAlign = 'center';
      ctx.fillRect(x, g.T + g.H, g.dpr, 3 * g.dpr);
      ctx.fillText(label, Math.min(Math.max(x, w + 2), ctx.canvas.width - w - 2), g.T + g.H + 4 * g.dpr);
    }
    ctx.canvas.dataset.xticks = labels.join('|'); // what the x axis says, for the tests
  }

  // drawLive draws the timeline above the map: live bytes of counted
  // tensors per step (area), of reusable ones plus no_reuse + atomic (line,
  // its top is theory_min), the theory_min and memory_size levels, the peak
  // step and the chosen step; x follows the map's zoom.
  function drawLive() {
    const l = data && data.meta.live;
    if (!live || !liveBox || !canvas) return;
    if (!l) { // a graph without counted tensors has no curve
      live.getContext('2d').clearRect(0, 0, live.width, live.height);
      return;
    }
    const dpr = window.devicePixelRatio || 1, w = canvas.width, h = Math.floor(Math.max(60, liveHeight) * dpr);
    if (live.width !== w || live.height !== h) {
      live.width = w;
      live.height = h;
      live.style.width = canvas.style.width;
      live.style.height = h / dpr + 'px';
    }
    const m = data.meta, ctx = live.getContext('2d');
    const L = M.left * dpr, T = 6 * dpr, W = w - (M.left + M.right) * dpr, H = h - T - 18 * dpr;
    const top = Math.max(1, m.memory_size, m.theory_min, ...l.counted) * 1.05;
    const g = {dpr, L, T, W, H, sx: W / (view[1] - view[0])};
    const X = (s) => L + (s - view[0]) * g.sx, Y = (v) => T + H - v * H / top;
    ctx.clearRect(0, 0, w, h);
    ctx.save();
    ctx.beginPath();
    ctx.rect(L, T, W, H);
    ctx.clip();
    const path = (vals, base) => {
      ctx.beginPath();
      ctx.moveTo(X(l.steps[0]), Y(base));
      for (let k = 0; k < l.steps.length; k++) {
        const next = k + 1 < l.steps.length ? l.steps[k + 1] : view[1];
        ctx.lineTo(X(l.steps[k]), Y(vals[k] + base));
        ctx.lineTo(X(next), Y(vals[k] + base));
      }
    };
    path(l.counted, 0);
    ctx.lineTo(X(view[1]), Y(0));
    ctx.fillStyle = colors.fill[0];
    ctx.globalAlpha = 0.35;
    ctx.fill();
    ctx.globalAlpha = 1;
    if (l.reusable) {
      path(l.reusable, l.base);
      ctx.strokeStyle = colors.fill[0];
      ctx.lineWidth = 1.5 * dpr;
      ctx.stroke();
    }
    const level = (v, color) => {
      if (v <= 0) return;
      ctx.strokeStyle = color;
      ctx.beginPath();
      ctx.moveTo(L, Y(v));
      ctx.lineTo(L + W, Y(v));
      ctx.stroke();
    };
    const mark = (s, color, width) => {
      if (s < 0) return;
      ctx.strokeStyle = color;
      ctx.lineWidth = width * dpr;
      ctx.beginPath();
      ctx.moveTo(X(s + 0.5), T);
      ctx.lineTo(X(s + 0.5), T + H);
      ctx.stroke();
    };
    ctx.setLineDash([6 * dpr, 4 * dpr]);
    ctx.lineWidth = 1.5 * dpr;
    level(m.memory_size, colors.limit);
    level(m.theory_min, colors.theory);
    mark(m.peak_step, colors.peak, 1.5);
    ctx.setLineDash([]);
    if (step >= 0 && step !== m.peak_step) mark(step, colors.sel, 2);
    ctx.restore();
    axes(ctx, g, 0, top);
    const at = liveAt(step), where = m.clock === 'time' ? 'at ' + elapsed(step) : m.clock + ' ' + step;
    live.dataset.step = step;
    // What the chart shows, for the tests: its top, its x range, the peak.
    live.dataset.max = Math.max(0, ...l.counted);
    live.dataset.view = view[0] + ' ' + view[1];
    live.dataset.peak = m.peak_step;
    live.setAttribute('aria-label', (m.clock === 'time' ? 'live bytes over log time; ' : 'live bytes per ' + m.clock + '; ') +
      where + ': ' + (at ? human(at[0]) : '–') + ' live');
    if (at) {
      ctx.fillStyle = colors.axis;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'top';
      ctx.fillText(where + ': ' + human(at[0]) + ' live', L + W - 4 * dpr, T + 2 * dpr);
    }
  }

  // liveAt is [counted, reusable] at step s, or null.
  function liveAt(s) {
    const l = data && data.meta.live;
    if (!l || s < 0) return null;
    let lo = 0, hi = l.steps.length - 1;
    if (s < l.steps[0]) return [0, 0];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (l.steps[mid] <= s) lo = mid; else hi = mid - 1;
    }
    return [l.counted[lo], l.reusable ? l.reusable[lo] : 0];
  }

  // choose makes s the chosen step and tells the page.
  function choose(s) {
    if (!data) return;
    step = Math.max(0, Math.min(Math.round(s), data.meta.max_step - 1));
    redraw();
    if (map.onstep) map.onstep(step);
  }

  function listenLive(c) {
    c.addEventListener('click', (e) => {
      if (!data) return;
      const r = c.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
      const W = c.width - (M.left + M.right) * dpr;
      choose(Math.floor(view[0] + ((e.clientX - r.left) * dpr - M.left * dpr) * (view[1] - view[0]) / W));
    });
    // Keyboard: ← → one step (on a pool's clock: to the curve's previous
    // or next change), with Shift a tenth of the view; Home the peak.
    c.addEventListener('keydown', (e) => {
      if (!data) return;
      const d = e.shiftKey ? Math.max(1, Math.round((view[1] - view[0]) / 10)) : 1;
      const steps = data.meta.live ? data.meta.live.steps : [];
      const next = (dir) => {
        if (e.shiftKey || data.meta.clock === 'step' || !steps.length) return step + dir * d;
        const k = dir > 0 ? steps.findIndex((s) => s > step) : steps.findLastIndex((s) => s < step);
        return k < 0 ? step : steps[k];
      };
      if (e.key === 'ArrowLeft') choose(next(-1));
      else if (e.key === 'ArrowRight') choose(next(1));
      else if (e.key === 'Home') choose(data.meta.peak_step);
      else return;
      e.preventDefault();
    });
  }

  // hit returns the topmost rectangle under canvas pixel (cx, cy), or -1.
  function hit(cx, cy) {
    if (!data) return -1;
    const g = geom();
    const x = view[0] + (cx - g.L) / g.sx, y = view[2] + (g.T + g.H - cy) / g.sy;
    const tx = 2 * g.dpr / g.sx, ty = 2 * g.dpr / g.sy; // a 2-pixel reach for thin ones
    const pos = data.pos;
    for (let k = data.meta.n - 1; k >= 0; k--) {
      if (pos[4 * k] - tx <= x && x < pos[4 * k + 1] + tx && pos[4 * k + 2] - ty <= y && y < pos[4 * k + 3] + ty) return k;
    }
    return -1;
  }

  function label(k) {
    return decoder.decode(data.text.subarray(data.offs[k], data.offs[k + 1])).split('\n');
  }

  function showCard(k, ex, ey) {
    if (k < 0) {
      card.hidden = true;
      delete card.dataset.row;
      return;
    }
    const [key, op] = label(k);
    const pos = data.pos, ints = data.ints, f = ints[4 * k + 2], m = data.meta;
    const end = f & 16 ? '∞' : String(pos[4 * k + 1] - 1);
    const size = pos[4 * k + 3] - pos[4 * k + 2];
    const flags = [f & 1 && 'CONFLICT', f & 2 && 'no-reuse', f & 4 && 'zero-copy', f & 8 && 'ref',
      m.subject === 'pool' && m.clock !== 'time' && f & 16 && 'never freed'].filter(Boolean).join(' ');
    const lines = [key, op, m.subject === 'pool'
      ? 'address 0x' + (m.base + pos[4 * k + 2]).toString(16)
      : 'offset ' + pos[4 * k + 2] + ' (' + human(pos[4 * k + 2]) + ')',
    'size ' + size + ' (' + human(size) + ')'];
    if (m.clock === 'time') {
      // A pool on log time: when the block was allocated and freed.
      const t0 = pos[4 * k], t1 = pos[4 * k + 1];
      lines.push('allocated ' + clock(m.time_origin_us + t0) + ' (at ' + elapsed(t0) + ') · stream ' + ints[4 * k + 3]);
      lines.push(f & 16 ? 'not freed by the pool\'s last event, ' + elapsed(t1 - t0) + ' later'
        : 'freed ' + clock(m.time_origin_us + t1) + ', ' + elapsed(t1 - t0) + ' later');
      card.dataset.time = m.time_origin_us + t0;
    } else {
      lines.push((m.clock === 'allocation' ? 'allocations ' : 'life ') + pos[4 * k] + '→' + end + ' · stream ' + ints[4 * k + 3]);
      delete card.dataset.time;
    }
    if (flags) lines.push(flags);
    card.replaceChildren(...lines.map((t, i) => {
      const e = document.createElement(i === 0 ? 'b' : 'div');
      e.textContent = t; // names are untrusted: text only
      return e;
    }));
    card.dataset.row = ints[4 * k];
    card.hidden = false;
    const r = box.getBoundingClientRect();
    card.style.left = Math.min(ex - r.left + 14, r.width - card.offsetWidth - 4) + 'px';
    card.style.top = Math.min(ey - r.top + 14, r.height - card.offsetHeight - 4) + 'px';
  }

  function listen(c) {
    let drag = null, moved = false, pending = null;
    const at = (e) => {
      const r = c.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
      return [(e.clientX - r.left) * dpr, (e.clientY - r.top) * dpr];
    };
    c.addEventListener('wheel', (e) => {
      if (!data) return;
      e.preventDefault();
      const [cx, cy] = at(e), g = geom();
      const x = view[0] + (cx - g.L) / g.sx, y = view[2] + (g.T + g.H - cy) / g.sy;
      const f = Math.pow(1.0015, e.deltaY);
      if (!e.altKey) view = [x - (x - view[0]) * f, x + (view[1] - x) * f, view[2], view[3]];
      if (!e.shiftKey) view = [view[0], view[1], y - (y - view[2]) * f, y + (view[3] - y) * f];
      redraw();
    }, {passive: false});
    c.addEventListener('mousedown', (e) => {
      drag = {p: at(e), v: view.slice()};
      moved = false;
    });
    window.addEventListener('mouseup', (e) => {
      if (drag && !moved && e.target === c && map.onpick) {
        const k = hit(...at(e));
        if (k >= 0) map.onpick(data.ints[4 * k]);
      }
      drag = null;
    });
    c.addEventListener('mousemove', (e) => {
      if (drag) {
        const [cx, cy] = at(e), g = geom();
        const dx = (cx - drag.p[0]) / g.sx, dy = (cy - drag.p[1]) / g.sy;
        if (Math.abs(cx - drag.p[0]) + Math.abs(cy - drag.p[1]) > 3) moved = true;
        view = [drag.v[0] - dx, drag.v[1] - dx, drag.v[2] + dy, drag.v[3] + dy];
        redraw();
        return;
      }
      // Hit-testing a million rectangles costs a few ms: once per frame.
      const first = pending === null;
      pending = e;
      if (first) requestAnimationFrame(() => {
        const ev = pending;
        pending = null;
        const k = hit(...at(ev));
        showCard(k, ev.clientX, ev.clientY);
        if (k !== hover) {
          hover = k;
          redraw();
        }
      });
    });
    c.addEventListener('mouseleave', () => {
      hover = -1;
      showCard(-1);
      redraw();
    });
    c.addEventListener('dblclick', () => {
      reset();
      redraw();
    });
    // Keyboard: arrows pan, + and - zoom, 0 shows the whole map.
    c.tabIndex = 0;
    c.setAttribute('role', 'img');
    c.setAttribute('aria-label', 'memory map: arrows pan, + and - zoom, 0 shows all; the tensor table lists the same rows');
    c.addEventListener('keydown', (e) => {
      if (!data) return;
      const dx = (view[1] - view[0]) / 10, dy = (view[3] - view[2]) / 10;
      const zoom = (f) => {
        const cx = (view[0] + view[1]) / 2, cy = (view[2] + view[3]) / 2;
        view = [cx - (cx - view[0]) * f, cx + (view[1] - cx) * f, cy - (cy - view[2]) * f, cy + (view[3] - cy) * f];
      };
      switch (e.key) {
        case 'ArrowLeft': view = [view[0] - dx, view[1] - dx, view[2], view[3]]; break;
        case 'ArrowRight': view = [view[0] + dx, view[1] + dx, view[2], view[3]]; break;
        case 'ArrowUp': view = [view[0], view[1], view[2] + dy, view[3] + dy]; break;
        case 'ArrowDown': view = [view[0], view[1], view[2] - dy, view[3] - dy]; break;
        case '+': case '=': zoom(0.8); break;
        case '-': zoom(1.25); break;
        case '0': reset(); break;
        default: return;
      }
      e.preventDefault();
      redraw();
    });
  }

  // top returns the client coordinates of the centre of the rectangle
  // drawn last (nothing covers it) and its row: where to point to see it.
  map.top = () => {
    if (!data || !data.meta.n) return null;
    const k = data.meta.n - 1, g = geom(), r = rectPx(k, g, 1), b = canvas.getBoundingClientRect();
    return {x: b.left + (r[0] + r[2] / 2) / g.dpr, y: b.top + (r[1] + r[3] / 2) / g.dpr, row: data.ints[4 * k]};
  };
  map.show = show;
  map.attach = attach;
  map.mark = (row) => {
    marked = data && row >= 0 && row < data.meta.n ? row : -1;
    redraw();
  };
  window.imasMap = map;
})();
