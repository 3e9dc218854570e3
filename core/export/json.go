package export

import (
	"encoding/json"
	"io"

	"imas/core/model"
)

// WriteJSON writes report.json (schema imas.report/v1).
func WriteJSON(w io.Writer, rep *model.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(rep)
}
