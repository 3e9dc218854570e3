package driver

import "imas/internal/size"

// ParseSize reads a size in bytes with the units of docs/sizes.md
// (size.Parse): every door reads sizes the same way.
func ParseSize(s string) (int64, error) { return size.Parse(s) }

// SizeText writes a limit as users typed it ("1 GiB (1073741824 bytes)").
func SizeText(n int64) string { return size.Text(n) }
