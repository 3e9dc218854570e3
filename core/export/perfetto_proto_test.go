package export_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"testing"

	"imas/core/export"
	"imas/core/model"
)

// The protobuf trace is decoded back here field by field with a reader
// written from Perfetto's published schema (only the fields imas writes
// are accepted: any other field number fails the test), and its content
// is compared with the JSON trace of the same report.

type pbField struct {
	num  int
	wire int
	v    uint64 // varint
	b    []byte // length-delimited
}

func pbFields(t *testing.T, b []byte) []pbField {
	t.Helper()
	var out []pbField
	for len(b) > 0 {
		key, n := pbVarint(b)
		if n == 0 {
			t.Fatalf("bad field key")
		}
		b = b[n:]
		f := pbField{num: int(key >> 3), wire: int(key & 7)}
		switch f.wire {
		case 0:
			f.v, n = pbVarint(b)
			if n == 0 {
				t.Fatalf("field %d: bad varint", f.num)
			}
			b = b[n:]
		case 2:
			l, n := pbVarint(b)
			if n == 0 || uint64(len(b)-n) < l {
				t.Fatalf("field %d: bad length", f.num)
			}
			f.b = b[n : n+int(l)]
			b = b[n+int(l):]
		default:
			t.Fatalf("field %d: wire type %d is not written by imas", f.num, f.wire)
		}
		out = append(out, f)
	}
	return out
}

func pbVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 10; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

type pbTrack struct {
	uuid, parent uint64
	name         string
	pid, tid     int64
	kind         string // process, thread, counter, child
}

type pbOpen struct {
	ts   int64
	name string
	cat  string
	args string
}

