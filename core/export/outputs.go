package export

import (
	"errors"
	"io"
	"runtime"
	"sync"

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

// EachOutput calls write for every output, up to GOMAXPROCS at a time: the
// writers only read the report, and a big report's files take seconds each.
// It returns the errors joined.
func EachOutput(write func(Output) error) error { return EachOutputOf(Outputs(), write) }

// EachOutputOf is EachOutput over outs (OutputsWith's, say).
func EachOutputOf(outs []Output, write func(Output) error) error {
	errs := make([]error, len(outs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, o := range outs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = write(o)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
