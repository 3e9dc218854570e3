package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/tidwall/gjson"

	"imas/core/export"
	"imas/core/model"
)

// View is what the UI gets after an analysis. It stays small because the
// page decodes and renders it on its own thread:
//   - Report has the typed parts the page lays out itself: inputs, graph
//     figures (without rows, conflicts, peak, waste: the page asks for one
//     graph at a time), the first diagnostics, sanity, device malloc, devmm;
//   - Sections has every other field of the report as JSON, for generic
//     tables, with its lists cut to CapList items (lists inside those to
//     CapNested) and, when cut, a last item {"_more": n} saying how many
//     were left out. Lists other
//     engineers add to the model show up there without changes here.
type View struct {
	Slot     string          `json:"slot"`
	Report   *model.Report   `json:"report"`
	Sections json.RawMessage `json:"sections"`
	Counts   []GraphCounts   `json:"counts"`
	Diags    int             `json:"diagnostics"` // listed diagnostics before the cut
	Outputs  []OutputInfo    `json:"outputs"`
	Inputs   []string        `json:"inputs"`
	Bytes    int64           `json:"bytes"`
	Seconds  float64         `json:"seconds"`
	Loaded   bool            `json:"loaded"`
}

// GraphCounts are the full lengths of a graph's lists.
type GraphCounts struct {
	Rows         int `json:"rows"`
	Conflicts    int `json:"conflicts"`
	PeakTensors  int `json:"peak_tensors"`
	Holes        int `json:"holes"`
	Reassign     int `json:"reassign"`
	AtomicPieces int `json:"atomic_pieces"`
}

// OutputInfo names a downloadable report file.
type OutputInfo struct {
	Name string `json:"name"`
	Mime string `json:"mime"`
}

// Caps on list lengths. Beyond them the UI points to the tensor table
// (which pages) or to report.json.
const (
	CapDiagnostics = 500
	CapList        = 200 // a top-level array in View.Sections
	CapNested      = 20  // an array inside an item of one
	CapConflicts   = 500
	CapPeak        = 100
	CapHoles       = 100
)

// typedKeys are the report fields View.Report carries; Sections has the rest.
var typedKeys = map[string]bool{"schema": true, "tool": true, "diagnostics": true, "graphs": true,
	"sanity": true, "diagnostic_counts": true, "memory_errors": true}

// View returns the trimmed view of slot.
func (s *Session) View(slot string) (*View, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	run := s.runs[slot]
	if run == nil {
		return nil, ErrNoRun
	}
	full := run.Report
	rep := &model.Report{Schema: full.Schema, Tool: full.Tool, Inputs: full.Inputs, Sanity: full.Sanity,
		DeviceMalloc: full.DeviceMalloc, Devmm: full.Devmm, DiagSummary: full.DiagSummary,
		Diagnostics: head(full.Diagnostics, CapDiagnostics), MemoryErrors: head(full.MemoryErrors, CapList)}
	rep.Inputs.Files = head(rep.Inputs.Files, CapList)
	rep.Inputs.Duplicates = head(rep.Inputs.Duplicates, CapList)
	v := &View{Slot: slot, Report: rep, Diags: len(full.Diagnostics), Inputs: run.Inputs,
		Bytes: run.Bytes, Seconds: run.Seconds, Loaded: run.Loaded}
	rep.Graphs = make([]*model.Graph, len(full.Graphs))
	v.Counts = make([]GraphCounts, len(full.Graphs))
	for i, g := range full.Graphs {
		t := *g
		t.Rows, t.Reassign, t.AtomicPieces, t.AtomicClean = nil, nil, nil, nil
		// The live curves too: one per step change of every graph, they
		// would be most of the view and of its decoding on the page's
		// thread; the map's meta carries the shown graph's, cut to
		// LivePoints.
		t.Conflicts, t.Peak, t.Waste, t.Live = nil, nil, nil, nil
		rep.Graphs[i] = &t
		v.Counts[i].Rows, v.Counts[i].Reassign, v.Counts[i].AtomicPieces = run.Rows.Lengths(g)
		v.Counts[i].Conflicts = len(g.Conflicts)
		if g.Peak != nil {
			v.Counts[i].PeakTensors = len(g.Peak.Tensors)
		}
		if g.Waste != nil {
			v.Counts[i].Holes = len(g.Waste.Holes)
		}
	}
	sections, err := sectionsOf(full)
	if err != nil {
		return nil, err
	}
	v.Sections = sections
	for _, o := range export.Outputs() {
		v.Outputs = append(v.Outputs, OutputInfo{o.Name, o.Mime})
	}
	return v, nil
}