// decodeProtoTrace turns the trace into canonical lines, one per
// process, thread, slice, counter value and instant.
func decodeProtoTrace(t *testing.T, data []byte) []string {
	t.Helper()
	tracks := map[uint64]*pbTrack{}
	open := map[uint64][]pbOpen{}
	spans := map[uint64][][2]int64{} // slices of each track, to check they never overlap in time
	var lines []string
	procPID := func(tr *pbTrack) int64 {
		for tr != nil && tr.kind != "process" {
			tr = tracks[tr.parent]
		}
		if tr == nil {
			t.Fatal("track without a process")
		}
		return tr.pid
	}
	// interned strings by InternedData field number, then iid
	interned := map[int]map[uint64]string{1: {}, 2: {}, 3: {}, 29: {}}
	lookup := func(kind int, iid uint64) string {
		v, ok := interned[kind][iid]
		if !ok {
			t.Fatalf("interned id %d of field %d used before it was sent", iid, kind)
		}
		return v
	}
	seq := 0
	for _, pf := range pbFields(t, data) {
		if pf.num != 1 || pf.wire != 2 {
			t.Fatalf("Trace field %d: want only packets (1)", pf.num)
		}
		var ts int64
		var desc, ev []byte
		for _, f := range pbFields(t, pf.b) {
			switch f.num {
			case 8:
				ts = int64(f.v)
			case 10:
				if f.v != 1 {
					t.Errorf("sequence %d", f.v)
				}
			case 13:
				if seq == 0 && f.v != 1 || seq > 0 && f.v != 2 {
					t.Errorf("sequence flags %d on packet %d", f.v, seq)
				}
			case 12:
				for _, g := range pbFields(t, f.b) {
					if interned[g.num] == nil {
						t.Fatalf("InternedData field %d", g.num)
					}
					var iid uint64
					var text string
					for _, h := range pbFields(t, g.b) {
						switch h.num {
						case 1:
							iid = h.v
						case 2:
							text = string(h.b)
						default:
							t.Fatalf("interned entry field %d", h.num)
						}
					}
					if _, dup := interned[g.num][iid]; dup || iid == 0 {
						t.Fatalf("interned id %d of field %d sent twice or zero", iid, g.num)
					}
					interned[g.num][iid] = text
				}
			case 11:
				ev = f.b
			case 60:
				desc = f.b
			default:
				t.Fatalf("TracePacket field %d", f.num)
			}
		}
		seq++
		if ts%1000 != 0 {
			t.Fatalf("timestamp %d ns is not a whole µs", ts)
		}
		ts /= 1000
		if desc != nil {
			tr := &pbTrack{kind: "child"}
			for _, f := range pbFields(t, desc) {
				switch f.num {
				case 1:
					tr.uuid = f.v
				case 2:
					tr.name = string(f.b)
				case 5:
					tr.parent = f.v
				case 12: // sibling_order_rank
				case 8:
					tr.kind = "counter"
				case 3:
					tr.kind = "process"
					for _, g := range pbFields(t, f.b) {
						switch g.num {
						case 1:
							tr.pid = int64(g.v)
						case 6:
							tr.name = string(g.b)
						default:
							t.Fatalf("ProcessDescriptor field %d", g.num)
						}
					}
				case 4:
					tr.kind = "thread"
					for _, g := range pbFields(t, f.b) {
						switch g.num {
						case 1:
							tr.pid = int64(g.v)
						case 2:
							tr.tid = int64(g.v)
						case 5:
							tr.name = string(g.b)
						default:
							t.Fatalf("ThreadDescriptor field %d", g.num)
						}
					}
				default:
					t.Fatalf("TrackDescriptor field %d", f.num)
				}
			}
			if tr.uuid == 0 || tracks[tr.uuid] != nil {
				t.Fatalf("track uuid %d missing or described twice", tr.uuid)
			}
			tracks[tr.uuid] = tr
			switch tr.kind {
			case "process":
				lines = append(lines, fmt.Sprintf("process %d %q", tr.pid, tr.name))
			case "thread":
				lines = append(lines, fmt.Sprintf("thread %d %d %q", tr.pid, tr.tid, tr.name))
			}
			continue
		}
		var typ, track uint64
		var counter int64
		var name, cat string
		var args []string
		for _, f := range pbFields(t, ev) {
			switch f.num {
			case 9:
				typ = f.v
			case 11:
				track = f.v
			case 22:
				cat = string(f.b)
			case 3:
				cat = lookup(1, f.v)
			case 23:
				name = string(f.b)
			case 10:
				name = lookup(2, f.v)
			case 30:
				counter = int64(f.v)
			case 4:
				var k, v string
				for _, g := range pbFields(t, f.b) {
					switch g.num {
					case 10:
						k = string(g.b)
					case 1:
						k = lookup(3, g.v)
					case 6:
						v = fmt.Sprintf("%q", g.b)
					case 17:
						v = fmt.Sprintf("%q", lookup(29, g.v))
					case 4:
						v = fmt.Sprint(int64(g.v))
					case 2:
						v = fmt.Sprint(g.v == 1)
					default:
						t.Fatalf("DebugAnnotation field %d", g.num)
					}
				}
				args = append(args, k+"="+v)
			default:
				t.Fatalf("TrackEvent field %d", f.num)
			}
		}
		tr := tracks[track]
		if tr == nil {
			t.Fatalf("event on undescribed track %d", track)
		}
		sort.Strings(args)
		a := strings.Join(args, " ")
		switch typ {
		case 1:
			if len(open[track]) > 0 {
				t.Errorf("slice %q begins on track %q inside %q", name, tr.name, open[track][0].name)
			}
			open[track] = append(open[track], pbOpen{ts, name, cat, a})
		case 2:
			st := open[track]
			if len(st) == 0 {
				t.Fatalf("slice end without a begin on %q", tr.name)
			}
			o := st[len(st)-1]
			open[track] = st[:len(st)-1]
			spans[track] = append(spans[track], [2]int64{o.ts, ts})
			if tr.kind == "thread" {
				lines = append(lines, fmt.Sprintf("slice %d %d %d..%d %q %s {%s}", tr.pid, tr.tid, o.ts, ts, o.name, o.cat, o.args))
			} else {
				if tr.name != o.name {
					t.Errorf("async slice %q on track %q", o.name, tr.name)
				}
				lines = append(lines, fmt.Sprintf("async %d %d..%d %q %s {%s}", procPID(tr), o.ts, ts, o.name, o.cat, o.args))
			}
		case 3:
			lines = append(lines, fmt.Sprintf("instant %d %d %q %s {%s}", procPID(tr), ts, name, cat, a))
		case 4:
			if tr.kind != "counter" {
				t.Fatalf("counter value on %s track %q", tr.kind, tr.name)
			}
			lines = append(lines, fmt.Sprintf("counter %d %q %d %d", procPID(tr), tr.name, ts, counter))
		default:
			t.Fatalf("event type %d", typ)
		}
	}
	for u, sp := range spans {
		slices.SortFunc(sp, func(a, b [2]int64) int { return int(a[0] - b[0]) })
		for i := 1; i < len(sp); i++ {
			if sp[i][0] < sp[i-1][1] {
				t.Errorf("track %q: slices %v and %v overlap (Perfetto would nest or drop them)", tracks[u].name, sp[i-1], sp[i])
				break
			}
		}
	}
	for u, st := range open {
		if len(st) > 0 {
			t.Errorf("track %q: %d slices never end", tracks[u].name, len(st))
		}
	}
	sort.Strings(lines)
	return lines
}

