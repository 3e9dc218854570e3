package export

import (
	"cmp"
	"slices"
	"strconv"

	"imas/core/model"
)

// TraceScope says which graphs a trace shows. A trace of every tensor of
// gigabytes of logs is too big for Perfetto's UI to load, and the largest
// graphs are the ones whose memory matters.
type TraceScope struct {
	// Graphs is how many graphs, the largest by rows, the trace keeps:
	// AutoGraphs keeps them all while their rows total at most
	// AutoTraceRowsJSON (AutoTraceRowsProto for the protobuf trace), else
	// the largest that fit (at least one); AllGraphs keeps every graph.
	Graphs int
}

// Values of TraceScope.Graphs besides a count.
const (
	AutoGraphs = 0
	AllGraphs  = -1
)

// The tensor rows an automatic trace holds at most: a JSON trace takes
// about 600 bytes a row (its slice, args and share of the counters), a
// protobuf trace about half, so either stays near 150 MB, which the UI
// opens.
const (
	AutoTraceRowsJSON  = 250_000
	AutoTraceRowsProto = 500_000
)

// The RT2 pool allocations a trace holds at most, unless every graph is
// asked for (AllGraphs): pool-heavy logs hold millions, each a slice and
// two counter values. Beyond it the trace keeps the earliest allocations,
// so that what it shows up to the cut is complete.
const (
	AutoTracePoolRowsJSON  = 150_000
	AutoTracePoolRowsProto = 300_000
)

// traceLimits are the automatic scope's limits of one trace format.
type traceLimits struct{ rows, poolRows int }

var (
	jsonLimits  = traceLimits{AutoTraceRowsJSON, AutoTracePoolRowsJSON}
	protoLimits = traceLimits{AutoTraceRowsProto, AutoTracePoolRowsProto}
)

// poolCut returns the log time from which pool allocations are left out
// (0: none is) and a note saying so. Allocations starting before the cut
// are drawn, at most limit of them.
func (sc TraceScope) poolCut(pools []*model.Pool, limit int) (cut int64, note string, err error) {
	if sc.Graphs < 0 {
		return 0, "", nil
	}
	// Only the limit+1 earliest starts decide the cut: the list is cut
	// back to them whenever it holds twice as many, so that it does not
	// grow with the allocations.
	keep := limit + 1
	var starts []int64
	total := 0
	for _, pl := range pools {
		rd := pl.RowReader()
		for r := rd.Next(); r != nil; r = rd.Next() {
			if t := r.Time; t > 0 {
				total++
				starts = append(starts, t)
				if len(starts) >= 2*keep {
					slices.Sort(starts)
					starts = starts[:keep]
				}
			}
		}
		if err := rd.Err(); err != nil {
			return 0, "", err
		}
	}
	if total <= limit {
		return 0, "", nil
	}
	slices.Sort(starts)
	cut = starts[limit] // the first left out; allocations at that time too
	kept, _ := slices.BinarySearch(starts, cut)
	return cut, strconv.Itoa(total-kept) + " of " + strconv.Itoa(total) +
		" RT2 pool allocations (those from log time " + logTime(cut) + " on) left out of this trace; the pools' figures in report.json count them all (imas report -trace-graphs all draws every one)", nil
}

// joinNotes joins the notes of what a trace leaves out.
func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// graphs returns which graphs to write (nil: all) and, when some are left
// out, a note saying which.
func (sc TraceScope) graphs(rep *model.Report, autoRows int) (keep []bool, note string) {
	gs := rep.Graphs
	if sc.Graphs < 0 || len(gs) == 0 {
		return nil, ""
	}
	order := make([]int, len(gs))
	for i := range order {
		order[i] = i
	}
	rows := make([]int, len(gs))
	for i, g := range gs {
		rows[i] = rep.RowCount(g)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rows[b], rows[a]) })
	keep = make([]bool, len(gs))
	var kept, leftRows int
	left := 0
	for k, i := range order {
		n := rows[i]
		fits := sc.Graphs > 0 && k < sc.Graphs || sc.Graphs == AutoGraphs && (k == 0 || kept+n <= autoRows)
		if fits {
			keep[i] = true
			kept += n
			continue
		}
		left++
		leftRows += n
	}
	if left == 0 {
		return nil, ""
	}
	return keep, strconv.Itoa(left) + " of " + strconv.Itoa(len(gs)) + " graphs (" + strconv.Itoa(leftRows) +
		" tensor rows) left out of this trace; the largest " + strconv.Itoa(len(gs)-left) +
		" are shown (imas report -trace-graphs N or all)"
}
