package export

// runtimeOutputs are the CSVs of load- and run-time memory (pools,
// variables, addresses).
func runtimeOutputs() []Output { return nil }
