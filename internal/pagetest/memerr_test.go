package pagetest

import (
	"testing"
	"time"
)

// TestMemoryErrorsCard: logs with failed memory requests open the results
// with the memory-errors card, one row per error, above the overview.
func TestMemoryErrorsCard(t *testing.T) {
	files, truth := generated(t, "hostile")
	b := newTab(t, 90*time.Second)
	b.open(t, "")
	b.load(t, 1, files...)
	var got struct {
		Count, Rows int
		First       bool
		Sizes       []string
	}
	b.eval(t, `(() => {
		const s = document.querySelector('section.memory-errors');
		const o = document.querySelector('section.overview');
		return {Count: s ? +s.dataset.count : -1,
			Rows: s ? s.querySelectorAll('li[data-memory-error]').length : -1,
			First: !!(s && o && (s.compareDocumentPosition(o) & Node.DOCUMENT_POSITION_FOLLOWING)),
			Sizes: s ? [...s.querySelectorAll('li[data-memory-error]')].map(li => li.dataset.value) : []};
	})()`, &got)
	if got.Count != len(truth.MemErrors) || got.Rows != len(truth.MemErrors) || !got.First {
		t.Errorf("card: count %d, rows %d, before the overview %v; want %d errors first", got.Count, got.Rows, got.First, len(truth.MemErrors))
	}
	for i, w := range truth.MemErrors {
		if i < len(got.Sizes) && got.Sizes[i] != itoa64(w.Size) {
			t.Errorf("error %d: size %s, want %d", i, got.Sizes[i], w.Size)
		}
	}
	// The processes' ranking flags them too.
	var flagged int
	b.eval(t, `[...document.querySelectorAll('#procs li.bad')].reduce((n, li) =>
		n + +((li.textContent.match(/(\d+) memory errors?/) || [0, 0])[1]), 0)`, &flagged)
	if flagged != len(truth.MemErrors) {
		t.Errorf("the processes' ranking counts %d memory errors, the logs hold %d", flagged, len(truth.MemErrors))
	}
	b.clean(t)
}

func itoa64(n int64) string {
	var buf [24]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(buf[i:])
		}
	}
}
