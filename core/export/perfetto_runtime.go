package export

import (
	"slices"
	"strconv"
	"time"

	"imas/core/model"
)

// The runtime part of the trace: per log process, one trace process on log
// time with the RT2 pool allocations as async slices (one group per
// allocator, packed by Perfetto), live-byte counters per allocator, the
// device memory held (cumulative device mallocs per category) and each
// device malloc as an instant. Log time is rebased to the first runtime
// event, so that it starts at 0 like the graphs' step axis; the origin is
// in the process names and the trace metadata.

// runtimeProcesses is how many processes runtime writes: one per log pid
// with pool allocations or device mallocs.
func runtimeProcesses(rep *model.Report) (int64, error) {
	pids, err := runtimePIDs(rep)
	return int64(len(pids)), err
}

// runtimePIDs lists the log pids with timed runtime events, in first-seen
// order (pools, then mallocs).
func runtimePIDs(rep *model.Report) ([]string, error) {
	var pids []string
	seen := map[string]bool{}
	add := func(pid string) {
		if !seen[pid] {
			seen[pid] = true
			pids = append(pids, pid)
		}
	}
	for _, pl := range rep.Pools {
		rd := pl.RowReader()
		for r := rd.Next(); r != nil; r = rd.Next() {
			if r.Time > 0 {
				add(pl.PID)
				break
			}
		}
		if err := rd.Err(); err != nil {
			return nil, err
		}
	}
	for i := range rep.Mallocs {
		if rep.Mallocs[i].Time > 0 {
			add(rep.Mallocs[i].PID)
		}
	}
	return pids, nil
}

// runtime writes the runtime processes and returns the log time of trace
// time 0 ("" when there is no runtime event). Events whose line had no
// readable timestamp (time 0) are left out.
func (p *perfetto) runtime(rep *model.Report) (string, error) {
	pids, err := runtimePIDs(rep)
	if len(pids) == 0 || err != nil {
		return "", err
	}
	var first, last int64
	see := func(t int64) {
		if t <= 0 {
			return
		}
		if first == 0 || t < first {
			first = t
		}
		last = max(last, t)
	}
	for _, pl := range rep.Pools {
		rd := pl.RowReader()
		for r := rd.Next(); r != nil; r = rd.Next() {
			see(r.Time)
			see(r.FreeTime)
		}
		if err := rd.Err(); err != nil {
			return "", err
		}
	}
	for i := range rep.Mallocs {
		see(rep.Mallocs[i].Time)
	}
	origin := logTime(first)
	for _, pid := range pids {
		tp := p.process("pid " + pid + " RT2 pools and device mallocs, log time from " + origin)
		for _, pl := range rep.Pools {
			if pl.PID == pid {
				if err := p.pool(pl, tp, first, last); err != nil {
					return "", err
				}
			}
		}
		p.mallocs(rep.Mallocs, pid, tp, first)
	}
	return origin, nil
}

// logTime formats a plog timestamp (µs since 2000-01-01, the log's local
// time) like the logs do.
func logTime(us int64) string {
	return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(us) * time.Microsecond).Format("2006-01-02 15:04:05.000000")
}

// pool writes one allocator's allocations as async slices named after the
// allocator, so Perfetto shows them as one group (packing overlaps into
// rows), and its live bytes. Allocations never freed end at the last
// runtime event, flagged leaked.
func (p *perfetto) pool(pl *model.Pool, pid, first, last int64) error {
	t := p.t
	deltas := p.deltas[:0]
	rd := pl.RowReader()
	for r := rd.Next(); r != nil; r = rd.Next() {
		if r.Time <= 0 || p.poolCut > 0 && r.Time >= p.poolCut {
			continue
		}
		end := max(r.FreeTime, r.Time)
		if r.FreeTime <= 0 {
			end = last
		}
		p.asyncID++
		id := strconv.FormatInt(p.asyncID, 10)
		t.begin('b', r.Time-first)
		t.num("pid", pid)
		t.str("cat", "rt2_pool")
		t.str("id", id)
		t.str("name", pl.Allocator)
		t.args()
		t.str("node", r.Node)
		t.str("kernel", r.Kernel)
		t.str("address", r.Address)
		t.num("size", r.Size)
		t.num("realsize", r.RealSize)
		t.num("stream", r.Stream)
		if r.FreeTime <= 0 {
			t.boolean("leaked", true)
		}
		t.num("line", r.Line)
		t.end()
		t.begin('e', end-first)
		t.num("pid", pid)
		t.str("cat", "rt2_pool")
		t.str("id", id)
		t.str("name", pl.Allocator)
		t.end()
		deltas = append(deltas, delta{r.Time, r.Size, r.RealSize})
		if r.FreeTime > 0 {
			deltas = append(deltas, delta{end, -r.Size, -r.RealSize})
		}
	}
	if err := rd.Err(); err != nil {
		return err
	}
	// Changes at one time are applied together: a block freed and reused
	// within the same microsecond is not counted twice.
	slices.SortFunc(deltas, func(a, b delta) int { return cmpInt(a.t, b.t) })
	// With a cut, the counters stop at it: the allocations after it are
	// not drawn, so later values would be wrong.
	if p.poolCut > 0 {
		n, _ := slices.BinarySearchFunc(deltas, p.poolCut, func(d delta, t int64) int { return cmpInt(d.t, t) })
		deltas = deltas[:n]
	}
	var live, requested int64
	for i, d := range deltas {
		live += d.bytes
		requested += d.requested
		if i+1 < len(deltas) && deltas[i+1].t == d.t {
			continue
		}
		t.begin('C', d.t-first)
		t.num("pid", pid)
		t.str("name", "pool "+pl.Allocator)
		t.args()
		t.num("live", live)
		t.num("requested", requested)
		t.end()
	}
	p.deltas = deltas
	return nil
}

// delta is a change of a byte counter at a log time.
type delta struct{ t, bytes, requested int64 }

// mallocs writes pid's device mallocs as instants on the process, and the
// device memory held per category: the running sum of the counted mallocs
// (the logs show no matching frees, so it only grows).
func (p *perfetto) mallocs(ms []model.Malloc, pid string, tp, first int64) {
	t := p.t
	idx := p.idx[:0]
	for i := range ms {
		if ms[i].PID == pid && ms[i].Time > 0 {
			idx = append(idx, int32(i))
		}
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return cmpInt(ms[a].Time, ms[b].Time) })
	held := map[string]int64{}
	for _, i := range idx {
		m := &ms[i]
		name := m.Purpose
		if name == "" {
			name = m.Func
		}
		t.begin('i', m.Time-first)
		t.num("pid", tp)
		t.str("s", "p")
		t.str("name", name)
		t.str("cat", "device_malloc")
		t.args()
		t.str("func", m.Func)
		t.str("caller", m.Caller)
		t.str("purpose", m.Purpose)
		t.str("category", m.Category)
		t.boolean("counted", m.Counted)
		t.num("size", m.Size)
		if m.Ptr != "" {
			t.str("ptr", m.Ptr)
		}
		t.num("device_id", m.DeviceID)
		t.num("line", m.Line)
		t.end()
		if !m.Counted {
			continue
		}
		held[m.Category] += m.Size
		t.begin('C', m.Time-first)
		t.num("pid", tp)
		t.str("name", "held")
		t.args()
		t.num(m.Category, held[m.Category])
		t.end()
	}
	p.idx = idx
}
