package export

import (
	"bufio"
	"io"

	"imas/core/model"
)

// WriteTotal writes "imas total": one summary line per graph and memory
// type (the summary row of imas_mem_graph.csv), then the device-memory
// sections.
func WriteTotal(w io.Writer, rep *model.Report) error {
	bw := bufio.NewWriter(w)
	writeMemoryErrors(bw, rep)
	for g := range rep.AllGraphs() {
		bw.WriteString(SummaryLine(g))
		bw.WriteString("\n")
		writeGraphFindings(bw, g)
	}
	writeRuntimeTotal(bw, rep)
	return bw.Flush()
}
