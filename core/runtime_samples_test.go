package core_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"imas/core"
	"imas/core/input"
	"imas/core/model"
)

// runtimeTruth is the load- and run-time part of testdata/samples/*/truth.json.
type runtimeTruth struct {
	Variables []struct {
		PID     int64 `json:"pid"`
		Session int64 `json:"session"`
		Count   int64 `json:"count"`
		SizeSum int64 `json:"size_sum"`
		AreaEnd int64 `json:"area_end"`
	} `json:"variables"`
	Malloc []struct {
		PID      int64  `json:"pid"`
		Category string `json:"category"`
		Bytes    int64  `json:"bytes"`
	} `json:"malloc"`
	Regions []struct {
		PID     int64  `json:"pid"`
		GraphID int64  `json:"graph_id"`
		Type    string `json:"type"`
		Base    string `json:"base"`
		Size    int64  `json:"size"`
	} `json:"regions"`
	Addresses []struct {
		PID     int64 `json:"pid"`
		GraphID int64 `json:"graph_id"`
		Checked int64 `json:"checked"`
		Invalid []struct {
			GraphID int64  `json:"graph_id"`
			Name    string `json:"name"`
			Kind    string `json:"kind"`
			Index   int64  `json:"index"`
			MemAddr string `json:"memaddr"`
		} `json:"invalid"`
	} `json:"addresses"`
	Pools []struct {
		PID       int64  `json:"pid"`
		Allocator string `json:"allocator"`
		Allocs    int64  `json:"allocs"`
		Frees     int64  `json:"frees"`
		Total     int64  `json:"total"`
		PeakLive  int64  `json:"peak_live"`
		Leaked    int64  `json:"leaked"`
	} `json:"pools"`
	Devmm []struct {
		PID     int64  `json:"pid"`
		MemType string `json:"memtype"`
		Module  string `json:"module"`
		Peak    int64  `json:"peak"`
		Current int64  `json:"current"`
	} `json:"devmm"`
}

