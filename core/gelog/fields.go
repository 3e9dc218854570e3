package gelog

import (
	"bytes"
	"math"
	"strings"
	"unsafe"
)

// Tolerant readers for GE's "key[value]" message fields. They return slices
// of the message; nothing is allocated.

// field returns the value of "key[value]" where key starts at a word
// boundary (start of msg, or after ' ', ']', ',' or '.'). ok is false when the
// key is absent; closed is false when the value runs to the end of the
// message without its ']' (the line was cut).
func field(msg []byte, key string) (val []byte, ok, closed bool) {
	from := 0
	for {
		i := indexFrom(msg, key, from)
		if i < 0 {
			return nil, false, false
		}
		j := i + len(key)
		if j < len(msg) && msg[j] == '[' && (i == 0 || isBoundary(msg[i-1])) {
			v := msg[j+1:]
			if k := bytes.IndexByte(v, ']'); k >= 0 {
				return v[:k], true, true
			}
			return v, true, false
		}
		from = i + 1
	}
}

// fieldAfter is field() restricted to the part of msg after position at.
func fieldAfter(msg []byte, at int, key string) (val []byte, ok, closed bool) {
	if at > len(msg) {
		return nil, false, false
	}
	return field(msg[at:], key)
}

func isBoundary(c byte) bool { return c == ' ' || c == ']' || c == ',' || c == '.' || c == ':' }

func indexFrom(s []byte, sep string, from int) int {
	if from >= len(s) {
		return -1
	}
	i := bytes.Index(s[from:], []byte(sep))
	if i < 0 {
		return -1
	}
	return from + i
}

// numErr says why a number could not be read.
type numErr uint8

const (
	numOK numErr = iota
	numEmpty
	numBad
	numOverflow
)

// parseInt reads a decimal integer with optional sign and surrounding spaces.
func parseInt(b []byte) (int64, numErr) {
	if v, ok := plainDigits(b); ok {
		return v, numOK // the usual case, without trimming or overflow checks
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return 0, numEmpty
	}
	neg := false
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		b = b[1:]
		if len(b) == 0 {
			return 0, numBad
		}
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, numBad
		}
		d := uint64(c - '0')
		if n > (math.MaxUint64-d)/10 {
			return 0, numOverflow
		}
		n = n*10 + d
	}
	if neg {
		if n > 1<<63 {
			return 0, numOverflow
		}
		return -int64(n), numOK
	}
	if n > math.MaxInt64 {
		// %lu of a negative %ld (e.g. memtype printed unsigned): keep the
		// two's-complement value only for 64-bit wrap-arounds of small negatives.
		if n >= math.MaxUint64-(1<<32) {
			return int64(n), numOK
		}
		return 0, numOverflow
	}
	return int64(n), numOK
}

// plainDigits reads 1 to 18 ASCII digits (which cannot overflow int64).
func plainDigits(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + int64(d)
	}
	return v, true
}

// lifeRange reads a lifetime description: one or more numbers joined by '-'
// or "--" (e.g. "12", "1-4", "9--4294967295"). It returns the smallest and
// the largest number (docs/figures.md#lifetimes).
func lifeRange(b []byte) (lo, hi int64, e numErr) {
	if v, ok := plainDigits(b); ok {
		return v, v, numOK
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return 0, 0, numEmpty
	}
	first := true
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, 0, numBad
		}
		v, err := parseInt(b[:i])
		if err != numOK {
			return 0, 0, err
		}
		if first || v < lo {
			lo = v
		}
		if first || v > hi {
			hi = v
		}
		first = false
		b = b[i:]
		for len(b) > 0 && b[0] == '-' {
			b = b[1:]
		}
	}
	return lo, hi, numOK
}

// streamID reads a stream description "<s>" or "<s>--<op stream>" (also
// "-1--0") and returns the last number (docs/figures.md#streams).
func streamID(b []byte) (int64, numErr) {
	if v, ok := plainDigits(b); ok {
		return v, numOK
	}
	b = bytes.TrimSpace(b)
	if i := bytes.LastIndex(b, []byte("--")); i >= 0 {
		return parseInt(b[i+2:])
	}
	// A single dash can only be a sign here ("-1").
	return parseInt(b)
}

// nameField reads "name[<node>]" where the node name may in theory contain
// ']': the value ends at the first "] " that is followed by a "word[" field
// (or at the last ']' of the message).
func nameField(msg []byte) (name []byte, rest int, ok, closed bool) {
	i := 0 // a Set row's message starts with it
	if !bytes.HasPrefix(msg, []byte("name[")) {
		if i = bytes.Index(msg, []byte("name[")); i < 0 {
			return nil, 0, false, false
		}
	}
	v := msg[i+5:]
	off := i + 5
	for j := 0; j < len(v); j++ {
		if v[j] != ']' {
			continue
		}
		k := j + 1
		if k == len(v) {
			return v[:j], off + k, true, true
		}
		if v[k] == ',' || v[k] == '.' {
			return v[:j], off + k, true, true
		}
		if v[k] != ' ' {
			continue
		}
		// Accept if a "word[" (words may contain spaces, e.g. "offset to [")
		// follows within a short distance.
		w := v[k+1:]
		lb := bytes.IndexByte(w, '[')
		if lb > 0 && lb <= 24 && isFieldWord(w[:lb]) {
			return v[:j], off + k, true, true
		}
	}
	return v, len(msg), true, false
}

func isFieldWord(b []byte) bool {
	for _, c := range b {
		if !(c == '_' || c == ' ' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// kindIndex finds the tensor kind field after the name: "output[3]",
// "workspace[0]", "input[1]", "output_desc[0]", "unknown[0]".
func kindIndex(msg []byte, from int) (kind string, idx []byte, ok bool) {
	best := -1
	for _, k := range tensorKinds {
		if i := indexFieldFrom(msg, k, from); i >= 0 && (best < 0 || i < best) {
			best, kind = i, k
		}
	}
	if best < 0 {
		return "", nil, false
	}
	v := msg[best+len(kind)+1:]
	e := bytes.IndexByte(v, ']')
	if e < 0 {
		return kind, v, false
	}
	return kind, v[:e], true
}

var tensorKinds = []string{"output_desc", "output", "workspace", "input", "unknown"}

// indexFieldFrom finds "key[" at a word boundary at or after from.
func indexFieldFrom(msg []byte, key string, from int) int {
	for {
		i := indexFrom(msg, key, from)
		if i < 0 {
			return -1
		}
		j := i + len(key)
		if j < len(msg) && msg[j] == '[' && (i == 0 || isBoundary(msg[i-1])) {
			return i
		}
		from = i + 1
	}
}

// splitList reads "a b c " or "a, b, c" number lists (AppendAttrsToMemSetOp,
// after-append-ws refresh lines).
func splitList(b []byte) ([]int64, numErr) {
	var out []int64
	for _, f := range bytes.FieldsFunc(b, func(r rune) bool { return r == ' ' || r == ',' }) {
		v, e := parseInt(f)
		if e != numOK {
			return out, e
		}
		out = append(out, v)
	}
	return out, numOK
}

// containsText is bytes.Contains(b, []byte(s)) without the conversion,
// which allocates for a key longer than 32 bytes.
func containsText(b []byte, s string) bool {
	return strings.Contains(unsafe.String(unsafe.SliceData(b), len(b)), s)
}
