// The page's key checks in headless Firefox (Debian's firefox-esr, driven
// through WebDriver BiDi by npm's puppeteer-core), mirroring the Chromium
// tests of internal/pagetest: public/imas.html from file://, logs chosen
// through the file input against the CLI's report.json, the memory map's
// hover card and click, the address restoring a view, the timeline at the
// peak step against `imas peak`, the graphs table's sorting, every load
// error, the keyboard-only path from opening logs to a graph's peak
// tensors, Compare, and a pool on log time. Run with `make test-firefox`.
//
// IMAS_PAGE is the page under test and IMAS_BIN the CLI (make sets both to
// fresh builds); without IMAS_PAGE the tests skip, as the Go ones do.
// Without firefox-esr or puppeteer-core they skip, unless
// IMAS_REQUIRE_TOOLS=1 (CI), where they fail.
import {after, afterEach, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const FIREFOX = '/usr/bin/firefox-esr';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const samples = join(root, 'testdata', 'samples');
const page = process.env.IMAS_PAGE && resolve(process.env.IMAS_PAGE);
const cli = resolve(process.env.IMAS_BIN || join(root, 'bin', 'imas'));

// Why the tests cannot run here, if they cannot.
let missing = '';
let puppeteer;
if (!page) {
  missing = 'IMAS_PAGE not set: run make test-firefox';
} else if (!existsSync(page)) {
  missing = `${page} missing (run ./build.sh)`;
} else if (!existsSync(FIREFOX)) {
  missing = `${FIREFOX} missing (scripts/install-test-deps.sh installs it)`;
} else {
  try {
    puppeteer = (await import('puppeteer-core')).default;
  } catch (err) {
    missing = `npm's puppeteer-core missing (npm install): ${err.message}`;
  }
}
if (missing && process.env.IMAS_REQUIRE_TOOLS === '1' && !missing.startsWith('IMAS_PAGE')) {
  throw new Error(`the Firefox tests are required (IMAS_REQUIRE_TOOLS=1): ${missing}`);
}
if (missing) console.log(`# Firefox page tests skipped: ${missing}`);

// Go's runtime prints panics through console.log (wasm_exec.js).
const goCrash = /^"?(panic: |fatal error: |goroutine \d+ \[)/;

// The CLI's report.json for files.
function cliReport(files) {
  const out = mkdtempSync(join(tmpdir(), 'imas-ff-report-'));
  try {
    const r = spawnSync(cli, ['report', '-o', out, ...files], {encoding: 'utf8'});
    assert.equal(r.status, 0, `${cli} report: ${r.error || r.stderr}`);
    return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  } finally {
    rmSync(out, {recursive: true, force: true});
  }
}

// The graphs of the CLI's report.json for files: data-graph → memory_size.
function cliGraphs(files) {
  return Object.fromEntries(cliReport(files).graphs.map(g => [`${g.pid}/${g.graph}/${g.memtype}`, String(g.memory_size)]));
}

// What `imas peak` prints for each graph: data-graph → {step, names,
// sizes} of the blocks live at its peak step, largest first (as many as
// the page lists).
function cliPeaks(files) {
  const r = spawnSync(cli, ['peak', '-n', '20', ...files], {encoding: 'utf8'});
  assert.equal(r.status, 0, `${cli} peak: ${r.error || r.stderr}`);
  const out = {};
  let cur = null;
  for (const line of r.stdout.split('\n')) {
    let m;
    if ((m = /^## pid (\S+) (.+) memtype (\d+)$/.exec(line))) out[`${m[1]}/${m[2]}/${m[3]}`] = cur = {step: -1, names: [], sizes: []};
    else if (cur && (m = /^peak at step (\d+):/.exec(line))) cur.step = +m[1];
    else if (cur && (m = /^\| \d+ \| ([^|]+) \| [^|]+ \| \d+ \| (\d+) /.exec(line))) {
      cur.names.push(m[1].trim());
      cur.sizes.push(+m[2]);
    }
  }
  return out;
}

// The CLI's explanation of why it cannot use files (its error message).
function cliRefusal(files) {
  const out = mkdtempSync(join(tmpdir(), 'imas-ff-report-'));
  try {
    const r = spawnSync(cli, ['report', '-o', out, ...files], {encoding: 'utf8'});
    assert.notEqual(r.status, 0, `${cli} report accepted ${files}`);
    const msg = r.stderr.slice(r.stderr.indexOf('imas: ') + 'imas: '.length).trim();
    for (const w of ['Markers looked for', 'ASCEND_GLOBAL_LOG_LEVEL=1']) assert.ok(msg.includes(w), `the CLI's error ${JSON.stringify(msg)} lacks ${w}`);
    return msg;
  } finally {
    rmSync(out, {recursive: true, force: true});
  }
}

function sampleFiles(name) {
  const dir = join(samples, name);
  return readdirSync(dir).filter(f => /^plog-.*\.log$/.test(f)).map(f => join(dir, f));
}

describe('the page in Firefox', {skip: missing || false}, () => {
  let browser;
  const tabs = [];

  before(async () => {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      defaultViewport: {width: 1400, height: 1000},
    });
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const t of tabs.splice(0)) await t.tab.close();
  });

  // open loads the page in a new tab that records every exception,
  // console error, Go panic and dialog, and waits until the UI is up.
  async function open(suffix = '') { // a query or a fragment
    const tab = await browser.newPage();
    const t = {tab, problems: [], logs: []};
    tabs.push(t);
    tab.on('console', m => {
      const text = m.text();
      t.logs.push(text);
      if (m.type() === 'error' || m.type() === 'assert' || goCrash.test(text)) t.problems.push(`console.${m.type()}: ${text}`);
    });
    tab.on('pageerror', err => t.problems.push(`exception: ${err.message}`));
    tab.on('dialog', d => {
      t.problems.push(`dialog: ${d.message()}`);
      d.dismiss().catch(() => {});
    });
    await tab.goto(pathToFileURL(page).href + suffix);
    await tab.waitForSelector('.imas[data-state="idle"]', {visible: true});
    return t;
  }

  // ended waits for analysis n to end and the page to show every answer
  // asked for after it (data-pending="0"), and returns its state.
  async function ended(t, n) {
    await t.tab.waitForSelector(`.imas[data-ends="${n}"][data-pending="0"]`, {visible: true, timeout: 60_000});
    return t.tab.$eval('.imas', e => e.dataset.state);
  }

  // choose sets files in a file input (#files unless named) and waits for
  // analysis n to end.
  async function choose(t, n, files, into = '#files') {
    const input = await t.tab.$(into);
    await input.uploadFile(...files);
    return ended(t, n);
  }

  const shownSizes = t => t.tab.$$eval('tr[data-graph]', trs => Object.fromEntries(trs.map(tr =>
    [tr.dataset.graph, tr.querySelector('td[data-field="memory_size"]')?.dataset.value])));
  const errorText = t => t.tab.evaluate(() => document.querySelector('#error')?.textContent || '');

  const settled = t => t.tab.waitForSelector('.imas[data-pending="0"]', {visible: true});
  const text = (t, sel) => t.tab.$eval(sel, e => e.textContent);

  // pointAtMapTop scrolls the map into view and moves the mouse onto the
  // rectangle drawn last: the hover card must show its row, whose card is
  // returned with the pointer's position.
  async function pointAtMapTop(t) {
    const top = await t.tab.evaluate(() => (document.getElementById('imas-map').scrollIntoView({block: 'center'}), imasMap.top()));
    await t.tab.mouse.move(top.x, top.y);
    await t.tab.waitForSelector(`.hovercard[data-row="${top.row}"]`, {visible: true});
    return {...top, card: await t.tab.$eval('.hovercard', e => e.innerText), key: await text(t, '.hovercard b')};
  }

  // timeTicks reads a canvas's x-axis labels as µs, checking that each is a
  // time and that they are evenly spaced by 1, 2 or 5 × 10^k µs.
  async function timeTicks(t, sel) {
    const labels = (await t.tab.$eval(sel, e => e.dataset.xticks)).split('|');
    const unit = {'µs': 1, ms: 1e3, s: 1e6};
    const at = labels.map(l => {
      const m = /^(\d+(?:\.\d+)?) (µs|ms|s)$/.exec(l);
      assert.ok(m, `${sel}: x tick ${JSON.stringify(l)} is not a time`);
      return Math.round(+m[1] * unit[m[2]]);
    });
    assert.ok(at.length >= 3, `${sel}: x ticks ${labels}`);
    const step = at[1] - at[0], mant = step / 10 ** Math.floor(Math.log10(step));
    assert.ok([1, 2, 5].includes(mant) && at.every((v, k) => k === 0 || v - at[k - 1] === step), `${sel}: x ticks ${labels} are not round`);
  }

  function clean(t) {
    assert.deepEqual(t.problems, [], `page problems; console (last lines):\n${t.logs.slice(-40).join('\n')}`);
  }

  test('the mixed sample equals the CLI; the map\'s hover card and click; the address restores the view', {timeout: 120_000}, async () => {
    const files = sampleFiles('mixed');
    const want = cliGraphs(files);
    assert.ok(Object.keys(want).length > 0, 'the CLI found no graph in mixed');
    const t = await open();
    assert.equal(await choose(t, 1, files), 'done', await errorText(t));
    assert.deepEqual(await shownSizes(t), want);
    // The biggest graph is first and shown; its map names the rectangle
    // under the mouse, and a click chooses it in the table and the detail.
    const first = await t.tab.$eval('#graphs tr[data-graph]', tr => tr.dataset.graph);
    await t.tab.waitForSelector(`#graphs tr.sel[data-graph="${first}"]`);
    await t.tab.waitForSelector('#imas-map[data-shows^="graph:"][data-drawn]');
    const drawn = await t.tab.$eval('#imas-map', c => [c.dataset.n, c.dataset.drawn]);
    assert.ok(drawn[0] !== '0' && drawn[0] === drawn[1], `the map drew ${drawn[1]} of ${drawn[0]} rectangles`);
    const top = await pointAtMapTop(t);
    await t.tab.mouse.click(top.x, top.y);
    await t.tab.waitForSelector(`#tensors tr.sel[data-row="${top.row}"]`, {visible: true});
    await t.tab.waitForSelector('#detail h3');
    assert.equal(await text(t, '#detail h3'), top.key, 'the detail of the rectangle clicked');
    assert.equal(await text(t, '#tensors tr.sel td.name'), top.key, 'the table row of the rectangle clicked');
    // A graph, a tab and a tensor chosen go into the address; the address
    // opened in another tab with the same logs shows them again.
    await settled(t);
    const id = await t.tab.$$eval('#graphs tr[data-graph]', trs => trs[2].dataset.graph);
    await t.tab.click(`#graphs tr[data-graph="${id}"] td`);
    await t.tab.waitForSelector(`#graphs tr.sel[data-graph="${id}"]`);
    await settled(t);
    await t.tab.click('.graphtabs button[data-tab="waste"]');
    await t.tab.click('#tensors tr[data-row]:nth-of-type(3)');
    await t.tab.waitForSelector('#detail');
    await settled(t);
    const key = await text(t, '#detail h3');
    const hash = await t.tab.evaluate(() => location.hash);
    assert.ok(hash.includes('tab=waste') && hash.includes('tensor='), `address ${hash}`);
    const u = await open(hash);
    assert.equal(await choose(u, 1, files), 'done');
    await u.tab.waitForSelector(`#graphs tr.sel[data-graph="${id}"]`);
    await u.tab.waitForSelector('.graphtabs button.on[data-tab="waste"]');
    await u.tab.waitForSelector('#detail h3');
    assert.equal(await text(u, '#detail h3'), key, 'the restored tensor');
    clean(t);
    clean(u);
  });

  test('the conflicts sample equals the CLI; a click at the peak step lists what imas peak lists', {timeout: 120_000}, async () => {
    const files = sampleFiles('conflicts');
    const want = cliGraphs(files), peaks = cliPeaks(files);
    const t = await open();
    assert.equal(await choose(t, 1, files), 'done', await errorText(t));
    assert.deepEqual(await shownSizes(t), want);
    const id = await t.tab.$eval('#graphs tr.sel', tr => tr.dataset.graph);
    const p = peaks[id];
    assert.ok(p && p.step >= 0 && p.sizes.length > 0, `imas peak for ${id}: ${JSON.stringify(p)}`);
    // Click the middle of the peak step's column in the chart's plot area
    // (64 px from its left, 8 from its right; memmap.js).
    await t.tab.waitForSelector('#imas-live[data-view]');
    const at = await t.tab.evaluate(() => {
      const c = document.getElementById('imas-live');
      c.scrollIntoView({block: 'center'});
      const r = c.getBoundingClientRect(), [v0, v1] = c.dataset.view.split(' ').map(Number);
      return {x: r.left + 64 + (+c.dataset.peak + 0.5 - v0) * (r.width - 72) / (v1 - v0), y: r.top + r.height / 2, peak: +c.dataset.peak};
    });
    assert.equal(at.peak, p.step, 'the chart\'s peak step');
    await t.tab.mouse.click(at.x, at.y);
    await t.tab.waitForSelector(`#imas-live[data-step="${p.step}"]`);
    await t.tab.waitForSelector(`#peak[data-step="${p.step}"] tr[data-key]`, {visible: true});
    await settled(t);
    const rows = await t.tab.$$eval('#peak tr[data-key]', trs => trs.map(tr => [tr.dataset.key, +tr.children[3].dataset.value]));
    assert.deepEqual(rows.map(r => r[1]), p.sizes, 'sizes at the peak step, largest first');
    rows.forEach((r, k) => assert.ok(r[0].startsWith(p.names[k] + ':'), `row ${k}: ${r[0]}, imas peak ${p.names[k]}`));
    clean(t);
  });

  // The mixed sample's files, each repeated ten times (every repeat a
  // recompilation of its graphs), in a new temporary folder: enough chunks
  // for the parse workers, and fewer graphs than the table's page of 200.
  function repeatedMixed(dir) {
    return sampleFiles('mixed').map((f, i) => {
      const out = join(dir, `plog-${i}.log`);
      writeFileSync(out, Buffer.concat(Array(10).fill(readFileSync(f))));
      return out;
    });
  }

  // The parse workers are started by the page, not by the engine's worker:
  // there, Firefox's `new Worker` sometimes never returned (docs/page.md).
  test('logs parsed by two parse workers equal the CLI\'s report.json', {timeout: 180_000}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imas-ff-parallel-'));
    try {
      const files = repeatedMixed(dir);
      const want = cliGraphs(files);
      const t = await open('?parsers=2');
      assert.equal(await choose(t, 1, files), 'done', await errorText(t));
      assert.deepEqual(await shownSizes(t), want);
      const parsed = await t.tab.evaluate(() => JSON.parse(imasPage.progress).parsed || []);
      // Two workers, and chunks parsed by them: which one takes a chunk
      // depends on which is ready first (this input is a few chunks).
      assert.ok(parsed.length === 2 && parsed.some(n => n > 0), `chunks parsed by each worker: ${parsed}`);
      clean(t);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  // Worker 0 takes chunks and never answers (?parsestall=0): the watchdog
  // gives it up after 5 s, the engine parses its chunks, and the page says
  // so.
  test('a parse worker that never answers is given up and the logs still equal the CLI\'s', {timeout: 180_000}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imas-ff-parallel-'));
    try {
      const files = repeatedMixed(dir);
      const want = cliGraphs(files);
      const t = await open('?parsers=2&parsestall=0&parsetimeout=5000');
      assert.equal(await choose(t, 1, files), 'done', await errorText(t));
      assert.deepEqual(await shownSizes(t), want);
      const p = await t.tab.evaluate(() => JSON.parse(imasPage.progress));
      assert.ok(p.stalled >= 1 && p.parsed[0] === 0 && p.parsed[1] > 0, `last progress: ${JSON.stringify(p)}`);
      assert.match(await text(t, '.note'), /stopped answering/);
      clean(t);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('a file reader that never answers is given up and the logs still equal the CLI\'s', {timeout: 120_000}, async () => {
    const files = sampleFiles('mixed');
    const want = cliGraphs(files);
    const t = await open('?readstall&readtimeout=1500');
    assert.equal(await choose(t, 1, files), 'done', await errorText(t));
    assert.deepEqual(await shownSizes(t), want);
    const p = await t.tab.evaluate(() => JSON.parse(imasPage.progress));
    assert.ok(p.reader_stalled, `last progress: ${JSON.stringify(p)}`);
    assert.match(await text(t, '.note'), /file reader stopped answering/);
    clean(t);
  });

  test('the graphs table sorts by a header click', {timeout: 120_000}, async () => {
    const t = await open();
    assert.equal(await choose(t, 1, sampleFiles('mixed')), 'done');
    const column = field => t.tab.$$eval(`#graphs tr[data-graph] td[data-field="${field}"]`, tds => tds.map(td => +td.dataset.value));
    const sizes = await column('memory_size');
    assert.deepEqual(sizes, sizes.toSorted((a, b) => b - a), 'largest first');
    for (const [order, cmp] of [['descending', (a, b) => b - a], ['ascending', (a, b) => a - b]]) {
      await t.tab.click('#graphs button[data-sort="tensors"]');
      await t.tab.waitForSelector(`#graphs th[aria-sort="${order}"] button[data-sort="tensors"]`, {visible: true});
      const vals = await column('tensors');
      assert.deepEqual(vals, vals.toSorted(cmp), `tensors ${order}`);
      const sorting = await t.tab.$$eval('#graphs th[aria-sort="ascending"], #graphs th[aria-sort="descending"]', ths => ths.length);
      assert.equal(sorting, 1, 'headers that say they sort');
    }
    clean(t);
  });

  test('every load error says why, never "Cancelled", and keeps the previous results', {timeout: 120_000}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imas-ff-'));
    try {
      const write = (name, data) => (writeFileSync(join(dir, name), data), join(dir, name));
      const jpeg = write('photo.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]), Buffer.alloc(3000)]));
      const empty = write('empty.log', '');
      const hello = write('report.json', '{"hello":1}');
      const cut = write('cut-report.json', '{"schema":"imas/1","graphs":[{"pid":"1",');
      const why = cliRefusal([jpeg]);
      const t = await open();
      let n = 0;
      for (const [file, wants] of [[jpeg, [why]], [empty, ['the input is empty', 'ASCEND_GLOBAL_LOG_LEVEL=1']],
        [hello, ['report.json']], [cut, ['report.json']]]) {
        assert.equal(await choose(t, ++n, [file]), 'error', file);
        const msg = await errorText(t);
        for (const w of wants) assert.ok(msg.includes(w), `${file}: error ${JSON.stringify(msg)} lacks ${JSON.stringify(w)}`);
        assert.ok(!msg.includes('Cancelled'), `${file}: ${msg}`);
        assert.equal(await t.tab.$('main'), null, `results shown for ${file}`);
      }
      const files = sampleFiles('basic');
      const want = cliGraphs(files);
      assert.equal(await choose(t, ++n, files), 'done', await errorText(t));
      await choose(t, ++n, [jpeg]);
      const msg = await errorText(t);
      for (const w of [why, 'previous results are kept']) assert.ok(msg.includes(w), `error ${JSON.stringify(msg)} lacks ${JSON.stringify(w)}`);
      assert.deepEqual(await shownSizes(t), want, 'the previous results');
      clean(t);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('by keyboard alone: open the sample, choose the biggest graph, list its peak tensors', {timeout: 120_000}, async () => {
    const t = await open();
    const tabTo = async sel => {
      for (let i = 0; i < 120; i++) {
        await t.tab.keyboard.press('Tab');
        if (await t.tab.evaluate(s => document.activeElement.matches(s), sel)) return;
      }
      assert.fail(`Tab never reached ${sel} (focus on ${await t.tab.evaluate(() => document.activeElement.outerHTML.slice(0, 200))})`);
    };
    await tabTo('#files');
    await tabTo('#sample');
    await t.tab.keyboard.press('Enter');
    assert.equal(await ended(t, 1), 'done', await errorText(t));
    const graphs = await t.tab.$$eval('#graphs tr[data-graph]', trs => trs.length);
    const conflicts = await t.tab.$$eval('#graphs td[data-field="conflicts"]', tds => tds.reduce((n, td) => n + +td.dataset.value, 0));
    assert.ok(graphs >= 3 && conflicts > 0, `the sample: ${graphs} graph rows, ${conflicts} conflicts`);
    await tabTo('#graphs tr[data-graph]');
    const first = await t.tab.evaluate(() => document.activeElement.dataset.graph);
    await t.tab.keyboard.press('Enter');
    await t.tab.waitForSelector(`#graphs tr.sel[data-graph="${first}"]`);
    await settled(t);
    await tabTo('#imas-live');
    await t.tab.keyboard.press('Home');
    await t.tab.waitForSelector('#peak tr[data-key]', {visible: true});
    assert.ok((await text(t, '#peak-title')).startsWith('Peak at step'), await text(t, '#peak-title'));
    const steps = await t.tab.evaluate(() => [document.getElementById('peak').dataset.step, document.getElementById('imas-live').dataset.peak]);
    assert.equal(steps[0], steps[1], 'the step listed is the chart\'s peak');
    const outline = await t.tab.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, 'none', 'the focused timeline shows no outline');
    clean(t);
  });

  test('Compare: a run against itself changes nothing, shown below the results', {timeout: 120_000}, async () => {
    const files = sampleFiles('basic');
    const graphs = Object.keys(cliGraphs(files)).length;
    const t = await open();
    assert.equal(await choose(t, 1, files), 'done');
    await t.tab.click('button[data-tab="diff"]');
    await t.tab.waitForSelector('.panel.diff');
    assert.equal(await choose(t, 2, files, '#basefiles'), 'done', await errorText(t));
    await t.tab.waitForSelector('#diff-totals');
    const deltas = await t.tab.$$eval('#diff-totals td[data-value]', tds => tds.map(td => td.dataset.value));
    assert.ok(deltas.length > 0 && deltas.every(d => d === '0.000000'), `totals against itself: ${deltas}`);
    assert.equal(await t.tab.$$eval('.diffgraph', e => e.length), graphs, 'matched graphs');
    await t.tab.waitForFunction(() => (r => r.top < innerHeight && r.bottom > 0)(document.getElementById('diff').getBoundingClientRect()));
    assert.ok(await t.tab.$('main #graphs'), 'the results stay while comparing');
    clean(t);
  });

  test('a pool on log time: the timeline\'s top is peak_live, the x axes are times, the hover card gives the times', {timeout: 120_000}, async () => {
    const files = sampleFiles('pool');
    const pool = cliReport(files).pools[0];
    const t = await open();
    assert.equal(await choose(t, 1, files), 'done', await errorText(t));
    await t.tab.waitForSelector('#imas-map[data-shows="pool:0"][data-drawn]');
    await t.tab.waitForSelector('#imas-live[data-max]');
    assert.equal(+(await t.tab.$eval('#imas-live', c => c.dataset.max)), pool.peak_live, 'the timeline\'s top');
    await timeTicks(t, '#imas-map');
    await timeTicks(t, '#imas-live');
    const top = await pointAtMapTop(t);
    const row = pool.rows[top.row];
    // The log's clock: µs since 2000-01-01, printed as HH:MM:SS.µµµµµµ.
    const clock = us => new Date(Date.UTC(2000, 0, 1) + Math.floor(us / 1000)).toISOString().slice(11, 19) + '.' + String(us % 1e6).padStart(6, '0');
    assert.ok(top.card.includes('allocated ' + clock(row.time_us)), `card ${JSON.stringify(top.card)}, allocated ${clock(row.time_us)}`);
    assert.ok(row.kernel_free ? top.card.includes('freed ' + clock(row.free_time_us)) : top.card.includes('not freed'), `card ${JSON.stringify(top.card)}`);
    clean(t);
  });
});
