package model

import "sort"

// PoolRowStore holds allocation rows of pools moved out of memory while
// the model is built (a spill store, core/spill). Builder.PoolRows moves
// each pool's oldest rows to it in batches, in allocation order; the
// writers read them back through Pool.RowReader. Both methods are safe for
// concurrent use.
type PoolRowStore interface {
	// PutPoolRows appends rows, the next ones of p in allocation order.
	PutPoolRows(p *Pool, rows []PoolRow) error
	// PoolRowBatch returns the i-th batch put for p, in buf's storage when
	// it is large enough.
	PoolRowBatch(p *Pool, i int, buf []PoolRow) ([]PoolRow, error)
}

// poolRowBatch is how many rows a pool moves to its store at a time. A
// pool keeps in memory between one and two batches of its latest rows:
// most allocations are freed within a few hundred allocations of their
// own, so a row is nearly always final when it moves, and a change that
// comes later is kept as a patch (poolPatch).
const poolRowBatch = 256

// poolMoved is what a pool whose rows go to a store keeps of them.
type poolMoved struct {
	store PoolRowStore
	n     int64 // rows in the store: those with Begin < n; Pool.Rows starts at n
	// patches are the changes to moved rows, in the order they were made
	// until the build finishes, then stably sorted by row.
	patches []poolPatch
}

// poolPatch is a change to an allocation row after it moved: what a free
// sets (end, free time, the kernel or pool flag) or a flag alone.
type poolPatch struct {
	begin, end, freeTime int64
	set                  uint8
}

const (
	patchEnd uint8 = 1 << iota // End and FreeTime
	patchKernelFree
	patchPoolFree
)

func (pt *poolPatch) apply(r *PoolRow) {
	if pt.set&patchEnd != 0 {
		r.End, r.FreeTime = pt.end, pt.freeTime
	}
	if pt.set&patchKernelFree != 0 {
		r.KernelFree = true
	}
	if pt.set&patchPoolFree != 0 {
		r.PoolFree = true
	}
}

// change applies pt to row pt.begin of the pool: in place while it is in
// memory, as a patch once it moved. Not inlined: its three callers would
// each carry a copy into the page's wasm, for no measurable gain.
//
//go:noinline
func (p *Pool) change(pt poolPatch) {
	var moved int64
	if m := p.moved; m != nil {
		moved = m.n
		if pt.begin < moved {
			m.patches = append(m.patches, pt)
			return
		}
	}
	pt.apply(&p.Rows[pt.begin-moved])
}

// moveOldRows moves the pool's oldest batch of rows to its store once two
// batches are in memory.
func (p *Pool) moveOldRows() {
	m := p.moved
	if m == nil || len(p.Rows) < 2*poolRowBatch {
		return
	}
	m.store.PutPoolRows(p, p.Rows[:poolRowBatch]) // an error stays in the store and fails the run
	n := copy(p.Rows, p.Rows[poolRowBatch:])
	clear(p.Rows[n:]) // the moved rows' names are no longer held
	p.Rows = p.Rows[:n]
	m.n += poolRowBatch
}

// finishMoved orders the patches by row for PoolRowReader.
func (p *Pool) finishMoved() {
	if m := p.moved; m != nil {
		// sort.SliceStable, not a generic sort: the page links this code,
		// and an instance of slices' stable sort for one type costs it
		// kilobytes.
		sort.SliceStable(m.patches, func(i, j int) bool { return m.patches[i].begin < m.patches[j].begin })
	}
}

// RowCount is the pool's number of allocation rows, in memory or moved.
func (p *Pool) RowCount() int {
	if m := p.moved; m != nil {
		return int(m.n) + len(p.Rows)
	}
	return len(p.Rows)
}

// RowsNil reports whether the pool has no row list at all (report.json's
// "rows": null), as opposed to an empty one.
func (p *Pool) RowsNil() bool { return p.Rows == nil && p.moved == nil }

// RowReader returns a reader of the pool's allocation rows in allocation
// order, the rows that moved to a store read back (their changes since
// applied), then those in memory:
//
//	rd := p.RowReader()
//	for r := rd.Next(); r != nil; r = rd.Next() { ... }
//	if err := rd.Err(); err != nil { ... }
func (p *Pool) RowReader() PoolRowReader {
	if p.moved == nil {
		return PoolRowReader{p: p, rows: p.Rows, inMemory: true}
	}
	return PoolRowReader{p: p}
}

// PoolRowReader reads a pool's rows (Pool.RowReader).
type PoolRowReader struct {
	p        *Pool
	rows     []PoolRow // the batch being read, or Pool.Rows once inMemory
	i        int       // the next row of rows
	batch    int       // the next moved batch to read
	inMemory bool
	patches  []poolPatch // the moved rows' changes not yet applied
	err      error
}

// Next returns the next row, nil after the last one or on an error (Err).
// The row is the caller's until the next call.
func (rd *PoolRowReader) Next() *PoolRow {
	for rd.i >= len(rd.rows) {
		if rd.inMemory || rd.err != nil {
			return nil
		}
		m := rd.p.moved
		if rd.batch == 0 {
			rd.patches = m.patches
		}
		if int64(rd.batch*poolRowBatch) >= m.n {
			rd.rows, rd.i, rd.inMemory = rd.p.Rows, 0, true
			continue
		}
		rd.rows, rd.err = m.store.PoolRowBatch(rd.p, rd.batch, rd.rows[:0])
		rd.batch++
		rd.i = 0
	}
	r := &rd.rows[rd.i]
	rd.i++
	for len(rd.patches) > 0 && rd.patches[0].begin <= r.Begin {
		if rd.patches[0].begin == r.Begin {
			rd.patches[0].apply(r)
		}
		rd.patches = rd.patches[1:]
	}
	return r
}

// Err is the store's error that ended the rows early, if any.
func (rd *PoolRowReader) Err() error { return rd.err }

// WithoutRows is a copy of p with an empty row list (its figures stay).
func (p *Pool) WithoutRows() *Pool {
	c := *p
	c.Rows, c.moved = []PoolRow{}, nil
	return &c
}
