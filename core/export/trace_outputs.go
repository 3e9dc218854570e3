package export

import (
	"io"

	"imas/core/model"
)

// Trace formats of TraceOptions.Format.
const (
	TraceJSON  = "json"  // Chrome JSON, imas_graph_perfetto.json
	TraceProto = "proto" // Perfetto protobuf, imas_graph_perfetto.pftrace
)

// TraceOptions are the choices "imas report" offers for the trace and
// report.json.
type TraceOptions struct {
	Format string // TraceJSON (default) or TraceProto
	Scope  TraceScope
	// OmitRows leaves the per-tensor rows out of report.json.
	OmitRows bool
}

// traceOutputs are the Perfetto trace files.
func traceOutputs() []Output {
	return []Output{{"imas_graph_perfetto.json", "application/json", WritePerfetto}}
}

// OutputsWith is Outputs with the trace and report.json as o says. The
// zero TraceOptions gives Outputs except that a trace above AutoTraceRows
// rows keeps only the largest graphs.
func OutputsWith(o TraceOptions) []Output {
	out := Outputs()
	for i := range out {
		switch out[i].Name {
		case "imas_graph_perfetto.json":
			sc := o.Scope
			if o.Format == TraceProto {
				out[i] = Output{"imas_graph_perfetto.pftrace", "application/octet-stream", func(w io.Writer, rep *model.Report) error {
					return writePerfettoProto(w, rep, sc)
				}}
			} else {
				out[i].Write = func(w io.Writer, rep *model.Report) error { return writePerfettoJSON(w, rep, sc) }
			}
		case "report.json":
			if o.OmitRows {
				out[i].Write = WriteJSONWithoutRows
			}
		}
	}
	return out
}

// TraceNote says what the trace written with o leaves out of rep, and how
// to draw more ("" when it shows every graph), for the CLI's summary.
func TraceNote(rep *model.Report, o TraceOptions) string {
	lim := jsonLimits
	if o.Format == TraceProto {
		lim = protoLimits
	}
	_, graphNote := o.Scope.graphs(rep, lim.rows)
	// A store that cannot be read fails the trace's own writing.
	_, poolNote, _ := o.Scope.poolCut(rep.Pools, lim.poolRows)
	note := joinNotes(graphNote, poolNote)
	if note == "" || o.Format == TraceProto {
		return note
	}
	return note + "; -trace-format proto writes a trace about half the size that holds twice as much"
}