// jsonTraceLines reads the JSON trace into the same canonical lines.
func jsonTraceLines(t *testing.T, data []byte) []string {
	t.Helper()
	var doc struct {
		TraceEvents []map[string]json.RawMessage `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	num := func(e map[string]json.RawMessage, k string) int64 {
		var v int64
		if raw, ok := e[k]; ok {
			json.Unmarshal(raw, &v)
		}
		return v
	}
	str := func(e map[string]json.RawMessage, k string) string {
		var v string
		if raw, ok := e[k]; ok {
			json.Unmarshal(raw, &v)
		}
		return v
	}
	args := func(e map[string]json.RawMessage) (map[string]json.RawMessage, string) {
		var m map[string]json.RawMessage
		if raw, ok := e["args"]; ok {
			json.Unmarshal(raw, &m)
		}
		var out []string
		for k, raw := range m {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				out = append(out, k+"="+fmt.Sprintf("%q", s))
			} else {
				out = append(out, k+"="+string(raw))
			}
		}
		sort.Strings(out)
		return m, strings.Join(out, " ")
	}
	var lines []string
	begins := map[string]map[string]json.RawMessage{}
	for _, e := range doc.TraceEvents {
		_, a := args(e)
		switch str(e, "ph") {
		case "M":
			m, _ := args(e)
			var name string
			json.Unmarshal(m["name"], &name)
			switch str(e, "name") {
			case "process_name":
				lines = append(lines, fmt.Sprintf("process %d %q", num(e, "pid"), name))
			case "thread_name":
				lines = append(lines, fmt.Sprintf("thread %d %d %q", num(e, "pid"), num(e, "tid"), name))
			}
		case "X":
			ts := num(e, "ts")
			lines = append(lines, fmt.Sprintf("slice %d %d %d..%d %q %s {%s}", num(e, "pid"), num(e, "tid"), ts, ts+num(e, "dur"), str(e, "name"), str(e, "cat"), a))
		case "C":
			m, _ := args(e)
			for k, raw := range m {
				var v int64
				json.Unmarshal(raw, &v)
				lines = append(lines, fmt.Sprintf("counter %d %q %d %d", num(e, "pid"), str(e, "name")+" "+k, num(e, "ts"), v))
			}
		case "i":
			lines = append(lines, fmt.Sprintf("instant %d %d %q %s {%s}", num(e, "pid"), num(e, "ts"), str(e, "name"), str(e, "cat"), a))
		case "b":
			begins[str(e, "id")] = e
		case "e":
			b := begins[str(e, "id")]
			_, ba := args(b)
			lines = append(lines, fmt.Sprintf("async %d %d..%d %q %s {%s}", num(b, "pid"), num(b, "ts"), num(e, "ts"), str(b, "name"), str(b, "cat"), ba))
		default:
			t.Fatalf("JSON phase %q not covered", str(e, "ph"))
		}
	}
	sort.Strings(lines)
	return lines
}

func traceFile(t *testing.T, o export.TraceOptions, rep *model.Report) []byte {
	t.Helper()
	for _, out := range export.OutputsWith(o) {
		if strings.HasPrefix(out.Name, "imas_graph_perfetto.") {
			var buf bytes.Buffer
			if err := out.Write(&buf, rep); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}
	}
	t.Fatal("no trace output")
	return nil
}

func TestPerfettoProtoMatchesJSON(t *testing.T) {
	reports := map[string]*model.Report{}
	for _, s := range []string{"basic", "mixed", "conflicts", "pool"} {
		reports[s] = sample(t, s)
	}
	odd := synthReport(400)
	odd.Graphs[0].Rows[0].Node = "a\"b<c>&d\u2028e\\f\x01g\tü"
	reports["escapes"] = odd
	for name, rep := range reports {
		t.Run(name, func(t *testing.T) {
			all := export.TraceScope{Graphs: export.AllGraphs}
			js := traceFile(t, export.TraceOptions{Format: export.TraceJSON, Scope: all}, rep)
			var plain bytes.Buffer
			export.WritePerfetto(&plain, rep)
			if !bytes.Equal(js, plain.Bytes()) {
				t.Fatal("the JSON trace of all graphs differs from WritePerfetto's")
			}
			pb := traceFile(t, export.TraceOptions{Format: export.TraceProto, Scope: all}, rep)
			want, got := jsonTraceLines(t, js), decodeProtoTrace(t, pb)
			if len(want) < 10 {
				t.Fatalf("only %d lines in the JSON trace", len(want))
			}
			if !slices.Equal(got, want) {
				t.Errorf("protobuf trace differs from the JSON trace (%d vs %d lines)\n%s", len(got), len(want), lineDiff(got, want))
			}
			t.Logf("%d events: JSON %d bytes, protobuf %d bytes", len(want), len(js), len(pb))
			// A scoped trace (the largest graph, and the note saying what
			// was left out) carries the same content in both formats too.
			one := export.TraceScope{Graphs: 1}
			js = traceFile(t, export.TraceOptions{Format: export.TraceJSON, Scope: one}, rep)
			pb = traceFile(t, export.TraceOptions{Format: export.TraceProto, Scope: one}, rep)
			if want, got := jsonTraceLines(t, js), decodeProtoTrace(t, pb); !slices.Equal(got, want) {
				t.Errorf("scoped protobuf trace differs from the scoped JSON trace (%d vs %d lines)\n%s", len(got), len(want), lineDiff(got, want))
			}
		})
	}
}

func lineDiff(got, want []string) string {
	var b strings.Builder
	g, w := map[string]int{}, map[string]int{}
	for _, l := range got {
		g[l]++
	}
	for _, l := range want {
		w[l]++
	}
	n := 0
	for _, l := range want {
		if g[l] < w[l] && n < 5 {
			fmt.Fprintf(&b, "missing: %s\n", l)
			n++
		}
	}
	for _, l := range got {
		if w[l] < g[l] && n < 10 {
			fmt.Fprintf(&b, "extra:   %s\n", l)
			n++
		}
	}
	return b.String()
}

// TestTraceScope keeps the largest graph of a report of several, and says
// what was left out in both formats.
func TestTraceScope(t *testing.T) {
	rep := sample(t, "mixed")
	if len(rep.Graphs) < 3 {
		t.Fatalf("%d graphs", len(rep.Graphs))
	}
	largest := rep.Graphs[0]
	for _, g := range rep.Graphs {
		if len(g.Rows) > len(largest.Rows) {
			largest = g
		}
	}
	one := export.TraceScope{Graphs: 1}
	js := traceFile(t, export.TraceOptions{Scope: one}, rep)
	var doc struct {
		TraceEvents []struct {
			Ph, Name string
			Args     struct{ Name string }
		} `json:"traceEvents"`
		Metadata map[string]string `json:"metadata"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	var procs []string
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" && e.Name == "process_name" {
			procs = append(procs, e.Args.Name)
		}
	}
	note := fmt.Sprintf("%d of %d graphs", len(rep.Graphs)-1, len(rep.Graphs))
	if !strings.HasPrefix(doc.Metadata["left_out"], note) || !strings.HasPrefix(procs[0], largest.Graph+" ") || !strings.Contains(procs[len(procs)-1], note) {
		t.Errorf("left_out %q, processes %q", doc.Metadata["left_out"], procs)
	}
	for _, p := range procs[1:] {
		for _, g := range rep.Graphs {
			if g != largest && strings.HasPrefix(p, g.Graph+" ") {
				t.Errorf("graph %s kept", g.Graph)
			}
		}
	}
	pb := decodeProtoTrace(t, traceFile(t, export.TraceOptions{Format: export.TraceProto, Scope: one}, rep))
	if want := jsonTraceLines(t, js); !slices.Equal(pb, want) {
		t.Errorf("scoped protobuf trace differs from the scoped JSON\n%s", lineDiff(pb, want))
	}
	// The automatic scope keeps a report this small whole.
	auto := traceFile(t, export.TraceOptions{}, rep)
	var whole bytes.Buffer
	export.WritePerfetto(&whole, rep)
	if !bytes.Equal(auto, whole.Bytes()) {
		t.Error("automatic scope changed a small trace")
	}
}

