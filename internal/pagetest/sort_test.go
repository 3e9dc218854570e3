package pagetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// sortedBy presses the header button of col in table sel (by a click, or
// Enter when key) and waits for its aria-sort to say want; it returns the
// column's data-value per row, in the order shown, and fails unless it is
// the only header that says it sorts.
func (b *tab) sortedBy(t *testing.T, sel, col, want string, key bool) []string {
	t.Helper()
	button := fmt.Sprintf(`%s button[data-sort=%q]`, sel, col)
	if key {
		b.run(t, chromedp.Focus(button, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	} else {
		b.run(t, chromedp.Click(button, chromedp.ByQuery))
	}
	b.run(t, chromedp.WaitVisible(fmt.Sprintf(`%s th[aria-sort=%q] button[data-sort=%q]`, sel, want, col), chromedp.ByQuery))
	var sorting int
	b.eval(t, fmt.Sprintf(`document.querySelectorAll('%s th[aria-sort=ascending], %s th[aria-sort=descending]').length`, sel, sel), &sorting)
	if sorting != 1 {
		t.Errorf("%s sorted by %s: %d headers say they sort", sel, col, sorting)
	}
	var vals []string
	b.eval(t, fmt.Sprintf(`(() => { const t = document.querySelector(%q),
		k = [...t.rows[0].cells].findIndex(th => th.querySelector('[data-sort=%q]'));
		return [...t.rows].slice(1).map(r => r.cells[k].dataset.value ?? r.cells[k].textContent); })()`, sel, col), &vals)
	return vals
}

// numbers reads data-values as integers.
func numbers(t *testing.T, vals []string) []int64 {
	t.Helper()
	out := make([]int64, len(vals))
	for i, v := range vals {
		if _, err := fmt.Sscan(v, &out[i]); err != nil {
			t.Fatalf("data-value %q: %v", v, err)
		}
	}
	return out
}

// TestSortPeakConflicts: the Conflicts and Peak lists of the selected
// graph sort by a header's button, by mouse or keyboard, numbers by exact
// bytes (largest first, again smallest first), text in order, with
// aria-sort on the sorted header only; sorting keeps every row.
func TestSortPeakConflicts(t *testing.T) {
	files, _ := sample(t, "conflicts")
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	b.load(t, 1, files...)
	b.run(t, chromedp.WaitVisible(`#conflicts tr + tr`, chromedp.ByQuery))

	var before int
	b.eval(t, `document.querySelectorAll('#conflicts tr').length - 1`, &before)
	desc := numbers(t, b.sortedBy(t, "#conflicts", "size", "descending", false))
	asc := numbers(t, b.sortedBy(t, "#conflicts", "size", "ascending", false))
	rev := slices.Clone(desc)
	slices.Reverse(rev)
	if len(desc) != before || len(asc) < 2 || asc[0] == asc[len(asc)-1] || !slices.IsSorted(asc) || !slices.Equal(rev, asc) {
		t.Errorf("conflicts by size: largest first %v, smallest first %v (%d rows listed)", desc, asc, before)
	}

	b.run(t, chromedp.Click(`button[data-tab="peak"]`, chromedp.ByQuery), chromedp.WaitVisible(`#peak tr[data-key]`, chromedp.ByQuery))
	var keys []string
	b.eval(t, `[...document.querySelectorAll('#peak tr[data-key]')].map(tr => tr.dataset.key)`, &keys)
	byKey := b.sortedBy(t, "#peak", "key", "ascending", true)
	if len(byKey) < 2 || !slices.IsSorted(byKey) || !slices.Equal(byKey, slices.Sorted(slices.Values(keys))) {
		t.Errorf("peak by tensor: %v (listed %v)", byKey, keys)
	}
	offsets := numbers(t, b.sortedBy(t, "#peak", "offset", "descending", false))
	if slices.Reverse(offsets); !slices.IsSorted(offsets) || len(offsets) != len(keys) || offsets[0] == offsets[len(offsets)-1] {
		t.Errorf("peak by offset, largest first, reversed: %v", offsets)
	}
	offsets = numbers(t, b.sortedBy(t, "#peak", "offset", "ascending", true))
	if !slices.IsSorted(offsets) {
		t.Errorf("peak by offset, smallest first: %v", offsets)
	}
	b.clean(t)
}
