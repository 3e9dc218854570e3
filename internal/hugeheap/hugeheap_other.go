//go:build !linux

package hugeheap

func advise(int) bool { return false }
