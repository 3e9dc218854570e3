package engine

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"imas/core/analyze"
	"imas/core/model"
)

// MapMeta describes the rectangles of a memory map. The rectangles
// themselves travel as one binary buffer (see encodeMap) so that the page
// copies them to JavaScript once instead of crossing into JS per rectangle.
type MapMeta struct {
	N          int      `json:"n"`
	Subject    string   `json:"subject"`  // graph or pool
	ID         int      `json:"id"`       // the graph's or pool's index in its run
	ColorBy    string   `json:"color_by"` // optype, stream or kernel
	Legend     []string `json:"legend"`   // colour index → name; the last may be "other"
	MaxStep    int64    `json:"max_step"` // x extent (exclusive)
	MaxOffset  int64    `json:"max_offset"`
	MemorySize int64    `json:"memory_size"` // a horizontal line; 0 for none
	PeakStep   int64    `json:"peak_step"`   // -1 when unknown
	PeakLive   int64    `json:"peak_live"`
	Base       int64    `json:"base"` // pools: the address y = 0 stands for
	// Clock names the x axis: "step" (a graph's lifetime steps), "time" (a
	// pool's log time: µs after TimeOrigin) or "allocation" (a pool's
	// allocation order, when some of its events carry no time).
	Clock string `json:"clock"`
	// TimeOrigin is the log time x = 0 stands for on the "time" clock (µs
	// since 2000-01-01, the log's local time, as model.PoolRow.Time).
	TimeOrigin int64 `json:"time_origin_us,omitempty"`
	// Live is a graph's live bytes over its steps (the timeline above the
	// map), TheoryMin its line; none for pools.
	Live      *Live `json:"live,omitempty"`
	TheoryMin int64 `json:"theory_min"`
}

// Rectangle flags (the third Int32 of a rectangle).
const (
	FlagConflict = 1 << iota
	FlagNoReuse
	FlagZeroCopy
	FlagIsRef
	FlagForever // lives to the end (a graph's ∞ lifetime, a pool's leak)
)

// MapColors is how many legend entries get their own colour; the rest
// share an "other" colour.
const MapColors = 12

// mapRect is one rectangle before encoding: x = [x0, x1) steps, y = [y0,
// y1) bytes; row indexes the subject's rows.
type mapRect struct {
	row, color, flags, stream int32
	x0, x1, y0, y1            int64
}

// Map returns the memory map of graph i of slot: one rectangle per row,
// x = lifetime steps [begin, end+1), y = bytes [offset, offset+size).
// Conflicting rows come last so they are drawn on top.
func (s *Session) Map(slot string, i int, colorBy string) (*MapMeta, []byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.rows(slot, i)
	if err != nil {
		return nil, nil, err
	}
	if colorBy != "stream" {
		colorBy = "optype"
	}
	marks := s.conflicted(slot, i, g)
	rows := g.Rows
	meta := &MapMeta{N: len(rows), Subject: "graph", ID: i, ColorBy: colorBy, MemorySize: g.MemorySize, PeakStep: -1,
		Live: LiveCurve(g), TheoryMin: g.TheoryMin, Clock: "step"}
	name := func(r *model.Row) string { return r.OpType }
	if colorBy == "stream" {
		name = func(r *model.Row) string { return strconv.FormatInt(r.Stream, 10) }
	}
	legend, colorOf := legendOf(len(rows), func(k int) (string, int64) { return name(&rows[k]), rows[k].Size })
	meta.Legend = legend
	if g.Peak != nil {
		meta.PeakStep, meta.PeakLive = g.Peak.Step, g.Peak.Live
	} else if live, step := analyze.PeakStep(rows); live > 0 {
		meta.PeakStep, meta.PeakLive = step, live
	}
	mx := analyze.MaxFinite(rows)
	rs := make([]mapRect, len(rows))
	for k := range rows {
		r := &rows[k]
		b, e := analyze.Interval(r, max(mx, r.LifeBegin))
		f := int32(0)
		if marks[r.Key()] {
			f |= FlagConflict
		}
		if r.Reuse == 0 {
			f |= FlagNoReuse
		}
		if r.ZeroCopy != 0 {
			f |= FlagZeroCopy
		}
		if r.IsRef != 0 {
			f |= FlagIsRef
		}
		if model.IsInfinite(r.LifeEnd) {
			f |= FlagForever
		}
		rs[k] = mapRect{row: int32(k), color: colorOf(k), flags: f, stream: int32(r.Stream),
			x0: b, x1: e + 1, y0: r.Offset, y1: r.Offset + r.Size}
	}
	extent(meta, rs)
	meta.MaxOffset = max(meta.MaxOffset, g.MemorySize)
	return meta, encodeMap(rs, func(b []byte, k int32) []byte {
		r := &rows[k]
		b = append(append(append(append(b, r.Node...), ':'), r.Kind...), ':')
		return append(append(strconv.AppendInt(b, r.Index, 10), '\n'), r.OpType...)
	}), nil
}

