package model

import "cmp"

// Operator-address rows moved out of memory while the model is built.
//
// A run of many loaded graphs logs a few addresses per graph, and every
// row is printed (imas_mem_addr.csv, report.json), but a row's region and
// check are known only once the whole input is read (regions are sorted
// by process, a row logged before its region takes the graph's last one,
// and the static graph a region holds is chosen among every graph). So
// "imas report" moves the rows of its address checks to the spill store as
// they come (Builder.AddrSpill), a few thousand at a time, and the address
// checks and the writers read each check's rows back, one check at a time
// (Report.AddrRows); the checked rows go back to the store
// (Report.SetAddrRows).

// AddrRowStore is a store that takes address rows (core/spill.Store). An
// error of PutAddrRows stays in the store and fails the run.
type AddrRowStore interface {
	PutAddrRows(rows []AddrRow) (AddrSegment, error)
	// LoadAddrRows appends the rows of seg to into.
	LoadAddrRows(seg AddrSegment, into []AddrRow) ([]AddrRow, error)
}

// AddrSegment is where a store put a run of address rows.
type AddrSegment struct {
	Off, Len int64
	Rows     int
}

// addrRowsHeld is how many address rows the build holds before it moves
// them to the store (about 2 MB).
const addrRowsHeld = 8192

// holdAddrRow counts the row just added to ac and moves the held rows of
// every check to the store once there are addrRowsHeld of them.
func (b *Builder) holdAddrRow(ac *AddressCheck) {
	s := &b.o().addr
	if len(ac.Rows) == 1 {
		s.held = append(s.held, ac)
	}
	s.heldRows++
	if limit := cmp.Or(b.AddrRowsHeld, addrRowsHeld); s.heldRows >= limit {
		b.moveAddrRows()
	}
}

// moveAddrRows moves the rows of the checks that hold any to the store.
func (b *Builder) moveAddrRows() {
	s := &b.o().addr
	for _, ac := range s.held {
		seg, _ := b.AddrSpill.PutAddrRows(ac.Rows)
		ac.moved = append(ac.moved, seg)
		ac.movedRaw = true
		// Not ac.Rows[:0]: the lists of many small checks would keep
		// their capacity.
		ac.Rows = []AddrRow{}
	}
	s.held = s.held[:0]
	s.heldRows = 0
}

// regionFix numbers the regions of address rows as Builder.Finish orders
// the regions: moved[i] is the new place of region i, and a row logged
// before any region of its graph and class takes the last one (last).
type regionFix struct {
	moved []int
	last  map[regionKey]int
}

func (f *regionFix) apply(ac *AddressCheck, rows []AddrRow) {
	pid := pidInt(ac.PID)
	for i := range rows {
		row := &rows[i]
		if n := row.Region; n > 0 {
			row.Region = f.moved[n-1] + 1
			continue
		}
		c := addressClass(row.Type)
		if c == "" {
			continue
		}
		if j, ok := f.last[regionKey{pid, ac.GraphID, c}]; ok {
			row.Region = j + 1
		} else if j, ok := f.last[regionKey{pid, anyGraph, c}]; ok {
			row.Region = j + 1
		}
	}
}

// AddrRows returns the rows of ac: those the build moved to the store,
// read back, then those in ac.Rows. Without moved rows it is ac.Rows.
func (r *Report) AddrRows(ac *AddressCheck) ([]AddrRow, error) {
	if len(ac.moved) == 0 {
		return ac.Rows, nil
	}
	n := len(ac.Rows)
	for _, seg := range ac.moved {
		n += seg.Rows
	}
	rows := make([]AddrRow, 0, n)
	for _, seg := range ac.moved {
		var err error
		if rows, err = r.addrStore.LoadAddrRows(seg, rows); err != nil {
			return nil, err
		}
	}
	if ac.movedRaw && r.addrFix != nil {
		r.addrFix.apply(ac, rows)
	}
	return append(rows, ac.Rows...), nil
}

// SetAddrRows replaces the rows of ac with rows (its rows checked): in
// the store when ac's rows were moved there, else in ac.Rows.
func (r *Report) SetAddrRows(ac *AddressCheck, rows []AddrRow) error {
	if len(ac.moved) == 0 {
		ac.Rows = rows
		return nil
	}
	seg, err := r.addrStore.PutAddrRows(rows)
	ac.moved, ac.movedRaw, ac.Rows = []AddrSegment{seg}, false, []AddrRow{}
	return err
}

// AddrRowsMoved is how many of ac's rows are in the store.
func (ac *AddressCheck) AddrRowsMoved() int {
	n := 0
	for _, seg := range ac.moved {
		n += seg.Rows
	}
	return n
}

// WithoutRows is a copy of ac without its rows, in memory or moved.
func (ac AddressCheck) WithoutRows() AddressCheck {
	ac.Rows, ac.moved, ac.movedRaw = []AddrRow{}, nil, false
	return ac
}
