package export

// RowJSONFields exposes the row encoder's key list to the external tests.
func RowJSONFields() []string { return rowJSONFields }
