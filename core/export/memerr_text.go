package export

import (
	"bufio"
	"fmt"

	"imas/core/model"
)

// writeMemoryErrors writes the "Memory errors" section that opens "imas
// total" and "imas check": an engineer with an out-of-memory wants it
// before anything else. It returns the number of errors (nothing is
// written when there are none).
func writeMemoryErrors(bw *bufio.Writer, rep *model.Report) int {
	if len(rep.MemoryErrors) == 0 {
		return 0
	}
	fmt.Fprintf(bw, "Memory errors (%d)\n", len(rep.MemoryErrors))
	for _, e := range rep.MemoryErrors {
		when := e.TimeText
		if when == "" {
			when = "time not logged"
		}
		fmt.Fprintf(bw, "  %s  pid %s", when, e.PID)
		if e.Process != "" {
			fmt.Fprintf(bw, " (%s)", e.Process)
		}
		if e.Device >= 0 {
			fmt.Fprintf(bw, "  device %d", e.Device)
		}
		bw.WriteString("\n    asked ")
		if e.Size >= 0 {
			bw.WriteString(Bytes(e.Size))
		} else {
			bw.WriteString("(size not logged)")
		}
		if e.Purpose != "" {
			fmt.Fprintf(bw, " for %s", e.Purpose)
		}
		if e.Func != "" {
			fmt.Fprintf(bw, " by %s", e.Func)
			if e.Module != "" {
				fmt.Fprintf(bw, " [%s]", e.Module)
			}
		}
		if e.Caller != "" {
			fmt.Fprintf(bw, ", called from %s", e.Caller)
		}
		if e.DriverModule != "" {
			fmt.Fprintf(bw, ", for driver module %s", e.DriverModule)
		}
		bw.WriteString("\n    failed")
		if e.Code != "" {
			fmt.Fprintf(bw, ": code %s", e.Code)
		}
		if e.Reason != "" {
			fmt.Fprintf(bw, ": %s", e.Reason)
		}
		if e.Expect != nil && e.Actual != nil {
			fmt.Fprintf(bw, " (expected %s, found %s)", Bytes(*e.Expect), Bytes(*e.Actual))
		}
		fmt.Fprintf(bw, "\n    at %s:%d (%d %s)\n", e.Path, e.Line, len(e.Statements), plural(len(e.Statements), "statement", "statements"))
		if p := e.Before; p != nil {
			fmt.Fprintf(bw, "    before: devmm current %s, peak %s in %d %s; GE device mallocs %s in %d %s\n",
				Bytes(p.DevmmCurrent), Bytes(p.DevmmPeak), len(p.Devmm), plural(len(p.Devmm), "module", "modules"),
				Bytes(p.MallocBytes), p.MallocCount, plural(int(p.MallocCount), "line", "lines"))
		}
	}
	return len(rep.MemoryErrors)
}
