# The Perfetto trace (docs/perfetto.md). Its tests run in "make unit" (go test ./...);
# these targets are shortcuts.
#   make test-perfetto    the trace writer's tests and open.js's headless-Chromium tests
#   make golden-perfetto  rewrite testdata/golden/perfetto/ (check the diff before committing)
#   make bench-perfetto   write a trace of 10^6 tensors: ns/op, B/op, MB/s
#   make perfetto-trace   imas report on the mixed sample; the trace is mem_report/imas_graph_perfetto.json
.PHONY: test-perfetto golden-perfetto bench-perfetto perfetto-trace

test-perfetto:
	$(GO) test -count=1 -run 'Perfetto|AppendString|Lanes|MemTypeName' ./core/export ./ui/perfetto

golden-perfetto:
	$(GO) test -count=1 -run '^TestPerfettoGolden$$' ./core/export -update

bench-perfetto:
	$(GO) test -run '^$$' -bench '^BenchmarkWritePerfetto$$' -benchmem -benchtime 3x ./core/export

perfetto-trace: cli
	./bin/imas report -o mem_report testdata/samples/mixed
