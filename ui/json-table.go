package ui

import (
	"cmp"
	"sort"
	"strconv"

	"github.com/tidwall/gjson"
)

// JsonTable renders a JSON array (or object) of the report generically,
// paged, with nested values opening a sub-table. Fold starts it folded
// (only its title and length), which keeps big reports' pages light.
type JsonTable struct {
	Title string
	Raw   string
	Fold  bool

	Flip          bool // the user toggled the fold
	Page          int
	Sub, SubTitle string
	// SortCol is the column the rows are sorted by (-1 or unset: the
	// report's order, sortSet false); Asc its direction.
	SortCol int
	Asc     bool
	sortSet bool

	parsed string // Raw that t was built from
	t      Table
}

const jsonPage = 50

func (c *JsonTable) table() *Table {
	if c.parsed != c.Raw {
		c.t, c.parsed, c.Page, c.Sub, c.sortSet = TableOf(c.Raw), c.Raw, 0, "", false
	}
	return &c.t
}

func (c *JsonTable) open() bool { return c.Fold == c.Flip }

func (c *JsonTable) caret() string {
	if c.open() {
		return "▾"
	}
	return "▸"
}

// count is the number of items, without laying the table out.
func (c *JsonTable) count() string {
	v := gjson.Parse(c.Raw)
	if !v.IsArray() {
		return ""
	}
	n := v.Get("#").Int()
	if more := v.Get(strconv.FormatInt(n-1, 10) + "._more"); more.Exists() {
		return Count(n-1+more.Int()) + ", the first " + Count(n-1) + " shown"
	}
	return Count(n)
}

func (c *JsonTable) pages() int { return max(1, (len(c.table().Rows)+jsonPage-1)/jsonPage) }

func (c *JsonTable) rows() [][]Cell {
	r := c.table().Rows
	return r[min(c.Page*jsonPage, len(r)):min((c.Page+1)*jsonPage, len(r))]
}

func (c *JsonTable) goPage(p int) { c.Page = p }

// drill shows the nested value of cell (i, j) of the current page.
func (c *JsonTable) drill(i, j int) {
	cell := c.rows()[i][j]
	c.Sub = cell.Sub
	c.SubTitle = c.Title + " › row " + strconv.Itoa(c.Page*jsonPage+i+1) + " › " + c.t.Cols[j]
}

func (c *JsonTable) cellClass(cell Cell) string {
	if cell.Raw != "" {
		return "num"
	}
	return ""
}

// raw is the data-value of a numeric cell; nil leaves the attribute out.
func (c *JsonTable) raw(cell Cell) any {
	if cell.Raw == "" {
		return nil
	}
	return cell.Raw
}

// sortBy sorts the rows by column j: numbers by value, largest first,
// text in order; choosing the sorted column again reverses it. Rows keep
// the report's order among equals.
func (c *JsonTable) sortBy(j int) {
	t := c.table()
	if c.sortSet && c.SortCol == j {
		c.Asc = !c.Asc
	} else {
		numeric := false
		for _, r := range t.Rows {
			if r[j].Raw != "" {
				numeric = true
				break
			}
		}
		c.SortCol, c.Asc, c.sortSet = j, !numeric, true
	}
	sort.SliceStable(t.Rows, func(a, b int) bool { // not slices: see Graphs.matching
		d := compareCells(t.Rows[a][j], t.Rows[b][j])
		if c.Asc {
			return d < 0
		}
		return d > 0
	})
	c.Page, c.Sub = 0, ""
}

// compareCells orders two cells of a column: numbers by value before
// anything else, then text.
func compareCells(a, b Cell) int {
	if a.Raw != "" && b.Raw != "" {
		x, _ := strconv.ParseFloat(a.Raw, 64)
		y, _ := strconv.ParseFloat(b.Raw, 64)
		return cmp.Compare(x, y)
	}
	if (a.Raw != "") != (b.Raw != "") {
		if a.Raw != "" {
			return 1
		}
		return -1
	}
	return cmp.Compare(a.Text, b.Text)
}

func (c *JsonTable) ariaSort(j int) string {
	switch {
	case !c.sortSet || c.SortCol != j:
		return "none"
	case c.Asc:
		return "ascending"
	}
	return "descending"
}
