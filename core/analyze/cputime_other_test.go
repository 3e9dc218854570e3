//go:build !linux

package analyze_test

func cpuTime() int64 { return 0 }
