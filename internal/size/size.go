// Package size reads byte sizes typed by users, with one set of units for
// every front door and tool (docs/sizes.md).
package size

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Size units (docs/sizes.md). Two families, told apart by their spelling:
//
//	K, M, G, T and KiB, MiB, GiB, TiB: binary, powers of 1024 (as the page
//	                                   and the text outputs print sizes);
//	KB, MB, GB, TB:                    decimal, powers of 1000 (as disks
//	                                   and Cloudflare's "100 MB" count).
//
// A bare number, or one ending in B, is bytes. Letters are case-insensitive
// ("1g" is 1 GiB, "100mb" is 10^8 bytes) and a space may separate the number
// from its unit. Fractions are rounded to the nearest byte ("1.5M").
var sizeUnits = []struct {
	suffix string
	mult   float64
}{
	// Longest suffixes first: "MiB" must not be read as "B".
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// Parse reads a size in bytes: "4096", "4K", "1.5M", "256MiB", "100MB",
// "2 GiB". It accepts zero; callers that need a positive size check it.
func Parse(s string) (int64, error) {
	num, mult := strings.ToLower(strings.TrimSpace(s)), 1.0
	for _, u := range sizeUnits {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	bad := fmt.Errorf("%q is not a size (e.g. 4096, 64K, 1.5M, 256MiB, 100MB, 2G)", s)
	if num == "" || strings.ContainsAny(num, "+-_") { // no sign, no digit separators
		return 0, bad
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || strings.ContainsAny(num, "xXpPeEiInN") {
		return 0, bad
	}
	n := math.Round(f * mult)
	if n >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(n), nil
}

// Text writes a limit the way it was most likely given, with its exact
// value: "100 MB (100000000 bytes)", "256 MiB (268435456 bytes)", "1000 bytes".
func Text(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB (%d bytes)", n>>30, n)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB (%d bytes)", n>>20, n)
	case n >= 1e9 && n%1e9 == 0:
		return fmt.Sprintf("%d GB (%d bytes)", n/1e9, n)
	case n >= 1e6 && n%1e6 == 0:
		return fmt.Sprintf("%d MB (%d bytes)", n/1e6, n)
	}
	return fmt.Sprintf("%d bytes", n)
}
