package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"imas/core/model"
	"imas/internal/driver"
)

// apiError is the JSON body of every 4xx and 5xx answer of the API:
// {"error": "..."} plus, when nothing was recognised, what was looked for
// and the explanation the CLI and the page show (driver.Unusable).
type apiError struct {
	status      int
	Message     string             `json:"error"`
	Missing     []string           `json:"missing_markers,omitempty"`
	Hint        string             `json:"hint,omitempty"`
	Explanation string             `json:"explanation,omitempty"` // the text the CLI prints
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

// unusableError answers a run without a record: the upload could not be
// read (400), was empty (400), was too big once expanded (413), or held no
// GE memory lines (422, with the markers that were looked for and the hint).
func unusableError(u *driver.Unusable) *apiError {
	status := http.StatusUnprocessableEntity
	switch u.Problem {
	case driver.Unreadable, driver.Empty:
		status = http.StatusBadRequest
	case driver.TooLarge:
		status = http.StatusRequestEntityTooLarge
	}
	e := errorf(status, "%s", u.Error())
	e.Explanation = u.Text()
	e.Missing = u.Missing()
	if e.Missing != nil {
		e.Hint = driver.Hint
	}
	e.Diagnostics = u.Diagnostics
	return e
}
