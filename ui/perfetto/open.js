/*
 * open.js: open a trace in the Perfetto UI (https://ui.perfetto.dev) in one
 * click, without uploading it anywhere. Plain ES2017, no dependencies; load
 * it with a <script> tag (or inline it) and it defines one global:
 *
 *   imasOpenPerfetto(buffer, title, fileName[, options]) -> Promise<result>
 *
 *   buffer    the trace (JSON, or gzipped JSON) as an ArrayBuffer or typed
 *             array, or a Promise of one: pass a Promise when the trace is
 *             still being built, so that the UI tab opens during the click
 *   title     shown by the UI as the trace title
 *   fileName  name of the trace in the UI, and of the download in a fallback
 *   options   overrides imasOpenPerfetto.defaults for this call (see below)
 *
 * Call it from a click handler, or within a few seconds of the click: it
 * opens the UI in a new tab with window.open, which browsers allow only
 * right after a user gesture. It then posts 'PING' to the tab every
 * options.pingMs until the UI answers 'PONG' (it does once loaded), and
 * posts the trace: {perfetto: {buffer, title, fileName, localOnly}}.
 * When that cannot work it downloads the trace instead (Blob + <a download>):
 * the page runs from file:// (the UI ignores the origin "null"), the popup
 * was blocked, or the UI did not answer within options.timeoutMs (offline,
 * air-gapped); a tab that did not answer is closed.
 *
 * The promise resolves to
 *   {status: 'opened', window}   the trace was posted to that window;
 *   {status: 'downloaded', reason: 'file' | 'blocked' | 'offline' | 'timeout'}
 * and rejects only when a Promise given as buffer rejects.
 *
 * imasOpenPerfetto.download(buffer, fileName[, gzip]) is the fallback on
 * its own, for a plain "Download trace" button; it returns a Promise.
 */
(function (global) {
  'use strict';

  var defaults = {
    // The Perfetto UI to open. Tests and self-hosted UIs change it.
    url: 'https://ui.perfetto.dev/#!/',
    // Browsers run the timers of a background tab (this page, once the UI
    // tab has focus) at most once a second, whatever this says.
    pingMs: 100,
    // The UI answers once its page has loaded; on a slow link the first
    // visit downloads a few MB.
    timeoutMs: 30000,
    // true keeps the trace in the browser: the UI then disables its Share
    // (upload) and Download buttons. Logs are private by default.
    localOnly: true,
    // gzip the fallback download (CompressionStream, where available).
    gzip: false,
    // onStatus(state, detail) follows progress: 'opening', 'ping' (detail:
    // count), 'pong', 'sent', 'fallback' (detail: reason), 'downloaded'.
    onStatus: null
  };

  async function imasOpenPerfetto(buffer, title, fileName, options) {
    var o = {};
    Object.keys(defaults).forEach(function (k) {
      o[k] = options && options[k] !== undefined ? options[k] : defaults[k];
    });
    var status = function (state, detail) {
      if (typeof o.onStatus === 'function') {
        try { o.onStatus(state, detail); } catch (e) { /* a hook must not break the hand-over */ }
      }
    };
    var fallback = async function (reason) {
      status('fallback', reason);
      await download(await buffer, fileName, o.gzip);
      status('downloaded', fileName);
      return {status: 'downloaded', reason: reason};
    };

    if (global.location.protocol === 'file:' || global.location.origin === 'null') {
      return fallback('file');
    }
    // A browser that knows it is offline cannot reach a UI on another
    // origin: no tab that would wait for nothing.
    if (global.navigator && global.navigator.onLine === false &&
        new URL(o.url, global.location.href).origin !== global.location.origin) {
      return fallback('offline');
    }
    status('opening', o.url);
    // Before any await, so that it runs inside the user's click.
    var w = global.open(o.url, '_blank');
    if (!w) {
      return fallback('blocked');
    }
    // Post only to the UI's origin: the trace is private data.
    var origin = new URL(o.url, global.location.href).origin;
    var answered = await waitForPong(w, origin, o, status);
    var data;
    try {
      data = await buffer;
    } catch (e) {
      w.close();
      throw e;
    }
    if (!answered) {
      w.close();
      return fallback('timeout');
    }
    w.postMessage({perfetto: {
      buffer: data,
      title: String(title),
      fileName: String(fileName),
      localOnly: !!o.localOnly
    }}, origin);
    status('sent');
    return {status: 'opened', window: w};
  }

  // waitForPong pings w until it answers PONG (true) or the time is up
  // (false). Pings sent before the UI has loaded reach the blank page of
  // another origin and are dropped; that is what the retries are for.
  function waitForPong(w, origin, o, status) {
    return new Promise(function (resolve) {
      var pings = 0;
      var finish = function (ok) {
        clearInterval(timer);
        clearTimeout(deadline);
        global.removeEventListener('message', onMessage);
        if (ok) {
          status('pong');
        }
        resolve(ok);
      };
      var onMessage = function (e) {
        if (e.source === w && e.data === 'PONG') {
          finish(true);
        }
      };
      var ping = function () {
        pings++;
        status('ping', pings);
        w.postMessage('PING', origin);
      };
      global.addEventListener('message', onMessage);
      var timer = setInterval(ping, o.pingMs);
      var deadline = setTimeout(function () { finish(false); }, o.timeoutMs);
      ping();
    });
  }

  // download saves buffer as fileName (+ '.gz' when gzip is asked for and
  // the browser can compress).
  async function download(buffer, fileName, gzip) {
    var blob = new Blob([await buffer], {type: 'application/json'});
    if (gzip && typeof CompressionStream === 'function') {
      fileName += '.gz';
      blob = await new Response(blob.stream().pipeThrough(new CompressionStream('gzip'))).blob();
    }
    var a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = fileName;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    // The download holds its own reference by now; free ours later.
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
  }

  imasOpenPerfetto.defaults = defaults;
  imasOpenPerfetto.download = download;
  global.imasOpenPerfetto = imasOpenPerfetto;
})(typeof window !== 'undefined' ? window : this);