func TestReportJSONWithoutRows(t *testing.T) {
	rep := sample(t, "mixed")
	var full, before, slim bytes.Buffer
	export.WriteJSON(&before, rep)
	if err := export.WriteJSONWithoutRows(&slim, rep); err != nil {
		t.Fatal(err)
	}
	export.WriteJSON(&full, rep)
	if !bytes.Equal(full.Bytes(), before.Bytes()) {
		t.Fatal("WriteJSONWithoutRows changed the report")
	}
	var r struct {
		Graphs []struct {
			Rows       []json.RawMessage `json:"rows"`
			Live       json.RawMessage   `json:"live"`
			MemorySize int64             `json:"memory_size"`
		} `json:"graphs"`
		Extra map[string]any `json:"extra"`
	}
	if err := json.NewDecoder(io.MultiReader(&slim)).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if r.Extra["rows_omitted"] != true || len(r.Graphs) != len(rep.Graphs) {
		t.Fatalf("extra %v, %d graphs", r.Extra, len(r.Graphs))
	}
	live := 0
	for i, g := range r.Graphs {
		if len(g.Rows) != 0 || g.Live != nil || g.MemorySize != rep.Graphs[i].MemorySize {
			t.Errorf("graph %d: %d rows, live curve %.40s, memory_size %d", i, len(g.Rows), g.Live, g.MemorySize)
		}
		if rep.Graphs[i].Live != nil {
			live++
		}
	}
	if live == 0 {
		t.Error("no graph of the sample has a live curve: the test checks nothing")
	}
	if slim.Len() >= full.Len() {
		t.Errorf("without rows %d bytes, with %d", slim.Len(), full.Len())
	}
}

// TestTraceNote: the CLI's note says what a scoped trace left out, and
// points a JSON trace's users at the protobuf format.
func TestTraceNote(t *testing.T) {
	rep := sample(t, "mixed")
	left := fmt.Sprintf("%d of %d graphs", len(rep.Graphs)-1, len(rep.Graphs))
	for _, tc := range []struct {
		name      string
		o         export.TraceOptions
		want      string // prefix; "" for no note
		wantProto bool   // suggests -trace-format proto
	}{
		{"every graph fits", export.TraceOptions{}, "", false},
		{"all graphs", export.TraceOptions{Scope: export.TraceScope{Graphs: export.AllGraphs}}, "", false},
		{"json, the largest", export.TraceOptions{Scope: export.TraceScope{Graphs: 1}}, left, true},
		{"proto, the largest", export.TraceOptions{Format: export.TraceProto, Scope: export.TraceScope{Graphs: 1}}, left, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := export.TraceNote(rep, tc.o)
			if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) ||
				strings.Contains(got, "-trace-format proto") != tc.wantProto {
				t.Errorf("note %q, want it to start with %q (proto suggested: %v)", got, tc.want, tc.wantProto)
			}
		})
	}
}
