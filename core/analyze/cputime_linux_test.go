package analyze_test

import "syscall"

// cpuTime is the process's user + system CPU time in nanoseconds: on a
// shared machine it varies less than the wall time of a benchmark.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
