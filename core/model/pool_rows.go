package model

import (
	"cmp"
	"errors"
	"slices"
)

// PoolRowStore holds allocation rows of pools moved out of memory while
// the model is built (a spill store, core/spill). Builder.PoolRows moves
// each pool's oldest rows to it in batches, in allocation order; the
// writers read them back through Pool.EachRow. Both methods are safe for
// concurrent use.
type PoolRowStore interface {
	// PutPoolRows appends rows, the next ones of p in allocation order.
	PutPoolRows(p *Pool, rows []PoolRow) error
	// LoadPoolRows calls fn with the rows put for p, batch by batch, in
	// the order put. The slice is fn's only for the call.
	LoadPoolRows(p *Pool, fn func(rows []PoolRow) error) error
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
// memory, as a patch once it moved.
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

// finishMoved orders the patches by row for EachRow.
func (p *Pool) finishMoved() {
	if m := p.moved; m != nil {
		slices.SortStableFunc(m.patches, func(a, b poolPatch) int { return cmp.Compare(a.begin, b.begin) })
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

// ErrStopRows, returned by EachRow's fn, ends the walk early without an
// error.
var ErrStopRows = errors.New("stop")

// EachRow calls fn with each allocation row of the pool in allocation
// order, reading the rows that moved to a store back. The row is fn's
// only for the call. It returns fn's first error (nil for ErrStopRows)
// or the store's.
func (p *Pool) EachRow(fn func(r *PoolRow) error) error {
	err := p.eachRow(fn)
	if errors.Is(err, ErrStopRows) {
		return nil
	}
	return err
}

func (p *Pool) eachRow(fn func(r *PoolRow) error) error {
	if m := p.moved; m != nil && m.n > 0 {
		patches := m.patches
		err := m.store.LoadPoolRows(p, func(rows []PoolRow) error {
			for i := range rows {
				r := &rows[i]
				for len(patches) > 0 && patches[0].begin <= r.Begin {
					if patches[0].begin == r.Begin {
						patches[0].apply(r)
					}
					patches = patches[1:]
				}
				if err := fn(r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for i := range p.Rows {
		if err := fn(&p.Rows[i]); err != nil {
			return err
		}
	}
	return nil
}

// WithoutRows is a copy of p with an empty row list (its figures stay).
func (p *Pool) WithoutRows() *Pool {
	c := *p
	c.Rows, c.moved = []PoolRow{}, nil
	return &c
}
