//go:build !(goexperiment.simd && amd64)

package scan

// Without GOEXPERIMENT=simd on amd64 the byte passes do all the scanning.
func simdScan() bool { return false }

func candidateLinesSIMD(data []byte, dst []int) []int { panic("scan: no SIMD scan in this build") }
