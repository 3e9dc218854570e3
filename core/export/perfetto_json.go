package export

import (
	"bufio"
	"io"
	"strconv"
	"unicode/utf8"
)

// traceWriter streams Chrome trace events. Each event is built in buf and
// written whole, so a trace of millions of events costs no allocations per
// event and no memory beyond the current one.
//
// Every event starts with "ph" and "ts": Perfetto's JSON tokenizer scans an
// event's top-level keys up to "ts" with a reader that (in older releases)
// rejects \u escapes and arrays, so nothing escaped may come before it.
type traceWriter struct {
	w      *bufio.Writer
	buf    []byte
	events int64
	inArgs bool
	first  bool // no member yet in the innermost open object
	err    error
	// sink, when set, takes each finished event instead of w (the
	// protobuf writer translates them); raw text is then dropped.
	sink func(event []byte)
}

func newTraceWriter(w io.Writer) *traceWriter {
	return &traceWriter{w: bufio.NewWriterSize(w, 64<<10), buf: make([]byte, 0, 512)}
}

// raw writes text outside any event (the trace's opening and closing).
func (t *traceWriter) raw(s string) {
	if t.err == nil && t.sink == nil {
		_, t.err = t.w.WriteString(s)
	}
}

// begin starts an event of phase ph at ts microseconds.
func (t *traceWriter) begin(ph byte, ts int64) {
	b := t.buf[:0]
	if t.events > 0 {
		b = append(b, ',')
	}
	b = append(b, "\n{\"ph\":\""...)
	b = append(b, ph)
	b = append(b, "\",\"ts\":"...)
	b = strconv.AppendInt(b, ts, 10)
	t.buf, t.inArgs, t.first = b, false, false
}

// key appends the separator and "key": of the next member.
func (t *traceWriter) key(k string) {
	if !t.first {
		t.buf = append(t.buf, ',')
	}
	t.first = false
	t.buf = append(t.buf, '"')
	t.buf = appendEscaped(t.buf, k)
	t.buf = append(t.buf, '"', ':')
}

func (t *traceWriter) num(k string, v int64) {
	t.key(k)
	t.buf = strconv.AppendInt(t.buf, v, 10)
}

func (t *traceWriter) str(k, v string) {
	t.key(k)
	t.buf = appendString(t.buf, v)
}

func (t *traceWriter) boolean(k string, v bool) {
	t.key(k)
	t.buf = strconv.AppendBool(t.buf, v)
}

// args opens the event's args object; end closes it.
func (t *traceWriter) args() {
	t.key("args")
	t.buf = append(t.buf, '{')
	t.inArgs, t.first = true, true
}

// end closes the event and writes it.
func (t *traceWriter) end() {
	if t.inArgs {
		t.buf = append(t.buf, '}')
	}
	t.buf = append(t.buf, '}')
	switch {
	case t.sink != nil:
		t.sink(t.buf)
	case t.err == nil:
		_, t.err = t.w.Write(t.buf)
	}
	t.events++
}

// flush writes what is buffered and returns the first error.
// fail keeps err (a row store's, while reading rows back) as the trace's
// error, unless it has one.
func (t *traceWriter) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

func (t *traceWriter) flush() error {
	if t.err == nil {
		t.err = t.w.Flush()
	}
	return t.err
}

// plain marks the ASCII bytes that appendEscaped copies unchanged.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return
}()

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	return append(appendEscaped(b, s), '"')
}

// appendEscaped appends the JSON string contents of s. Names come from
// untrusted logs: quotes, backslashes and control characters are escaped,
// and so are <, > and & (the trace may end up inside an HTML page) and
// U+2028/U+2029 (line breaks to JavaScript). Invalid UTF-8 becomes U+FFFD.
// Other characters are written as UTF-8, never as \u escapes: Perfetto's
// JSON parser rejects escaped surrogate pairs.
func appendEscaped(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, "\uFFFD"...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(b, s[start:]...)
}
