// Package reportjson reads saved report.json files (schema imas.report/v1)
// for comparing runs. It uses gjson to pick the few fields a comparison
// needs — each graph's figures and counted tensors — without unmarshalling
// whole reports, whose rows can run to millions.
package reportjson

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"

	"imas/core/analyze"
	"imas/core/model"
)

// LooksLikeJSON reports whether the start of a file can be a JSON object,
// so callers read only such files whole to test IsReport.
func LooksLikeJSON(prefix []byte) bool {
	p := bytes.TrimLeft(bytes.TrimPrefix(prefix, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(p) > 0 && p[0] == '{'
}

// IsReport reports whether data is a saved imas report.
func IsReport(data []byte) bool {
	return LooksLikeJSON(data) && gjson.GetBytes(trimBOM(data), "schema").String() == model.Schema
}

func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }

// ErrNotReport means the data is not an imas.report/v1 document.
var ErrNotReport = errors.New("not an imas report.json (schema " + model.Schema + ")")

// Load reads a saved report into a run named name.
func Load(name string, data []byte) (*analyze.Run, error) {
	data = trimBOM(data)
	if !gjson.ValidBytes(data) {
		return nil, fmt.Errorf("%s: invalid JSON", name)
	}
	if !IsReport(data) {
		return nil, fmt.Errorf("%s: %w", name, ErrNotReport)
	}
	run := &analyze.Run{Name: name, Graphs: []*analyze.RunGraph{}}
	gjson.GetBytes(data, "graphs").ForEach(func(_, g gjson.Result) bool {
		run.Graphs = append(run.Graphs, graphOf(g))
		return true
	})
	return run, nil
}

func graphOf(g gjson.Result) *analyze.RunGraph {
	f := func(k string) int64 { return g.Get(k).Int() }
	rg := &analyze.RunGraph{
		PID: g.Get("pid").String(), Graph: g.Get("graph").String(), MemType: f("memtype"),
		Figures: model.Figures{
			MemorySize: f("memory_size"), AfterReuse: f("after_reuse"), Total: f("total"), GETotal: f("ge_total"),
			TheoryMin: f("theory_min"), NoReuse: f("no_reuse"), Atomic: f("atomic"), ZeroCopy: f("zero_copy"),
			Continuous: f("continuous"), Streams: f("streams"), Topo: g.Get("topo").String(), Tensors: f("tensors"),
			ReuseRate: g.Get("reuse_rate").Float(), ReachTheoryRate: g.Get("reach_theory_rate").Float(),
		},
		Policy:    g.Get("logged.mop").String(),
		Conflicts: int(g.Get("conflicts.#").Int()),
	}
	g.Get("rows").ForEach(func(_, r gjson.Result) bool {
		if t, ok := tensorOf(r); ok {
			rg.Tensors = append(rg.Tensors, t)
		}
		return true
	})
	return rg
}

// tensorOf reads a counted row in one pass over its fields.
func tensorOf(r gjson.Result) (t analyze.RunTensor, counted bool) {
	var node, kind string
	var index int64
	r.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "node":
			node = v.String()
		case "kind":
			kind = v.String()
		case "index":
			index = v.Int()
		case "optype":
			t.OpType = v.String()
		case "size":
			t.Size = v.Int()
		case "realsize":
			t.RealSize = v.Int()
		case "counted":
			counted = v.Bool()
		}
		return true
	})
	t.Key = model.TensorKey(node, kind, index)
	return t, counted
}
