package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"imas/core/export"
	"imas/core/model"
	"imas/internal/driver"
	"imas/wasm/engine"
)

// Size formats bytes with binary units, labelled as such: "512 B",
// "6.00 KiB", "1.00 MiB" (exactly 2^20 bytes), "1.50 GiB". Exact is the
// byte count for a hover title.
func Size(n int64) string {
	u := n
	if u < 0 {
		u = -u
	}
	if u < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	unit, div := "KiB", 1024.0
	for _, next := range []string{"MiB", "GiB", "TiB"} {
		if float64(u) < div*1024 {
			break
		}
		unit, div = next, div*1024
	}
	return strconv.FormatFloat(float64(n)/div, 'f', 2, 64) + " " + unit
}

// Exact is the hover text of a size: every byte, "8 528 896 bytes".
func Exact(n int64) string { return Count(n) + " bytes" }

// MemType names a memory type as the Perfetto trace does (HBM, P2P_HBM, …).
func MemType(mt int64) string { return export.MemTypeName(mt) }

// Count formats a count with thin spaces between thousands.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u2009")
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Rate formats a throughput in MB/s (10^6 bytes, as disks and browsers do).
func Rate(bytes int64, seconds float64) string {
	if seconds <= 0 {
		return "–"
	}
	r := float64(bytes) / 1e6 / seconds
	if r < 10 {
		return strconv.FormatFloat(r, 'f', 1, 64) + " MB/s"
	}
	return strconv.FormatFloat(r, 'f', 0, 64) + " MB/s"
}

// ProgressText is the line under the progress bar: what has been read and
// how long the rest should take. Once everything is read, the engine builds
// the model and runs the analyses, which report no progress of their own.
func ProgressText(p engine.Progress) string {
	if p.Total > 0 && p.Read >= p.Total {
		return fmt.Sprintf("read %s (%s lines, %s records) in %.1fs; analysing…", Size(p.Total), Count(p.Lines), Count(p.Records), p.Seconds)
	}
	parts := []string{fmt.Sprintf("%s of %s", Size(p.Read), Size(p.Total))}
	if p.Inputs > 1 {
		parts = append(parts, fmt.Sprintf("%d of %d files read", p.InputsDone, p.Inputs))
	}
	if p.Input != "" && p.Inputs > 1 {
		parts = append(parts, fmt.Sprintf("%s: %s of %s", p.Input, Size(p.InputRead), Size(p.InputSize)))
	}
	if p.Bytes != p.Read && p.Bytes > 0 {
		parts = append(parts, Size(p.Bytes)+" of text")
	}
	if p.Lines > 0 {
		parts = append(parts, Count(p.Lines)+" lines")
	}
	if p.Records > 0 {
		parts = append(parts, Count(p.Records)+" records")
	}
	rate := Rate(p.Read, p.Seconds)
	if p.Rate > 0 { // the recent rate, which the time left follows
		rate = Rate(int64(p.Rate), 1)
	}
	parts = append(parts, rate)
	if eta := ETA(p); eta >= 0 {
		parts = append(parts, "about "+eta.String()+" left")
	}
	if p.Path != "" && p.Path != p.Input {
		parts = append(parts, p.Path) // a member of an archive
	}
	if n := stallNote(p); n != "" {
		parts = append(parts, n)
	}
	return strings.Join(parts, " · ")
}

// stallNote says what the watchdogs did during the analysis ("" when
// nothing): parse workers or the reader stopped answering, and the engine
// did their work itself (slower, the same results).
func stallNote(p engine.Progress) string {
	t := ""
	if p.Stalled > 0 {
		t = stalledText(p.Stalled)
	}
	if p.ReaderStalled {
		if t != "" {
			t += "; "
		}
		t += readerStalledText
	}
	return t
}

// readerStalledText says that the reader worker stopped answering and the
// engine reads the files itself (slower, same results).
const readerStalledText = "the file reader stopped answering: files read by the engine"

// stalledText says that parse workers stopped answering and the engine
// parsed their chunks itself (slower, same results).
func stalledText(n int) string {
	if n == 1 {
		return "a parse worker stopped answering: its chunks parsed here"
	}
	return fmt.Sprintf("parse workers stopped answering %d times: their chunks parsed here", n)
}

// ETA is the time the rest of the read takes at the recent rate
// (engine.Progress.Rate: the last engine.RateWindow seconds), or at the
// rate so far where there is none; -1 when there is nothing to go on yet.
func ETA(p engine.Progress) time.Duration {
	if p.Read <= 0 || p.Seconds <= 0 || p.Total < p.Read {
		return -1
	}
	rate := p.Rate
	if rate <= 0 {
		rate = float64(p.Read) / p.Seconds
	}
	left := float64(p.Total-p.Read) / rate
	return time.Duration(left * float64(time.Second)).Round(100 * time.Millisecond)
}

// Percent is how far the read has come, 0–100.
func Percent(p engine.Progress) float64 {
	if p.Total <= 0 {
		return 0
	}
	return math.Min(100, float64(p.Read)*100/float64(p.Total))
}

// ParseSize reads a size typed in a filter: "4096", "4K", "1.5M", "2 GiB",
// "100MB", with the units of every front door (driver.ParseSize,
// docs/sizes.md). An empty string is 0 (no bound).
func ParseSize(s string) (int64, error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	return driver.ParseSize(s)
}

// Life formats a lifetime as every door does (model.FormatLife).
func Life(begin, end int64) string { return model.FormatLife(begin, end) }

// RowFlags lists a row's notable child flags, short.
func RowFlags(r *model.Row) string {
	var f []string
	if r.Reuse == 0 {
		f = append(f, "no-reuse")
	}
	if r.Continuous != 0 {
		f = append(f, "continuous")
	}
	if r.ZeroCopy != 0 {
		f = append(f, "zero-copy")
	}
	if r.IsRef != 0 {
		f = append(f, "ref")
	}
	if !r.Counted {
		f = append(f, "uncounted")
	}
	return strings.Join(f, " ")
}

// LogTime formats a log time (µs since 2000-01-01, the log's local time,
// as model.PoolRow.Time) as the plogs print it, to the millisecond.
func LogTime(us int64) string {
	return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(us) * time.Microsecond).Format("2006-01-02 15:04:05.000")
}

// Elapsed formats a span of µs in the unit a reader expects: 750 µs,
// 12.50 ms, 3.25 s, 4 min 10 s.
func Elapsed(us int64) string {
	switch d := float64(us); {
	case us < 1000:
		return strconv.FormatInt(us, 10) + " µs"
	case us < 1e6:
		return strconv.FormatFloat(d/1e3, 'f', 2, 64) + " ms"
	case us < 60e6:
		return strconv.FormatFloat(d/1e6, 'f', 2, 64) + " s"
	}
	return strconv.FormatInt(us/60e6, 10) + " min " + strconv.FormatInt(us%60e6/1e6, 10) + " s"
}