// PoolMap returns the map of pool i of slot: one rectangle per allocation,
// x = log time, from the allocation to its free, y = the block's address
// above the pool's lowest one. Blocks never freed run to the pool's last
// event. A pool with an event without a time is drawn on its allocation
// clock instead, [Begin, End).
func (s *Session) PoolMap(slot string, i int) (*MapMeta, []byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	run := s.runs[slot]
	if run == nil {
		return nil, nil, ErrNoRun
	}
	if i < 0 || i >= len(run.Report.Pools) {
		return nil, nil, fmt.Errorf("no pool %d", i)
	}
	p := run.Report.Pools[i]
	rows := p.Rows
	// Coloured by what matters in a pool: blocks freed, and blocks never
	// freed (leaks); the kernel of each is on its hover card.
	meta := &MapMeta{N: len(rows), Subject: "pool", ID: i, ColorBy: "state", PeakStep: -1, PeakLive: p.PeakLive,
		Legend: []string{"freed block", "never freed (leak)"}, Clock: "allocation"}
	addr := make([]int64, len(rows))
	base := int64(math.MaxInt64)
	var end, theory int64
	peak := -1
	for k := range rows {
		a, err := strconv.ParseUint(strings.TrimPrefix(rows[k].Address, "0x"), 16, 63)
		if err != nil {
			return nil, nil, fmt.Errorf("pool %s: address %q: %v", p.Allocator, rows[k].Address, err)
		}
		addr[k] = int64(a)
		base = min(base, addr[k])
		if rows[k].End < model.LifeMax {
			end = max(end, rows[k].End)
		}
		end = max(end, rows[k].Begin+1)
		if rows[k].Theory > theory {
			theory, peak = rows[k].Theory, k
		}
	}
	meta.Base = base
	origin, last, timed := poolTimes(rows)
	if timed {
		meta.Clock, meta.TimeOrigin = "time", origin
		meta.Live = poolLiveTime(rows, origin)
	} else {
		meta.Live = poolLive(rows)
	}
	if peak >= 0 {
		meta.PeakStep = rows[peak].Begin
		if timed {
			meta.PeakStep = rows[peak].Time - origin
		}
	}
	rs := make([]mapRect, len(rows))
	for k := range rows {
		r := &rows[k]
		x0, x1, f, color := r.Begin, r.End, int32(0), int32(0)
		if timed {
			x0, x1 = r.Time-origin, r.FreeTime-origin
		}
		if !r.KernelFree || x1 >= model.LifeMax {
			x1, f, color = end, FlagForever, 1
			if timed {
				x1 = last - origin
			}
		}
		if !timed {
			x1 = max(x1, x0+1)
		}
		rs[k] = mapRect{row: int32(k), color: color, flags: f, stream: int32(r.Stream),
			x0: x0, x1: max(x1, x0), y0: addr[k] - base, y1: addr[k] - base + r.Size}
	}
	extent(meta, rs)
	if timed {
		// A block allocated and freed within one µs has no width: it is
		// still drawn (memmap.js draws at least a pixel), and the view
		// reaches one µs past the last event.
		meta.MaxStep = max(meta.MaxStep, last-origin+1)
	}
	return meta, encodeMap(rs, func(b []byte, k int32) []byte {
		r := &rows[k]
		return append(append(append(append(append(b, r.Node...), " @"...), r.Address...), '\n'), r.Kernel...)
	}), nil
}

