package model

import "strconv"

// The size and lifetime rules every figure, writer and view uses.

// Align512 rounds n up to GE's 512-byte block alignment (MEM_ALIGN_SIZE):
// the memory a tensor of n real bytes takes in its block. 0 for n ≤ 0.
func Align512(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return (n + 511) / 512 * 512
}

// Infinite lifetimes: kDefaultLifeTime and kMaxLifeTime.
const (
	LifeDefault int64 = 4294967294
	LifeMax     int64 = 4294967295
)

// IsInfinite reports whether a lifetime step means "to the end of the
// graph".
func IsInfinite(t int64) bool { return t >= LifeDefault }

// FormatLife formats a lifetime the way the GE memory guide shows it:
// "2→9", and "2→∞" for an end that lasts to the end of the graph.
func FormatLife(begin, end int64) string { return string(AppendLife(nil, begin, end)) }

// AppendLife appends FormatLife(begin, end) to dst.
func AppendLife(dst []byte, begin, end int64) []byte {
	dst = strconv.AppendInt(dst, begin, 10)
	dst = append(dst, "→"...)
	if IsInfinite(end) {
		return append(dst, "∞"...)
	}
	return strconv.AppendInt(dst, end, 10)
}
