package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"imas/core/model"
)

// TensorQuery asks for one page of a graph's tensor table.
type TensorQuery struct {
	Slot     string   `json:"slot"`
	Graph    int      `json:"graph"`
	Name     string   `json:"name"`     // substring of the node name or tensor key, any ASCII case
	OpType   string   `json:"optype"`   // substring of the op type, any case
	MinSize  int64    `json:"min_size"` // bytes; 0 = no bound
	MaxSize  int64    `json:"max_size"` // bytes; 0 = no bound
	Stream   string   `json:"stream"`   // "" = any
	Flags    []string `json:"flags"`    // all must hold; see Flags
	Sort     string   `json:"sort"`     // a column of Sorts; "" = log order
	Desc     bool     `json:"desc"`
	Page     int      `json:"page"` // 0-based
	PageSize int      `json:"page_size"`
	Focus    int      `json:"focus"` // a row index to show: Page becomes its page; -1 = none
}

// TensorPage is one page of matching rows.
type TensorPage struct {
	Rows     int         `json:"rows"`  // rows of the graph
	Match    int         `json:"match"` // rows passing the filter
	Page     int         `json:"page"`
	Pages    int         `json:"pages"`
	PageSize int         `json:"page_size"`
	Items    []TensorRow `json:"items"`
}

// TensorRow is a row with its index in the graph and whether it conflicts.
type TensorRow struct {
	I        int  `json:"i"`
	Conflict bool `json:"conflict"`
	model.Row
}

// Flags are the row properties a query can require.
var Flags = []string{"counted", "reuse", "noreuse", "continuous", "zero_copy", "isref", "conflict", "forever"}

// Sorts are the sortable columns.
var Sorts = []string{"node", "optype", "offset", "size", "realsize", "stream", "life_begin", "life_end"}

// MaxPageSize bounds a page: the UI never renders more DOM rows than this.
const MaxPageSize = 500

func rowCompare(sort string) (func(a, b *model.Row) int, error) {
	switch sort {
	case "node":
		return func(a, b *model.Row) int {
			return cmp.Or(strings.Compare(a.Node, b.Node), strings.Compare(a.Kind, b.Kind), cmp.Compare(a.Index, b.Index))
		}, nil
	case "optype":
		return func(a, b *model.Row) int { return strings.Compare(a.OpType, b.OpType) }, nil
	case "offset":
		return func(a, b *model.Row) int { return cmp.Compare(a.Offset, b.Offset) }, nil
	case "size":
		return func(a, b *model.Row) int { return cmp.Compare(a.Size, b.Size) }, nil
	case "realsize":
		return func(a, b *model.Row) int { return cmp.Compare(a.RealSize, b.RealSize) }, nil
	case "stream":
		return func(a, b *model.Row) int { return cmp.Compare(a.Stream, b.Stream) }, nil
	case "life_begin":
		return func(a, b *model.Row) int { return cmp.Compare(a.LifeBegin, b.LifeBegin) }, nil
	case "life_end":
		return func(a, b *model.Row) int { return cmp.Compare(a.LifeEnd, b.LifeEnd) }, nil
	}
	return nil, fmt.Errorf("cannot sort by %q", sort)
}

// order returns the row indexes of a loaded graph sorted by a column (ties
// keep log order), cached in l.
func (s *Session) order(l *loadedGraph, sort string) ([]int32, error) {
	if o, ok := l.orders[sort]; ok {
		return o, nil
	}
	g := l.g
	o := make([]int32, len(g.Rows))
	for i := range o {
		o[i] = int32(i)
	}
	if sort != "" {
		less, err := rowCompare(sort)
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(o, func(a, b int32) int { return less(&g.Rows[a], &g.Rows[b]) })
	}
	l.orders[sort] = o
	return o, nil
}

// Tensors answers a TensorQuery.
func (s *Session) Tensors(q TensorQuery) (*TensorPage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := s.load(q.Slot, q.Graph)
	if err != nil {
		return nil, err
	}
	g := l.g
	order, err := s.order(l, q.Sort)
	if err != nil {
		return nil, err
	}
	match, err := q.matcher(s.conflicted(q.Slot, q.Graph, g))
	if err != nil {
		return nil, err
	}
	size := min(max(q.PageSize, 1), MaxPageSize)
	hits := make([]int32, 0, min(len(order), 4096))
	focusAt := -1
	for n := range order {
		i := order[n]
		if q.Desc {
			i = order[len(order)-1-n]
		}
		if match(&g.Rows[i]) {
			if int(i) == q.Focus {
				focusAt = len(hits)
			}
			hits = append(hits, i)
		}
	}
	p := &TensorPage{Rows: len(g.Rows), Match: len(hits), PageSize: size, Pages: max(1, (len(hits)+size-1)/size)}
	p.Page = min(max(q.Page, 0), p.Pages-1)
	if focusAt >= 0 {
		p.Page = focusAt / size
	}
	marks := s.conflicted(q.Slot, q.Graph, g)
	for _, i := range hits[min(p.Page*size, len(hits)):min((p.Page+1)*size, len(hits))] {
		r := g.Rows[i]
		p.Items = append(p.Items, TensorRow{I: int(i), Conflict: marks[r.Key()], Row: r})
	}
	return p, nil
}

// matcher compiles the filter of q.
func (q *TensorQuery) matcher(conflicted map[string]bool) (func(*model.Row) bool, error) {
	name, op := strings.ToLower(q.Name), strings.ToLower(q.OpType)
	byKey := strings.Contains(name, ":") // only then build each row's key
	stream := int64(-1)
	if q.Stream != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(q.Stream), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("stream %q is not a number", q.Stream)
		}
		stream = n
	}
	var flags []func(*model.Row) bool
	for _, f := range q.Flags {
		fn, ok := flagTests(conflicted)[f]
		if !ok {
			return nil, fmt.Errorf("unknown flag %q", f)
		}
		flags = append(flags, fn)
	}
	return func(r *model.Row) bool {
		if q.MinSize > 0 && r.Size < q.MinSize || q.MaxSize > 0 && r.Size > q.MaxSize {
			return false
		}
		if stream >= 0 && r.Stream != stream {
			return false
		}
		if op != "" && !containsFold(r.OpType, op) {
			return false
		}
		if name != "" && !containsFold(r.Node, name) && (!byKey || !containsFold(r.Key(), name)) {
			return false
		}
		for _, f := range flags {
			if !f(r) {
				return false
			}
		}
		return true
	}, nil
}

func flagTests(conflicted map[string]bool) map[string]func(*model.Row) bool {
	return map[string]func(*model.Row) bool{
		"counted":    func(r *model.Row) bool { return r.Counted },
		"reuse":      func(r *model.Row) bool { return r.Reuse != 0 },
		"noreuse":    func(r *model.Row) bool { return r.Reuse == 0 },
		"continuous": func(r *model.Row) bool { return r.Continuous != 0 },
		"zero_copy":  func(r *model.Row) bool { return r.ZeroCopy != 0 },
		"isref":      func(r *model.Row) bool { return r.IsRef != 0 },
		"conflict":   func(r *model.Row) bool { return conflicted[r.Key()] },
		"forever":    func(r *model.Row) bool { return model.IsInfinite(r.LifeEnd) },
	}
}

// containsFold reports whether s contains lower (already lower-case),
// folding ASCII case, without allocating.
func containsFold(s, lower string) bool {
	for i := 0; i+len(lower) <= len(s); i++ {
		j := 0
		for ; j < len(lower); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == len(lower) {
			return true
		}
	}
	return false
}
