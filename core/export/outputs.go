package export

import (
	"io"

	"imas/core/model"
)

// Output is one file of an "imas report" output directory. The CLI, the page
// and the server all produce the same set from this list.
type Output struct {
	Name  string
	Mime  string
	Write func(io.Writer, *model.Report) error
}

// Outputs lists every report file, in the order they are written.
func Outputs() []Output {
	out := []Output{
		{"imas_mem_graph.csv", "text/csv", WriteGraphCSV},
	}
	out = append(out, runtimeOutputs()...)
	out = append(out, traceOutputs()...)
	out = append(out, Output{"report.json", "application/json", WriteJSON})
	return out
}
