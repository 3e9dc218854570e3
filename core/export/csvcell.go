package export

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// csvWriter writes key/value CSV rows in the old imas layout. Cells are
// quoted when needed (RFC 4180) and neutralised against spreadsheet formula
// injection: a text cell starting with = + - @ TAB or CR gets a leading '
// unless it is a plain number (docs/figures.md#csv-safety).
type csvWriter struct {
	w     *bufio.Writer
	first bool
	num   [24]byte // formats numbers without an allocation per cell
}

func newCSV(w io.Writer) *csvWriter {
	return &csvWriter{w: bufio.NewWriterSize(w, 256<<10), first: true}
}

// lineCSV is a csvWriter for one short line (a summary): a file-sized
// buffer per line would be most of "imas total"'s fresh memory.
func lineCSV(w io.Writer) *csvWriter {
	return &csvWriter{w: bufio.NewWriterSize(w, 512), first: true}
}

// Cell writes one text cell.
func (c *csvWriter) Cell(s string) {
	if !c.first {
		c.w.WriteByte(',')
	}
	c.first = false
	s = SafeCell(s)
	if needsQuotes(s) {
		c.w.WriteByte('"')
		c.w.WriteString(strings.ReplaceAll(s, `"`, `""`))
		c.w.WriteByte('"')
		return
	}
	c.w.WriteString(s)
}

// Int writes a number cell.
func (c *csvWriter) Int(n int64) {
	if !c.first {
		c.w.WriteByte(',')
	}
	c.first = false
	c.w.Write(strconv.AppendInt(c.num[:0], n, 10))
}

// needsQuotes reports a cell with a comma, quote or line break (RFC 4180);
// a byte loop, as strings.ContainsAny builds a set on every call.
func needsQuotes(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ',', '"', '\r', '\n':
			return true
		}
	}
	return false
}

// KV writes a key cell and a value cell.
func (c *csvWriter) KV(k, v string) { c.Cell(k); c.Cell(v) }

// KI writes a key cell and a number cell.
func (c *csvWriter) KI(k string, v int64) { c.Cell(k); c.Int(v) }

// End finishes a row.
func (c *csvWriter) End() {
	c.w.WriteString("\r\n")
	c.first = true
}

// Flush writes buffered rows.
func (c *csvWriter) Flush() error { return c.w.Flush() }

// SafeCell neutralises formula injection.
func SafeCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if isPlainNumber(s) {
			return s
		}
		return "'" + s
	}
	return s
}

func isPlainNumber(s string) bool {
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	dot, digit := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '.' && !dot {
			dot = true
			continue
		}
		if c < '0' || c > '9' {
			return false
		}
		digit = true
	}
	return digit // "-." or "+" alone is text, not a number
}