// poolTimes is the log time of a pool's first and last event; timed says
// whether every allocation and every free of it has a time.
func poolTimes(rows []model.PoolRow) (first, last int64, timed bool) {
	first = math.MaxInt64
	for k := range rows {
		r := &rows[k]
		if r.Time <= 0 || r.KernelFree && r.FreeTime <= 0 {
			return 0, 0, false
		}
		first, last = min(first, r.Time), max(last, r.Time)
		if r.KernelFree {
			first, last = min(first, r.FreeTime), max(last, r.FreeTime)
		}
	}
	return first, last, len(rows) > 0
}

func extent(meta *MapMeta, rs []mapRect) {
	for _, r := range rs {
		meta.MaxStep = max(meta.MaxStep, r.x1)
		meta.MaxOffset = max(meta.MaxOffset, r.y1)
	}
}

// encodeMap lays the rectangles out for the page (memmap.js), conflicts
// last and otherwise grouped by colour, so the canvas changes fillStyle
// rarely. Layout (little-endian), for N rectangles:
//
//	[0, 32N)       Float64 x0, x1, y0, y1 per rectangle
//	[32N, 48N)     Int32 row index, colour index, flags, stream
//	[48N, 52N+4)   Uint32 label offsets (N+1) into the label bytes
//	[52N+4, ...)   UTF-8 labels "name\nkind", appended by label(dst, row)
func encodeMap(rs []mapRect, label func([]byte, int32) []byte) []byte {
	n := len(rs)
	buf := make([]byte, 52*n+4, 52*n+4+32*n)
	le := binary.LittleEndian
	text := buf[52*n+4:]
	for k, i := range drawOrder(rs) {
		r := &rs[i]
		for j, v := range []int64{r.x0, r.x1, r.y0, r.y1} {
			le.PutUint64(buf[32*k+8*j:], math.Float64bits(float64(v)))
		}
		for j, v := range []int32{r.row, r.color, r.flags, r.stream} {
			le.PutUint32(buf[32*n+16*k+4*j:], uint32(v))
		}
		le.PutUint32(buf[48*n+4*k:], uint32(len(text)))
		text = label(text, r.row)
	}
	le.PutUint32(buf[48*n+4*n:], uint32(len(text)))
	return append(buf, text...)
}

// drawOrder is the order rectangles are drawn in: conflicts last, the
// others grouped by colour, each group in the order of rs. Colours are few,
// so it is a counting sort: linear, and no sort code of its own in the
// page's WebAssembly.
func drawOrder(rs []mapRect) []int32 {
	colors := int32(1)
	for i := range rs {
		colors = max(colors, rs[i].color+1)
	}
	group := func(r *mapRect) int32 { return r.flags&FlagConflict*colors + max(r.color, 0) }
	start := make([]int32, 2*colors+1)
	for i := range rs {
		start[group(&rs[i])+1]++
	}
	for g := 1; g < len(start); g++ {
		start[g] += start[g-1]
	}
	order := make([]int32, len(rs))
	for i := range rs {
		g := group(&rs[i])
		order[start[g]] = int32(i)
		start[g]++
	}
	return order
}

// legendOf ranks the names of n items by the bytes they occupy and gives
// the first MapColors-1 their own colour; item k has name and size of(k).
func legendOf(n int, of func(k int) (string, int64)) ([]string, func(k int) int32) {
	bytes := map[string]int64{}
	for k := 0; k < n; k++ {
		name, size := of(k)
		bytes[name] += size
	}
	names := make([]string, 0, len(bytes))
	for k := range bytes {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(bytes[b], bytes[a]), cmp.Compare(a, b)) })
	if len(names) > MapColors {
		names = append(names[:MapColors-1:MapColors-1], "other")
	}
	index := make(map[string]int32, len(names))
	for k, nm := range names {
		index[nm] = int32(k)
	}
	other := int32(len(names) - 1)
	return names, func(k int) int32 {
		name, _ := of(k)
		if c, ok := index[name]; ok {
			return c
		}
		return other
	}
}