// sectionsOf writes the report's fields other than typedKeys, cut as View
// says. The lists are cut before marshaling, as far as two levels down
// (cutLists): whole, they can be megabytes (the rows of a long run's
// address checks), slow to marshal in wasm, of which a few hundred items are
// kept. The result is what cutting the whole report's JSON gives.
func sectionsOf(full *model.Report) ([]byte, error) {
	rest := *full
	rest.Graphs, rest.Diagnostics = nil, nil
	c := cutLists(&rest)
	raw, err := json.Marshal(&rest)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	gjson.ParseBytes(raw).ForEach(func(k, val gjson.Result) bool {
		key := k.String()
		if typedKeys[key] {
			return true
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(k.Raw)
		b.WriteByte(':')
		if val.IsArray() {
			capArray(&b, val, CapList, CapNested, c.top[key], c.nested[key])
		} else {
			capJSON(&b, val, CapList, CapNested)
		}
		return true
	})
	b.WriteByte('}')
	return b.Bytes(), nil
}

// listCuts records what cutLists left out: top[key] items of a top-level
// list, nested[key][item][field] items of a list in one of its items.
type listCuts struct {
	top    map[string]int
	nested map[string]map[int]map[string]int
}

var jsonMarshaler = reflect.TypeFor[json.Marshaler]()

// cutLists cuts, in place in rep (a copy: the lists are copied before they
// change), each top-level list to CapList items, and the lists held
// directly by those items (struct fields) to CapNested. Types with their own
// MarshalJSON are left whole.
func cutLists(rep *model.Report) listCuts {
	c := listCuts{top: map[string]int{}, nested: map[string]map[int]map[string]int{}}
	rv := reflect.ValueOf(rep).Elem()
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Field(i)
		key, ok := jsonName(rv.Type().Field(i))
		if !ok || f.Kind() != reflect.Slice || f.IsNil() { // nil is null, not []
			continue
		}
		n := min(f.Len(), CapList)
		if f.Len() > CapList {
			c.top[key] = f.Len() - CapList
		}
		elem := f.Type().Elem()
		st := elem
		if st.Kind() == reflect.Pointer {
			st = st.Elem()
		}
		if st.Kind() != reflect.Struct || elem.Implements(jsonMarshaler) || reflect.PointerTo(st).Implements(jsonMarshaler) {
			if f.Len() > CapList {
				f.Set(f.Slice(0, n))
			}
			continue
		}
		items := reflect.MakeSlice(f.Type(), n, n)
		reflect.Copy(items, f)
		for j := 0; j < n; j++ {
			item := items.Index(j)
			if item.Kind() == reflect.Pointer {
				if item.IsNil() {
					continue
				}
				cp := reflect.New(st)
				cp.Elem().Set(item.Elem())
				item.Set(cp)
				item = cp
			}
			item = reflect.Indirect(item)
			for k := 0; k < st.NumField(); k++ {
				sf := st.Field(k)
				name, ok := jsonName(sf)
				list := item.Field(k)
				if !ok || sf.Anonymous || list.Kind() != reflect.Slice || list.Len() <= CapNested {
					continue
				}
				if c.nested[key] == nil {
					c.nested[key] = map[int]map[string]int{}
				}
				if c.nested[key][j] == nil {
					c.nested[key][j] = map[string]int{}
				}
				c.nested[key][j][name] = list.Len() - CapNested
				list.Set(list.Slice(0, CapNested))
			}
		}
		f.Set(items)
	}
	return c
}

// jsonName is the key encoding/json gives an exported field; false for
// fields it leaves out.
func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	if tag == "-" || !f.IsExported() {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, true
}

// capJSON writes v with its arrays cut to n items, and arrays nested in
// those to inner items; a cut array ends with {"_more": left out}.
func capJSON(b *bytes.Buffer, v gjson.Result, n, inner int) {
	switch {
	case v.IsArray():
		capArray(b, v, n, inner, 0, nil)
	case v.IsObject():
		capObject(b, v, n, inner, nil)
	default:
		b.WriteString(v.Raw)
	}
}

// capArray writes array v cut to n items, each item cut to inner, ending
// with {"_more": m} when m items are left out: those past n, plus cut that
// cutLists already removed. itemCuts[i] are the lists cutLists cut in item i.
func capArray(b *bytes.Buffer, v gjson.Result, n, inner, cut int, itemCuts map[int]map[string]int) {
	b.WriteByte('[')
	i := 0
	v.ForEach(func(_, e gjson.Result) bool {
		if i < n {
			if i > 0 {
				b.WriteByte(',')
			}
			if more := itemCuts[i]; more != nil && e.IsObject() {
				capObject(b, e, inner, inner, more)
			} else {
				capJSON(b, e, inner, inner)
			}
		}
		i++
		return true
	})
	if left := max(i-n, 0) + cut; left > 0 {
		fmt.Fprintf(b, `,{"_more":%d}`, left)
	}
	b.WriteByte(']')
}

// capObject writes object v as capJSON does; more[k] items were already cut
// from the list of key k.
func capObject(b *bytes.Buffer, v gjson.Result, n, inner int, more map[string]int) {
	b.WriteByte('{')
	first := true
	v.ForEach(func(k, e gjson.Result) bool {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(k.Raw)
		b.WriteByte(':')
		if m := more[k.String()]; m > 0 && e.IsArray() {
			capArray(b, e, n, inner, m, nil)
		} else {
			capJSON(b, e, n, inner)
		}
		return true
	})
	b.WriteByte('}')
}

// Graph returns graph i of slot with its analyses (conflicts, waste, peak)
// and those lists cut; rows are paged through Tensors instead.
func (s *Session) Graph(slot string, i int) (*model.Graph, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.graph(slot, i)
	if err != nil {
		return nil, err
	}
	t := *g
	// Live is left out as in View: the map's meta carries it, cut.
	t.Rows, t.Reassign, t.AtomicPieces, t.AtomicClean, t.Live = nil, nil, nil, nil, nil
	t.Conflicts = head(g.Conflicts, CapConflicts)
	if g.Peak != nil {
		p := *g.Peak
		p.Tensors = head(p.Tensors, CapPeak)
		t.Peak = &p
	}
	if g.Waste != nil {
		w := *g.Waste
		w.Holes = head(w.Holes, CapHoles)
		t.Waste = &w
	}
	return &t, nil
}

// head returns at most the first n elements of s (sharing its array).
func head[T any](s []T, n int) []T {
	if len(s) > n {
		return s[:n:n]
	}
	return s
}
