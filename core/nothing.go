package core

import (
	"fmt"
	"strings"

	"imas/core/model"
)

// NoMarkers is what every front door tells a user whose logs hold none of
// the lines imas reads, and how to get them.
const NoMarkers = `none of these GE markers were found: "[IMAS]Set", "[IMAS]AfterAssignMemory",
  "MallocMemory, func=", "[KernelTrace][", "Malloc block", "_svm_mem_stats_show".
These lines are printed only at INFO log level during model build and load. Re-run with:
  export ASCEND_GLOBAL_LOG_LEVEL=1          # INFO (0=DEBUG also works)
  export ASCEND_HOST_LOG_FILE_NUM=1000      # keep enough rotated plog files
  atc ... --log=info                        # for offline model conversion
then pass the debug plogs ($HOME/ascend/log/debug/plog/ or $ASCEND_PROCESS_LOG_PATH) to imas.
For device statistics (_svm_mem_stats_show) also pass the run plogs (log/run/plog/);
the process must exit normally for the driver to print them.`

// Unusable explains a report without a single record (nil when it has
// one): how much was read, and either the lines that looked like records
// but could not be used (the first few diagnostics) or NoMarkers.
func Unusable(rep *model.Report) error {
	if rep.Inputs.Records > 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "nothing recognised in %d lines of %d files.\n", rep.Inputs.Lines, len(rep.Inputs.Files))
	if rep.Inputs.Candidates == 0 {
		b.WriteString(NoMarkers)
		return &UnusableError{b.String()}
	}
	fmt.Fprintf(&b, "%d lines looked like GE memory records but none could be used; see the diagnostics (imas report writes them to report.json).", rep.Inputs.Candidates)
	for i, d := range rep.Diagnostics {
		if i == 5 {
			break
		}
		fmt.Fprintf(&b, "\n  %s:%d: %s: %s", d.Path, d.Line, d.Reason, d.Detail)
	}
	return &UnusableError{b.String()}
}

// UnusableError is Unusable's answer.
type UnusableError struct{ Msg string }

func (e *UnusableError) Error() string { return e.Msg }
