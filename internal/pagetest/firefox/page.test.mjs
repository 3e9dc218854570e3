// The page's key checks in headless Firefox (Debian's firefox-esr, driven
// through WebDriver BiDi by npm's puppeteer-core), mirroring the Chromium
// tests of internal/pagetest: public/imas.html from file://, logs chosen
// through the file input against the CLI's report.json, the graphs table's
// sorting, an unusable file, and "Try a sample". Run with `make test-firefox`.
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

// The graphs of the CLI's report.json for files: data-graph → memory_size.
function cliGraphs(files) {
  const out = mkdtempSync(join(tmpdir(), 'imas-ff-report-'));
  try {
    const r = spawnSync(cli, ['report', '-o', out, ...files], {encoding: 'utf8'});
    assert.equal(r.status, 0, `${cli} report: ${r.error || r.stderr}`);
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    return Object.fromEntries(rep.graphs.map(g => [`${g.pid}/${g.graph}/${g.memtype}`, String(g.memory_size)]));
  } finally {
    rmSync(out, {recursive: true, force: true});
  }
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
  async function open(query = '') {
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
    await tab.goto(pathToFileURL(page).href + query);
    await tab.waitForSelector('.imas[data-state="idle"]', {visible: true});
    return t;
  }

  // ended waits for analysis n to end and the page to show every answer
  // asked for after it (data-pending="0"), and returns its state.
  async function ended(t, n) {
    await t.tab.waitForSelector(`.imas[data-ends="${n}"][data-pending="0"]`, {visible: true, timeout: 60_000});
    return t.tab.$eval('.imas', e => e.dataset.state);
  }

  // choose sets files in the file input and waits for analysis n to end.
  async function choose(t, n, files) {
    const input = await t.tab.$('#files');
    await input.uploadFile(...files);
    return ended(t, n);
  }

  const shownSizes = t => t.tab.$$eval('tr[data-graph]', trs => Object.fromEntries(trs.map(tr =>
    [tr.dataset.graph, tr.querySelector('td[data-field="memory_size"]')?.dataset.value])));
  const errorText = t => t.tab.evaluate(() => document.querySelector('#error')?.textContent || '');

  function clean(t) {
    assert.deepEqual(t.problems, [], `page problems; console (last lines):\n${t.logs.slice(-40).join('\n')}`);
  }

  for (const name of ['mixed', 'conflicts']) {
    test(`the ${name} sample through the file input equals the CLI's report.json`, {timeout: 120_000}, async () => {
      const files = sampleFiles(name);
      const want = cliGraphs(files);
      assert.ok(Object.keys(want).length > 0, `the CLI found no graph in ${name}`);
      const t = await open();
      assert.equal(await choose(t, 1, files), 'done', await errorText(t));
      assert.deepEqual(await shownSizes(t), want);
      clean(t);
    });
  }

  test('logs parsed by two parse workers equal the CLI\'s report.json', {timeout: 180_000}, async () => {
    // The mixed sample's files, each repeated (every repeat a recompilation
    // of its graphs): enough chunks for the parse workers, and fewer graphs
    // than the table's page of 200.
    const dir = mkdtempSync(join(tmpdir(), 'imas-ff-parallel-'));
    try {
      const files = sampleFiles('mixed').map((f, i) => {
        const out = join(dir, `plog-${i}.log`);
        writeFileSync(out, Buffer.concat(Array(10).fill(readFileSync(f))));
        return out;
      });
      const want = cliGraphs(files);
      const t = await open('?parsers=2');
      assert.equal(await choose(t, 1, files), 'done', await errorText(t));
      assert.deepEqual(await shownSizes(t), want);
      const parsed = await t.tab.evaluate(() => JSON.parse(imasPage.progress).parsed || []);
      assert.equal(parsed.filter(n => n > 0).length, 2, `chunks parsed by each worker: ${parsed}`);
      clean(t);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
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

  test('an unusable file is explained and keeps the previous results', {timeout: 120_000}, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imas-ff-'));
    try {
      const jpeg = join(dir, 'photo.jpg');
      writeFileSync(jpeg, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]), Buffer.alloc(3000)]));
      const why = cliRefusal([jpeg]);
      const t = await open();
      assert.equal(await choose(t, 1, [jpeg]), 'error');
      let msg = await errorText(t);
      assert.ok(msg.includes(why), `error ${JSON.stringify(msg)} lacks the CLI's ${JSON.stringify(why)}`);
      assert.equal(await t.tab.$('main'), null, 'results shown for an unusable file');

      const files = sampleFiles('basic');
      const want = cliGraphs(files);
      assert.equal(await choose(t, 2, files), 'done', await errorText(t));
      await choose(t, 3, [jpeg]);
      msg = await errorText(t);
      for (const w of [why, 'previous results are kept']) assert.ok(msg.includes(w), `error ${JSON.stringify(msg)} lacks ${JSON.stringify(w)}`);
      assert.deepEqual(await shownSizes(t), want, 'the previous results');
      clean(t);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });

  test('"Try a sample" analyses the log built into the page', {timeout: 120_000}, async () => {
    const t = await open();
    await t.tab.click('#sample');
    assert.equal(await ended(t, 1), 'done', await errorText(t));
    const graphs = await t.tab.$$eval('#graphs tr[data-graph]', trs => trs.length);
    const conflicts = await t.tab.$$eval('#graphs td[data-field="conflicts"]', tds => tds.reduce((n, td) => n + +td.dataset.value, 0));
    assert.ok(graphs >= 3 && conflicts > 0, `the sample: ${graphs} graph rows, ${conflicts} conflicts`);
    clean(t);
  });
});
