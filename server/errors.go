package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"imas/core/gelog"
	"imas/core/model"
)

// apiError is the JSON body of every 4xx and 5xx answer of the API:
// {"error": "..."} plus, when nothing was recognised, what was looked for.
type apiError struct {
	status      int
	Message     string             `json:"error"`
	Missing     []string           `json:"missing_markers,omitempty"`
	Hint        string             `json:"hint,omitempty"`
	Diagnostics []model.Diagnostic `json:"diagnostics,omitempty"`
	retryAfter  int                // seconds; sent as Retry-After when > 0
}

func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, Message: fmt.Sprintf(format, args...)}
}

func writeError(w http.ResponseWriter, e *apiError) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Del("Content-Length")
	if e.retryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(e.retryAfter))
	}
	w.WriteHeader(e.status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.Encode(e)
}

// logLevelHint is how users get the lines imas reads (report-contract §2).
const logLevelHint = "GE prints these lines only at INFO log level, during model build and load: " +
	"export ASCEND_GLOBAL_LOG_LEVEL=1 (and ASCEND_HOST_LOG_FILE_NUM=1000 to keep enough plog files), " +
	"re-run, then upload the debug plogs ($HOME/ascend/log/debug/plog/); for device statistics " +
	"(_svm_mem_stats_show) add the run plogs (log/run/plog/)."

// inputReasons are diagnostics that mean the upload itself could not be read.
var inputReasons = map[string]bool{
	"unreadable": true, "corrupt-archive": true, "truncated-input": true, "unsafe-member": true,
}

// unusable explains a report without a single record: the upload could not
// be read (400), was empty (400), was too big once expanded (413), or held
// no GE memory lines (422, with the markers that were looked for).
func unusable(rep *model.Report) *apiError {
	var problems []model.Diagnostic
	for _, d := range rep.Diagnostics {
		switch {
		case d.Reason == "bomb-limit":
			return errorf(http.StatusRequestEntityTooLarge, "%s: %s", d.Path, d.Detail)
		case inputReasons[d.Reason]:
			problems = append(problems, d)
		}
	}
	if len(problems) > 0 {
		e := errorf(http.StatusBadRequest, "the upload could not be read: %s", problems[0].Detail)
		e.Diagnostics = problems
		return e
	}
	var bytes int64
	for _, f := range rep.Inputs.Files {
		bytes += f.Bytes
	}
	if bytes == 0 {
		return errorf(http.StatusBadRequest, "empty body: send a plog file (raw, gzip, tar or zip) or multipart \"file\" parts")
	}
	if rep.Inputs.Candidates > 0 {
		e := errorf(http.StatusUnprocessableEntity, "%d of %d lines looked like GE memory records but none could be used",
			rep.Inputs.Candidates, rep.Inputs.Lines)
		e.Diagnostics = rep.Diagnostics[:min(len(rep.Diagnostics), 10)]
		return e
	}
	e := errorf(http.StatusUnprocessableEntity, "no GE memory records in %d lines of %d %s: none of the markers imas reads was found (missing_markers)",
		rep.Inputs.Lines, len(rep.Inputs.Files), plural(len(rep.Inputs.Files), "input", "inputs"))
	e.Missing = gelog.Markers
	e.Hint = logLevelHint
	return e
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
