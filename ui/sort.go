package ui

import (
	"cmp"
	"sort"
)

// TableSort is the sorted column of a table the page sorts on its own
// rows: a header's button sorts by that column, pressing it again
// reverses. Col "" keeps the rows in the report's order.
type TableSort struct {
	Col string
	Asc bool
}

// cell is a row's value in one column: N orders integers as integers
// (exact bytes, not the shown 8.13M), F fractional figures (rates), T text;
// each breaks the ties of the one before.
type cell struct {
	N int64
	F float64
	T string
}

// click sorts by h's column: numbers (class "num") largest first, text in
// order.
func (s *TableSort) click(h head) {
	if s.Col == h.Sort {
		s.Asc = !s.Asc
	} else {
		s.Col, s.Asc = h.Sort, h.Class != "num"
	}
}

func (s *TableSort) aria(col string) string {
	switch {
	case s.Col != col:
		return "none"
	case s.Asc:
		return "ascending"
	}
	return "descending"
}

// sort orders rows, a slice, by the column's values, val(i, col) being row
// i's; equal rows keep their order.
func (s *TableSort) sort(rows any, val func(i int, col string) cell) {
	if s.Col == "" {
		return
	}
	// sort.SliceStable, not the generic slices sort: each generic
	// instantiation is kilobytes of wasm, and the page's size is bounded.
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := val(i, s.Col), val(j, s.Col)
		d := cmp.Or(cmp.Compare(a.N, b.N), cmp.Compare(a.F, b.F), cmp.Compare(a.T, b.T))
		if s.Asc {
			return d < 0
		}
		return d > 0
	})
}
