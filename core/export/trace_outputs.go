package export

// traceOutputs are the Perfetto trace files.
func traceOutputs() []Output {
	return []Output{{"imas_graph_perfetto.json", "application/json", WritePerfetto}}
}