// TestRuntimeSamplesMatchTruth checks variables, device mallocs by
// category, regions, address checks, pools and devmm of every bundled
// sample against its truth.json, as sets of formatted entries.
func TestRuntimeSamplesMatchTruth(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/samples/*")
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			checkRuntimeTruth(t, dir, analyzeDir(t, dir))
		})
	}
}

func setOf(m map[string]int64) []string {
	var s []string
	for k, v := range m {
		s = append(s, k+"="+strconv.FormatInt(v, 10))
	}
	return s
}

func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

// TestRuntimeDisorderedLines feeds the runtime records in a shuffled order
// with some lines cut short (frees before allocations, addresses before
// regions, pages freed twice, ...): the run must complete and account for
// every candidate line.
func TestRuntimeDisorderedLines(t *testing.T) {
	var lines [][]byte
	for _, f := range []string{"../testdata/golden/runtime/input/debug/plog-3000_20260812100000000.log",
		"../testdata/golden/runtime/input/run/plog-3000_20260812100100000.log",
		"../testdata/samples/pool/plog-5151_20261202080000000.log"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.Split(bytes.TrimSpace(b), []byte("\n"))...)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 20; round++ {
		rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		var buf bytes.Buffer
		for _, l := range lines {
			if rng.IntN(8) == 0 {
				l = l[:rng.IntN(len(l)+1)]
			}
			buf.Write(l)
			buf.WriteByte('\n')
		}
		rep, err := core.Analyze(context.Background(), []input.Source{input.BytesSource("shuffled.log", buf.Bytes())}, core.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if in := rep.Inputs; in.Candidates != in.Records+in.Rejected {
			t.Fatalf("round %d: %d candidates != %d records + %d rejected", round, in.Candidates, in.Records, in.Rejected)
		}
		if n := rep.DiagSummary["unhandled-record"]; n > 0 {
			t.Fatalf("round %d: %d unhandled records", round, n)
		}
	}
}

// checkRuntimeTruth compares the load- and run-time parts of rep with
// dir/truth.json.
func checkRuntimeTruth(t *testing.T, dir string, rep *model.Report) {
	t.Helper()
	var tr runtimeTruth
	b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatal(err)
	}
	if rep.Inputs.Rejected != 0 {
		t.Errorf("%d rejected candidate lines, want 0", rep.Inputs.Rejected)
	}
	for reason, n := range rep.DiagSummary {
		if reason == "unhandled-record" || reason == "unrecognised" {
			t.Errorf("%d diagnostics %q", n, reason)
		}
	}

	var want, got []string
	for _, v := range tr.Variables {
		want = append(want, fmt.Sprintf("%d/session_%d count=%d sum=%d end=%d", v.PID, v.Session, v.Count, v.SizeSum, v.AreaEnd))
	}
	for _, v := range rep.Variables {
		got = append(got, fmt.Sprintf("%s/session_%s count=%d sum=%d end=%d", v.PID, v.Session, v.Count, v.SizeSum, v.AreaEnd))
	}
	sameSet(t, "variables", got, want)

	// truth lists single mallocs; the report sums per category.
	sum := map[string]int64{}
	for _, m := range tr.Malloc {
		sum[fmt.Sprintf("%d/%s", m.PID, m.Category)] += m.Bytes
	}
	want, got = setOf(sum), nil
	gsum := map[string]int64{}
	for _, m := range rep.DeviceMalloc {
		gsum[m.PID+"/"+m.Category] += m.Bytes
	}
	got = setOf(gsum)
	sameSet(t, "device_malloc", got, want)

	want, got = nil, nil
	for _, r := range tr.Regions {
		want = append(want, fmt.Sprintf("%d/graph_%d %s %s %d", r.PID, r.GraphID, r.Type, r.Base, r.Size))
	}
	for _, r := range rep.Regions {
		got = append(got, fmt.Sprintf("%s/graph_%d %s %s %d", r.PID, r.GraphID, r.Type, r.Base, r.Size))
	}
	sameSet(t, "regions", got, want)

	want, got = nil, nil
	for _, a := range tr.Addresses {
		var bad []string
		for _, x := range a.Invalid {
			bad = append(bad, fmt.Sprintf("%d:%s:%s:%d@%s", x.GraphID, x.Name, x.Kind, x.Index, x.MemAddr))
		}
		slices.Sort(bad)
		want = append(want, fmt.Sprintf("%d/graph_%d checked=%d invalid=%v", a.PID, a.GraphID, a.Checked, bad))
	}
	for _, a := range rep.AddressChecks {
		var bad []string
		for _, x := range a.Invalid {
			bad = append(bad, fmt.Sprintf("%d:%s:%s:%d@%s", x.GraphID, x.Name, x.Kind, x.Index, x.MemAddr))
		}
		slices.Sort(bad)
		got = append(got, fmt.Sprintf("%s/graph_%d checked=%d invalid=%v", a.PID, a.GraphID, a.Checked, bad))
		// Every invalid address is off its compile-time offset; no
		// valid one may be reported as a mismatch on the samples.
		for _, m := range a.Mismatches {
			if !slices.ContainsFunc(a.Invalid, func(x model.BadAddress) bool { return x.MemAddr == m.MemAddr && x.Name == m.Name }) {
				t.Errorf("%s graph_%d: false offset mismatch %+v", a.PID, a.GraphID, m)
			}
		}
		if a.Reconciled != a.Checked {
			t.Errorf("%s graph_%d: %d of %d addresses reconciled with the static graph %q", a.PID, a.GraphID, a.Reconciled, a.Checked, a.Graph)
		}
	}
	sameSet(t, "address_checks", got, want)

	want, got = nil, nil
	for _, p := range tr.Pools {
		want = append(want, fmt.Sprintf("%d/%s allocs=%d frees=%d total=%d peak=%d leaked=%d", p.PID, p.Allocator, p.Allocs, p.Frees, p.Total, p.PeakLive, p.Leaked))
	}
	for _, p := range rep.Pools {
		got = append(got, fmt.Sprintf("%s/%s allocs=%d frees=%d total=%d peak=%d leaked=%d", p.PID, p.Allocator, p.Allocs, p.Frees, p.Total, p.PeakLive, p.Leaked))
	}
	sameSet(t, "pools", got, want)

	want, got = nil, nil
	for _, d := range tr.Devmm {
		want = append(want, fmt.Sprintf("%d/%s/%s peak=%d current=%d", d.PID, d.MemType, d.Module, d.Peak, d.Current))
	}
	for _, d := range rep.Devmm {
		if d.Module != "" { // Cached_size entries are not in truth.json
			got = append(got, fmt.Sprintf("%s/%s/%s peak=%d current=%d", d.PID, d.MemType, d.Module, d.Peak, d.Current))
		}
	}
	sameSet(t, "devmm", got, want)
}
