package pagetest

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"imas/core"
	"imas/core/input"
	"imas/internal/gen"
)

// manyGraphRanks writes about size bytes of plogs of four processes that
// each compile many small graphs one after the other (the smallgraphs
// mix, one process a rank), so that graphs are finished while later
// bytes are still to read, and returns the files.
func manyGraphRanks(t *testing.T, size int64) []string {
	t.Helper()
	p, err := gen.ProfileByName("smallgraphs", 0, size)
	if err != nil {
		t.Fatal(err)
	}
	p.RotateBytes = 8 << 20
	for i := len(p.Processes); i < 4; i++ {
		s := p.Processes[0]
		s.PID += 1000 * i
		s.StartUnix += int64(i)
		p.Processes = append(p.Processes, s)
	}
	dir := t.TempDir()
	truth, err := gen.Generate(p, dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range truth.Files {
		files = append(files, filepath.Join(dir, f.Name))
	}
	return files
}

// watchEarly records, in the page, the first graph rows shown while the
// analysis still runs (section.early, data-ends still 0) and every
// progress message of the engine.
const watchEarly = `(window.earlySeen = null, window.progressSeen = [],
	imasEngine.addEventListener('message', (e) => {
		if (e.data && e.data.kind === 'progress') progressSeen.push(e.data.json);
	}),
	new MutationObserver(() => {
		const rows = document.querySelectorAll('section.early tr[data-graph]');
		if (earlySeen || !rows.length) return;
		earlySeen = {ends: document.querySelector('.imas').dataset.ends,
			text: document.querySelector('section.early h2').textContent,
			rows: Object.fromEntries([...rows].map(tr => [tr.dataset.graph,
				Object.fromEntries([...tr.querySelectorAll('[data-field]')].map(td => [td.dataset.field, td.dataset.value]))]))};
	}).observe(document.body, {childList: true, subtree: true}), 0)`

// TestEarlyGraphsShown reads a folder of four processes of many graphs
// through two parse workers: graph rows appear while the analysis runs
// (before data-ends moves), each with the figures the final table then
// gives it; the final table is the core's; the engine's last progress
// message counts the report's lines and records (the parse workers
// parsed chunks after the last read); and every message's read rate, by
// which the page says the time left, is the rate of the last five
// seconds.
func TestEarlyGraphsShown(t *testing.T) {
	files := manyGraphRanks(t, 64<<20)
	want := nativeGraphs(t, files...)
	srcs, diags := input.FromPaths(files)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	rep, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := newTab(t, 4*time.Minute)
	b.open(t, "?parsers=2")
	b.eval(t, watchEarly, nil)
	b.load(t, 1, files...)
	final := b.allGraphRows(t)
	checkFigures(t, final, want)
	b.checkParsed(t, 1)

	var early struct {
		Ends string
		Text string
		Rows map[string]map[string]string
	}
	b.eval(t, `earlySeen`, &early)
	if len(early.Rows) == 0 {
		t.Error("no graph row was shown while the logs were read")
	} else if early.Ends != "0" || !strings.Contains(early.Text, "finished") {
		t.Errorf("the early rows came with data-ends=%q, heading %q", early.Ends, early.Text)
	}
	for id, row := range early.Rows {
		f, ok := final[id]
		if !ok {
			t.Errorf("%s shown early, not in the final table", id)
			continue
		}
		for k, v := range row {
			if f[k] != v {
				t.Errorf("%s: %s %s shown early, %s at the end", id, k, v, f[k])
			}
		}
		if row["memory_size"] == "" || row["theory_min"] == "" {
			t.Errorf("%s shown early without its figures: %v", id, row)
		}
	}
	t.Logf("%d graphs in all; the first early rows (%d): %s", len(final), len(early.Rows), early.Text)

	var seen []string
	b.eval(t, `progressSeen`, &seen)
	type progress struct {
		Read, Total    int64
		Seconds, Rate  float64
		Lines, Records int64
		Candidates     int64
		Early          *json.RawMessage
	}
	var ps []progress
	for _, text := range seen {
		var p progress
		if err := json.Unmarshal([]byte(text), &p); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	last := ps[len(ps)-1]
	if in := rep.Inputs; last.Lines != in.Lines || last.Records != in.Records || last.Candidates != in.Candidates {
		t.Errorf("last progress: %d lines, %d candidates, %d records; the report has %d, %d, %d", last.Lines, last.Candidates, last.Records, in.Lines, in.Candidates, in.Records)
	}
	if last.Early != nil {
		t.Error("the last progress message carries early graphs")
	}
	// The rate is the bytes read since the latest message at least 5 s
	// (engine.RateWindow) older, over the time between; the rate so far
	// until there is a second of messages.
	for k, p := range ps {
		j := 0
		for j+1 < k && p.Seconds-ps[j+1].Seconds >= 5 {
			j++
		}
		want := float64(p.Read) / p.Seconds
		if span := p.Seconds - ps[j].Seconds; span >= 1 {
			want = float64(p.Read-ps[j].Read) / span
		}
		if math.Abs(p.Rate-want) > 1e-6*want+1 {
			t.Errorf("progress %d at %.2fs: rate %.0f B/s, want %.0f (read %d, the window's first %d at %.2fs)", k, p.Seconds, p.Rate, want, p.Read, ps[j].Read, ps[j].Seconds)
		}
	}
	b.clean(t)
}

// TestReaderWatchdog starts the reader worker as one that says it is
// ready and never answers (?readstall): the watchdog gives it up after
// ?readtimeout ms, the engine reads the Files itself, the analysis ends
// with the sample's figures, and the page says that the reader stopped
// answering (reader_stalled in the last progress).
func TestReaderWatchdog(t *testing.T) {
	files, want := sample(t, "mixed")
	b := newTab(t, 2*time.Minute)
	b.open(t, "?readstall&readtimeout=1500")
	b.load(t, 1, files...)
	checkFigures(t, b.shownGraphs(t), want)
	var progress, note string
	b.eval(t, `imasPage.progress`, &progress)
	b.eval(t, `(document.querySelector('.note')||{}).textContent||''`, &note)
	var got struct {
		ReaderStalled bool `json:"reader_stalled"`
	}
	if err := json.Unmarshal([]byte(progress), &got); err != nil {
		t.Fatal(err)
	}
	if !got.ReaderStalled || !strings.Contains(note, "file reader stopped answering") {
		t.Errorf("last progress %s, note %q: want the reader given up and said", progress, note)
	}
	// The next analysis reads in the engine from the start.
	b.load(t, 2, files...)
	checkFigures(t, b.shownGraphs(t), want)
	b.clean(t)
}
