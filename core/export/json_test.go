package export_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"

	"imas/core"
	"imas/core/export"
	"imas/core/input"
	"imas/core/model"
)

// encoderJSON is report.json written the plain way, the whole report
// through json.Encoder: the streamed writer must give the same bytes.
func encoderJSON(t *testing.T, rep *model.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(rep); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestStreamedJSONIsEncoderJSON checks that the streamed report.json is
// byte for byte json.Encoder's, on every sample and generated fixture
// (hostile names, escapes, empty and nil lists) and on edge-case reports.
func TestStreamedJSONIsEncoderJSON(t *testing.T) {
	var reps []*model.Report
	for _, dir := range []string{"basic", "conflicts", "mixed", "pool"} {
		for _, root := range []string{"../../testdata/samples/", "../../testdata/gen/"} {
			srcs, _ := input.FromPaths([]string{root + dir})
			rep, err := core.Analyze(context.Background(), srcs, core.Options{})
			if err != nil {
				t.Fatal(err)
			}
			reps = append(reps, rep)
		}
	}
	srcs, _ := input.FromPaths([]string{"../../testdata/gen/hostile"})
	hostile, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reps = append(reps, hostile, &model.Report{}, &model.Report{Graphs: []*model.Graph{{Graph: `q"<&>\u2028`, Rows: []model.Row{}}, {Rows: []model.Row{{Node: "a\\\"b]{[,:"}}}}})
	for i, rep := range reps {
		var got bytes.Buffer
		if err := export.WriteJSON(&got, rep); err != nil {
			t.Fatal(err)
		}
		if want := encoderJSON(t, rep); !bytes.Equal(got.Bytes(), want) {
			n := 0
			for n < len(want) && n < got.Len() && want[n] == got.Bytes()[n] {
				n++
			}
			t.Errorf("report %d differs at byte %d:\n got …%.200q\nwant …%.200q", i, n, got.Bytes()[max(0, n-80):], want[max(0, n-80):])
		}
	}
}

// FuzzWriteJSON compares the streamed report.json with json.Encoder's on
// reports whose names, texts and row counts come from the fuzzer.
func FuzzWriteJSON(f *testing.F) {
	f.Add("g", "node", "Add", uint8(2), uint8(1))
	f.Add(`q"<&>`, "a\\\"b]{[,:", "\u2028\x00\xff", uint8(0), uint8(3))
	f.Add("", "", "", uint8(5), uint8(0))
	f.Fuzz(func(t *testing.T, graph, node, text string, rows, graphs uint8) {
		rep := &model.Report{Schema: model.Schema, Diagnostics: []model.Diagnostic{{Path: node, Reason: graph, Text: text}}}
		for g := 0; g < int(graphs%4); g++ {
			gr := &model.Graph{PID: text, Graph: graph, Logged: model.Logged{{Key: node, Value: text}}}
			if rows%7 != 6 {
				gr.Rows = []model.Row{}
			}
			for r := 0; r < int(rows%6); r++ {
				gr.Rows = append(gr.Rows, model.Row{Node: node, OpType: text, Kind: graph, Batch: text, Index: int64(r),
					StreamDesc: text[:len(text)*(r%2)], BlockType: graph[:len(graph)*(r%3/2)], Pool: r%2 == 1, Counted: r%3 == 0,
					LifeEnd: int64(rows) << (8 * r), Child: -int64(r)})
			}
			rep.Graphs = append(rep.Graphs, gr)
		}
		var got bytes.Buffer
		if err := export.WriteJSON(&got, rep); err != nil {
			t.Fatal(err)
		}
		if want := encoderJSON(t, rep); !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("streamed JSON differs:\n got %q\nwant %q", got.Bytes(), want)
		}
	})
}

// TestRowJSONFields keeps the hand-written row encoder in step with
// model.Row: every field json.Marshal writes for a row with all fields set
// must be written, in the same order, with the same value.
func TestRowJSONFields(t *testing.T) {
	r := model.Row{Node: "n<1>", OpType: "Add", Kind: "output", Index: 1, Offset: 2, Stream: 3, StreamDesc: "3-4",
		MemType: 5, Size: 6, RealSize: 7, NoAlign: 8, LifeBegin: 9, LifeEnd: model.LifeMax, LifeDesc: &[2]string{"9-10", ""}, Child: -1,
		Reuse: 1, Continuous: 1, ZeroCopy: 1, SameStream: 1, IsRef: 1, Batch: "b\x01\x7f", BlockType: "t\xff",
		Pool: true, Counted: true, Line: 12}
	want, err := json.MarshalIndent(&r, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	rep := &model.Report{Graphs: []*model.Graph{{Rows: []model.Row{r, {}}}}}
	var got bytes.Buffer
	if err := export.WriteJSON(&got, rep); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), encoderJSON(t, rep)) {
		t.Errorf("a row with every field set differs from json.Encoder's:\n%s", got.Bytes())
	}
	// The same keys in the same order (MarshalIndent of the row alone).
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(want))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var v json.RawMessage
		dec.Decode(&v)
	}
	if got := export.RowJSONFields(); !slices.Equal(keys, got) {
		t.Errorf("model.Row's JSON keys %v, the row encoder writes %v", keys, got)
	}
}
