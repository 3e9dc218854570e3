package engine

import (
	"bytes"
	"encoding/json"
	"fmt"

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
	"sanity": true, "diagnostic_counts": true}

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
		Diagnostics: head(full.Diagnostics, CapDiagnostics)}
	rep.Inputs.Files = head(rep.Inputs.Files, CapList)
	rep.Inputs.Duplicates = head(rep.Inputs.Duplicates, CapList)
	v := &View{Slot: slot, Report: rep, Diags: len(full.Diagnostics), Inputs: run.Inputs,
		Bytes: run.Bytes, Seconds: run.Seconds, Loaded: run.Loaded}
	rep.Graphs = make([]*model.Graph, len(full.Graphs))
	v.Counts = make([]GraphCounts, len(full.Graphs))
	for i, g := range full.Graphs {
		t := *g
		t.Rows, t.Reassign, t.AtomicPieces, t.AtomicClean = nil, nil, nil, nil
		t.Conflicts, t.Peak, t.Waste = nil, nil, nil
		rep.Graphs[i] = &t
		v.Counts[i] = GraphCounts{Rows: len(g.Rows), Conflicts: len(g.Conflicts),
			Reassign: len(g.Reassign), AtomicPieces: len(g.AtomicPieces)}
		if g.Peak != nil {
			v.Counts[i].PeakTensors = len(g.Peak.Tensors)
		}
		if g.Waste != nil {
			v.Counts[i].Holes = len(g.Waste.Holes)
		}
	}
	rest := *full
	rest.Graphs, rest.Diagnostics = nil, nil
	raw, err := json.Marshal(&rest)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	gjson.ParseBytes(raw).ForEach(func(k, val gjson.Result) bool {
		if !typedKeys[k.String()] {
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			b.WriteString(k.Raw)
			b.WriteByte(':')
			capJSON(&b, val, CapList, CapNested)
		}
		return true
	})
	b.WriteByte('}')
	v.Sections = b.Bytes()
	for _, o := range export.Outputs() {
		v.Outputs = append(v.Outputs, OutputInfo{o.Name, o.Mime})
	}
	return v, nil
}

// capJSON writes v with its arrays cut to n items, and arrays nested in
// those to inner items; a cut array ends with {"_more": left out}.
func capJSON(b *bytes.Buffer, v gjson.Result, n, inner int) {
	switch {
	case v.IsArray():
		b.WriteByte('[')
		i := 0
		v.ForEach(func(_, e gjson.Result) bool {
			if i < n {
				if i > 0 {
					b.WriteByte(',')
				}
				capJSON(b, e, inner, inner)
			}
			i++
			return true
		})
		if i > n {
			fmt.Fprintf(b, `,{"_more":%d}`, i-n)
		}
		b.WriteByte(']')
	case v.IsObject():
		b.WriteByte('{')
		first := true
		v.ForEach(func(k, e gjson.Result) bool {
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(k.Raw)
			b.WriteByte(':')
			capJSON(b, e, n, inner)
			return true
		})
		b.WriteByte('}')
	default:
		b.WriteString(v.Raw)
	}
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
	t.Rows, t.Reassign, t.AtomicPieces, t.AtomicClean = nil, nil, nil, nil
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
