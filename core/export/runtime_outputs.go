package export

// runtimeOutputs are the CSVs of load- and run-time memory (pools,
// variables, addresses).
func runtimeOutputs() []Output {
	return []Output{
		{"imas_mem_pool.csv", "text/csv", WritePoolCSV},
		{"imas_mem_variable.csv", "text/csv", WriteVarCSV},
		{"imas_mem_addr.csv", "text/csv", WriteAddrCSV},
	}
}
