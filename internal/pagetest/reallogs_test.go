package pagetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// realLogsDir holds the real GE logs (../shared/real-logs from the
// repository root); they are read, never copied.
const realLogsDir = "../../../shared/real-logs"

// realLog returns the path of one real log, skipping the test when the
// folder is absent (required in CI).
func realLog(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(realLogsDir, name))
	if err == nil {
		_, err = os.Stat(p)
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs %s: %v", name, err)
		}
		t.Skipf("no real log %s (%v): skipped", name, err)
	}
	return p
}

// TestRealLogsOnPage: what the page shows for real logs, figure by figure
// as the CLI and report.json give them (the figures are those of
// core.TestRealLogsByHand and TestRealMemoryErrors).
func TestRealLogsOnPage(t *testing.T) {
	b := newTab(t, 120*time.Second)
	b.open(t, "")
	n := 0
	load := func(name string) {
		n++
		b.load(t, n, realLog(t, name))
	}
	notes := func() string {
		var s string
		b.eval(t, `[...document.querySelectorAll('.overview ul.notes li')].map(li => li.textContent).join('\n')`, &s)
		return s
	}

	t.Run("OOM: the memory error comes first", func(t *testing.T) {
		load("hiascend-ts0050-2024-oom.log")
		var got struct {
			Count int
			Sizes []string
			First bool
			Text  string
		}
		b.eval(t, `(() => {
			const s = document.querySelector('section.memory-errors');
			const o = document.querySelector('section.overview');
			return {Count: s ? +s.dataset.count : -1,
				Sizes: s ? [...s.querySelectorAll('li[data-memory-error]')].map(li => li.dataset.value) : [],
				First: !!(s && o && (s.compareDocumentPosition(o) & Node.DOCUMENT_POSITION_FOLLOWING)),
				Text: s ? s.textContent : ''};
		})()`, &got)
		if got.Count != 1 || len(got.Sizes) != 1 || got.Sizes[0] != "20971520" || !got.First || !strings.Contains(got.Text, "207001") {
			t.Errorf("memory errors card %+v; want one error of 20971520 bytes, code 207001, above the overview", got)
		}
	})

	t.Run("AICPU device log is not a GE debug plog", func(t *testing.T) {
		load("oam-2021-acl-device10043.log")
		s := notes()
		if strings.Contains(s, "INFO-level GE statements found") || !strings.Contains(s, "124 CCECPU (AICPU)") {
			t.Errorf("sanity notes:\n%s", s)
		}
	})

	t.Run("2021 ACL: checked and unchecked addresses with the reason", func(t *testing.T) {
		load("oam-2021-acl-plog10043.log")
		b.clickFor(t, `.jsontable[data-section="address_checks"] a.fold`, `.jsontable[data-section="address_checks"] table`)
		var got struct {
			Checked string
			Cols    []string
		}
		b.eval(t, `(() => {
			const sec = document.querySelector('.jsontable[data-section="address_checks"]');
			const cols = sec ? [...sec.querySelectorAll('table tr:first-child th')].map(th => th.textContent) : [];
			const row = sec ? sec.querySelector('table tr:nth-child(2)') : null;
			const i = cols.indexOf('checked');
			return {Checked: row && i >= 0 ? row.children[i].dataset.value : '', Cols: cols};
		})()`, &got)
		if got.Checked != "324" {
			t.Fatalf("address_checks: checked %q (columns %v), want 324", got.Checked, got.Cols)
		}
		// The unchecked counts are an object: open it.
		var i int
		b.eval(t, `[...document.querySelectorAll('.jsontable[data-section="address_checks"] table tr:first-child th')].map(th => th.textContent).indexOf('unchecked')`, &i)
		if i < 0 {
			t.Fatalf("address_checks has no unchecked column: %v", got.Cols)
		}
		b.clickFor(t, `.jsontable[data-section="address_checks"] table tr:nth-child(2) td:nth-child(`+itoa64(int64(i+1))+`) a`,
			`.jsontable[data-section="address_checks"] .sub`)
		var sub string
		b.eval(t, `(document.querySelector('.jsontable[data-section="address_checks"] .sub')||{}).textContent||''`, &sub)
		if !strings.Contains(sub, "user-memory") || !strings.Contains(sub, "473") {
			t.Errorf("unchecked addresses: %q, want user-memory 473", sub)
		}
	})

	t.Run("2020 zero-copy", func(t *testing.T) {
		load("oam-2020-tf-host0.log")
		g := b.shownGraphs(t)
		row := g["13694/ge_default_20200909152235_1/2"]
		if row["zero_copy"] != "5120" || row["memory_size"] != "7680" {
			t.Errorf("graph row %v; want zero_copy 5120, memory_size 7680", row)
		}
	})

	t.Run("2023 RT2 pool as GE's PrintDetails says", func(t *testing.T) {
		load("oam-2023-tf-plog370-debug.log")
		// Its graphs hold only size-0 rows: the first one's map is drawn
		// without a timeline, and without an error.
		b.run(t, chromedp.WaitVisible(`#imas-map[data-shows^="graph:"][data-drawn]`, chromedp.ByQuery))
		if p := b.problems(); len(p) > 0 {
			t.Errorf("drawing a graph without counted tensors: %v", p)
		}
		b.clickFor(t, `nav.tabs button[data-tab="pools"]`, `#pools`)
		var peak []string
		b.eval(t, `[...document.querySelectorAll('#pools tr[data-pool] td[data-value]')].map(td => td.dataset.value)`, &peak)
		// peak live, then from device: 4 blocks of 64 KiB both.
		if len(peak) != 2 || peak[0] != "262144" || peak[1] != "262144" {
			t.Errorf("pools table values %v; want peak_live 262144 and physical 262144", peak)
		}
		if s := notes(); strings.Contains(s, "No devmm statistics") || strings.Contains(s, "1024") {
			t.Errorf("sanity notes:\n%s", s)
		}
	})
	b.clean(t)
}
