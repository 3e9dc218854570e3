package export

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"imas/core/model"
)

func TestAppendString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"add_11", `"add_11"`},
		{"", `""`},
		{`a"b\c`, `"a\"b\\c"`},
		{"tab\tnl\ncr\r", `"tab\tnl\ncr\r"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f\u007f"`},
		{"</script><script>alert(1)</script>", `"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e"`},
		{"a&b", `"a\u0026b"`},
		{"bad\xffutf8\xc3", "\"bad\uFFFDutf8\uFFFD\""},
		{"line\u2028sep\u2029", `"line\u2028sep\u2029"`},
		// Non-ASCII stays UTF-8: Perfetto rejects escaped surrogates.
		{"卷积_😀", "\"卷积_😀\""},
	} {
		got := string(appendString(nil, tc.in))
		if got != tc.want {
			t.Errorf("appendString(%q) = %s, want %s", tc.in, got, tc.want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Errorf("appendString(%q) = %s: not JSON: %v", tc.in, got, err)
		} else if want := strings.ToValidUTF8(tc.in, "\uFFFD"); back != want {
			t.Errorf("appendString(%q) decodes to %q, want %q", tc.in, back, want)
		}
	}
}

func TestLanes(t *testing.T) {
	type iv struct{ b, e int64 }
	for _, tc := range []struct {
		name string
		in   []iv // sorted by begin, inclusive
		want []int
	}{
		{"reuse chain", []iv{{1, 3}, {4, 6}, {7, 7}}, []int{0, 0, 0}},
		{"inclusive end overlaps", []iv{{1, 3}, {3, 5}}, []int{0, 1}},
		{"alias inside", []iv{{1, 9}, {2, 4}, {5, 6}, {10, 12}}, []int{0, 1, 1, 0}},
		{"lowest free lane", []iv{{1, 10}, {2, 3}, {2, 8}, {4, 5}, {9, 9}}, []int{0, 1, 2, 1, 1}},
		{"same step", []iv{{0, 0}, {0, 0}, {0, 0}, {1, 1}}, []int{0, 1, 2, 0}},
	} {
		var l lanes
		l.reset()
		var got []int
		for _, x := range tc.in {
			got = append(got, l.place(x.b, x.e))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: lanes %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMemTypeName(t *testing.T) {
	for mt, want := range map[int64]string{2: "HBM", 16: "P2P_HBM", 4294967298: "SESSION_HBM", 7: "memtype 7"} {
		if got := MemTypeName(mt); got != want {
			t.Errorf("MemTypeName(%d) = %q, want %q", mt, got, want)
		}
	}
}

func TestConflictList(t *testing.T) {
	keys := []string{"a:output:0", "b:output:0", "c:output:0", "d:output:0", "e:output:0", "f:output:0", "g:output:0", "h:output:0", "i:output:0", "j:output:0"}
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "a:output:0"},
		{8, "a:output:0 b:output:0 c:output:0 d:output:0 e:output:0 f:output:0 g:output:0 h:output:0"},
		{10, "a:output:0 b:output:0 c:output:0 d:output:0 e:output:0 f:output:0 g:output:0 h:output:0 (+2 more)"},
	} {
		if got := conflictList(keys[:tc.n]); got != tc.want {
			t.Errorf("conflictList(%d keys) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestPoolCut: beyond the pool limit the trace keeps the earliest
// allocations, stops the pool's counter at the cut and says what it left
// out; -trace-graphs all keeps every allocation.
func TestPoolCut(t *testing.T) {
	pl := &model.Pool{PID: "7", Allocator: "allocator_1"}
	for i := range int64(5) { // at 10, 20, ... 50 µs, each freed 5 µs later
		pl.Rows = append(pl.Rows, model.PoolRow{Time: 10 * (i + 1), FreeTime: 10*(i+1) + 5, Size: 512, RealSize: 100, Line: i + 1})
	}
	pl.Rows[2].FreeTime = 47 // kept, freed after the cut
	rep := &model.Report{Pools: []*model.Pool{pl}}
	lim := traceLimits{rows: 1000, poolRows: 3}
	for _, tc := range []struct {
		name      string
		sc        TraceScope
		slices    int
		lastCount int64 // log time of the pool counter's last value, from 10
		note      string
	}{
		{"auto", TraceScope{}, 3, 30, "2 of 5 RT2 pool allocations (those from log time "},
		{"largest graph", TraceScope{Graphs: 1}, 3, 30, "2 of 5 RT2 pool allocations"},
		{"all", TraceScope{Graphs: AllGraphs}, 5, 55, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			tw := newTraceWriter(&b)
			tw.raw("[")
			_, note := writePerfettoEvents(tw, rep, tc.sc, lim)
			tw.raw("]")
			if err := tw.flush(); err != nil {
				t.Fatal(err)
			}
			var evs []struct {
				Ph   string
				Ts   int64
				Name string
			}
			if err := json.Unmarshal([]byte(b.String()), &evs); err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			var begins int
			var lastCount int64 = -1
			for _, e := range evs {
				switch {
				case e.Ph == "b":
					begins++
				case e.Ph == "C" && e.Name == "pool allocator_1":
					lastCount = e.Ts
				}
			}
			if begins != tc.slices || lastCount != tc.lastCount-10 || !strings.HasPrefix(note, tc.note) || (tc.note == "") != (note == "") {
				t.Errorf("%d slices, counter up to %d, note %q; want %d, %d, %q…", begins, lastCount, note, tc.slices, tc.lastCount-10, tc.note)
			}
			if tc.note != "" && !strings.Contains(b.String(), "imas: "+note) {
				t.Error("the trace does not name what it left out")
			}
		})
	}
}

// TestPoolCutKeepsTheEarliest: the cut, computed from the earliest starts
// only, is the one of every start sorted: on pools of many allocations in
// no time order (ties and untimed rows among them), for limits far below
// and near their number.
func TestPoolCutKeepsTheEarliest(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var pools []*model.Pool
	var all []int64
	for range 3 {
		pl := &model.Pool{}
		for range 1000 {
			tm := rnd.Int64N(700) // ties, and 0: untimed
			pl.Rows = append(pl.Rows, model.PoolRow{Time: tm})
			if tm > 0 {
				all = append(all, tm)
			}
		}
		pools = append(pools, pl)
	}
	slices.Sort(all)
	for _, limit := range []int{1, 7, 100, 999, len(all) - 1, len(all)} {
		cut, note, err := TraceScope{}.poolCut(pools, limit)
		if err != nil {
			t.Fatal(err)
		}
		var wantCut int64
		wantNote := ""
		if len(all) > limit {
			wantCut = all[limit]
			kept, _ := slices.BinarySearch(all, wantCut)
			wantNote = strconv.Itoa(len(all)-kept) + " of " + strconv.Itoa(len(all)) + " "
		}
		if cut != wantCut || !strings.HasPrefix(note, wantNote) || (wantNote == "") != (note == "") {
			t.Errorf("limit %d: cut %d, note %.30q; want %d, %q…", limit, cut, note, wantCut, wantNote)
		}
	}
}
