// Package export writes the model in every output format: the imas CSVs,
// report.json, text summaries, and the Perfetto trace. It never parses.
package export

import (
	"strconv"
)

// Human formats a byte count like GE's SizeToString and the old imas:
// "512", "6.00K", "256.03M", "1.50G".
func Human(n int64) string {
	neg := n < 0
	u := n
	if neg {
		u = -n
	}
	var s string
	switch {
	case u <= 1024:
		s = strconv.FormatInt(u, 10)
	case u <= 1<<20:
		s = strconv.FormatFloat(float64(u)/1024, 'f', 2, 64) + "K"
	case u <= 1<<30:
		s = strconv.FormatFloat(float64(u)/(1<<20), 'f', 2, 64) + "M"
	default:
		s = strconv.FormatFloat(float64(u)/(1<<30), 'f', 2, 64) + "G"
	}
	if neg {
		return "-" + s
	}
	return s
}

// Bytes formats "268470272(256.03M)", the old imas size cell.
func Bytes(n int64) string {
	if n >= -1024 && n <= 1024 {
		return strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10) + "(" + Human(n) + ")"
}

// Rate formats a percentage the way the old imas did ("0", "8.94", "48.3").
func Rate(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// Rate2 formats a percentage with two decimals ("100.00").
func Rate2(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
