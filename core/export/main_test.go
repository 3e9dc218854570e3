package export_test

import (
	"os"
	"testing"

	"imas/internal/hugeheap"
)

// TestMain gives the benchmarks the heap "imas report" runs with: the CLI
// advises huge pages at start (internal/hugeheap), so BenchmarkReport10e6
// measures the same. IMAS_HUGEHEAP=0 measures without.
func TestMain(m *testing.M) {
	if os.Getenv("IMAS_HUGEHEAP") != "0" {
		hugeheap.Advise(1 << 30)
	}
	os.Exit(m.Run())
}
