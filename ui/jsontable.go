package ui

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Table lays out a JSON array of objects for display: a column per key, in
// the order keys first appear; nested arrays and objects become links into
// a sub-table. It renders whatever the report carries, so sections other
// engineers add to the model show up without UI changes.
type Table struct {
	Cols []string
	Rows [][]Cell
	More int64 // items the engine left out (a last item {"_more": n})
}

// Cell is one value. Sub holds the JSON of a nested value (a drill-down).
type Cell struct {
	Text  string
	Raw   string // the number as JSON has it, for data-value; "" for non-numbers
	Title string
	Sub   string
}

// TableOf lays out the JSON array raw. A plain object is one row; scalars
// make a one-column table.
func TableOf(raw string) Table {
	v := gjson.Parse(raw)
	var items []gjson.Result
	if v.IsArray() {
		items = v.Array()
	} else if v.Exists() {
		items = []gjson.Result{v}
	}
	var t Table
	if n := len(items); n > 0 {
		if more := items[n-1].Get("_more"); more.Exists() && len(items[n-1].Map()) == 1 {
			t.More, items = more.Int(), items[:n-1]
		}
	}
	index := map[string]int{}
	for _, it := range items {
		if !it.IsObject() {
			if len(t.Cols) == 0 {
				t.Cols, index["value"] = []string{"value"}, 0
			}
			continue
		}
		it.ForEach(func(k, _ gjson.Result) bool {
			if _, ok := index[k.String()]; !ok {
				index[k.String()] = len(t.Cols)
				t.Cols = append(t.Cols, k.String())
			}
			return true
		})
	}
	for _, it := range items {
		row := make([]Cell, len(t.Cols))
		if !it.IsObject() {
			row[index["value"]] = cellOf("value", it)
		} else {
			it.ForEach(func(k, v gjson.Result) bool {
				row[index[k.String()]] = cellOf(k.String(), v)
				return true
			})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// byteKeys mark numeric columns that hold bytes (shown as 8.13M).
var byteKeys = []string{"size", "bytes", "total", "peak", "current", "cached", "live", "area_end", "gap", "offset"}

func cellOf(key string, v gjson.Result) Cell {
	switch {
	case v.IsArray():
		n := len(v.Array())
		return Cell{Text: "[" + strconv.Itoa(n) + "]", Title: "show the " + strconv.Itoa(n) + " items", Sub: v.Raw}
	case v.IsObject():
		n := 0
		v.ForEach(func(_, _ gjson.Result) bool { n++; return true })
		return Cell{Text: "{" + strconv.Itoa(n) + "}", Title: "show the " + strconv.Itoa(n) + " fields", Sub: v.Raw}
	case v.Type == gjson.Number:
		c := Cell{Text: v.Raw, Raw: v.Raw}
		if n, err := strconv.ParseInt(v.Raw, 10, 64); err == nil {
			c.Text = Count(n)
			for _, k := range byteKeys {
				if strings.Contains(key, k) && (n > 1024 || n < -1024) {
					c.Text, c.Title = Size(n), Count(n)+" bytes"
					break
				}
			}
		}
		return c
	case v.Type == gjson.Null:
		return Cell{}
	}
	return Cell{Text: v.String()}
}
