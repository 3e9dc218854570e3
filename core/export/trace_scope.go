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

// graphs returns which graphs to write (nil: all) and, when some are left
// out, a note saying which.
func (sc TraceScope) graphs(gs []*model.Graph, autoRows int) (keep []bool, note string) {
	if sc.Graphs < 0 || len(gs) == 0 {
		return nil, ""
	}
	order := make([]int, len(gs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(gs[b].Rows), len(gs[a].Rows)) })
	keep = make([]bool, len(gs))
	var rows, leftRows int
	left := 0
	for k, i := range order {
		n := len(gs[i].Rows)
		fits := sc.Graphs > 0 && k < sc.Graphs || sc.Graphs == AutoGraphs && (k == 0 || rows+n <= autoRows)
		if fits {
			keep[i] = true
			rows += n
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
