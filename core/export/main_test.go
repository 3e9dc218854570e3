package export_test

import (
	"os"
	"testing"

	"imas/internal/hugeheap"
)

// TestMain gives the benchmarks the heap "imas report" runs with:
// IMAS_HUGEHEAP=1 advises huge pages at start as the CLI then does
// (internal/hugeheap), so BenchmarkReport10e6 measures the same.
func TestMain(m *testing.M) {
	if os.Getenv("IMAS_HUGEHEAP") == "1" {
		hugeheap.Advise(1 << 30)
	}
	os.Exit(m.Run())
}
