package gelog

import "encoding/binary"

// setKeys are the fields of a "[IMAS]Set" row that the row needs, in the
// order of the k* constants.
var setKeys = [...]string{"optype", "offset to", "size", "realsize", "streamid", "memtype", "noalignsize",
	"life time begin", "life time end", "child", "isref", "batch", "block_type"}

const (
	kOptype = iota
	kOffset
	kSize
	kRealSize
	kStreamID
	kMemType
	kNoAlign
	kLifeBegin
	kLifeEnd
	kChild
	kIsRef
	kBatch
	kBlockType
)

// maxSetFields bounds the key[value] fields read from one row: a hostile
// line of thousands of fields costs no more than a real one.
const maxSetFields = 32

// setFields holds the fields of a Set row found in one pass over its
// "key[value]" fields: the first value of each setKeys entry and the first
// tensor-kind field ("output[0]", "workspace[1]", ...). A key is the text
// since the end of the previous field, trimmed of spaces, commas and
// periods ("offset to", "life time begin", "block_type"). A value runs to
// the next ']'; without one, to the end of the message (the line was cut),
// and the scan stops there. It is small and flat so that it lives on the
// stack: finding the fields and looking them up by name in two passes over
// a list of every field cost a third of a row's parsing time.
type setFields struct {
	val         [len(setKeys)][]byte
	has, closed uint16 // bit k: setKeys[k] was found; its value ended with ']'
	kind        string // one of tensorKinds, "" when none was found
	kindVal     []byte
	kindClosed  bool
}

func (x *setFields) scan(msg []byte) {
	i, n := x.scanExpected(msg)
	x.scanFrom(msg, i, n)
}

// scanFrom reads the fields of msg[i:] one byte at a time, n fields having
// been read before i.
func (x *setFields) scanFrom(msg []byte, i, n int) {
	for ; n < maxSetFields; n++ {
		// Fields are short: plain loops beat IndexByte calls here.
		k := i
		for i < len(msg) && msg[i] != '[' {
			i++
		}
		if i == len(msg) {
			return
		}
		lb := i
		for i < len(msg) && msg[i] != ']' {
			i++
		}
		closed := i < len(msg)
		x.add(trimKey(msg[k:lb]), msg[lb+1:i], closed)
		if !closed {
			return
		}
		i++
	}
}

// setOrder is the order in which GE prints a Set row's fields; every
// template since 2020 prints a subsequence of it. Each entry is the exact
// text from the end of the previous field to the value, and what it is:
// a setKeys index, or -1 for the tensor kind named by kind. The tensor
// kinds are alternatives: after one, the search goes on at kindsEnd.
var setOrder = func() (o [18]expected) {
	for i, e := range []struct {
		lit  string
		k    int
		kind string
	}{
		{" optype[", kOptype, ""},
		{" output[", -1, "output"}, {" workspace[", -1, "workspace"}, {" input[", -1, "input"},
		{" output_desc[", -1, "output_desc"}, {" unknown[", -1, "unknown"},
		{" offset to [", kOffset, ""}, {" streamid[", kStreamID, ""}, {" memtype[", kMemType, ""},
		{" size[", kSize, ""}, {" realsize[", kRealSize, ""}, {" noalignsize[", kNoAlign, ""},
		{" life time begin[", kLifeBegin, ""}, {" life time end[", kLifeEnd, ""},
		{" child[", kChild, ""}, {" isref[", kIsRef, ""}, {" batch[", kBatch, ""}, {", block_type[", kBlockType, ""},
	} {
		o[i] = expected{lit: e.lit, n: len(e.lit), k: e.k, kind: e.kind}
		var b [24]byte
		copy(b[:], e.lit)
		o[i].head = binary.LittleEndian.Uint64(b[:])
		o[i].headMask = ^uint64(0) >> (64 - 8*min(len(e.lit), 8))
		o[i].mid = binary.LittleEndian.Uint64(b[8:])
		if len(e.lit) >= 8 {
			o[i].tail = binary.LittleEndian.Uint64([]byte(e.lit[len(e.lit)-8:]))
		}
	}
	return o
}()

const kindsEnd = 6 // setOrder index after the tensor kinds

type expected struct {
	lit            string
	n              int    // len(lit)
	head, headMask uint64 // the first (up to) 8 bytes as a little-endian word, and which of them count
	mid, tail      uint64 // bytes 8 to 16 (for texts over 16 bytes), and the last 8
	k              int
	kind           string
}

// at reports whether msg[i:] starts with the text, comparing words: the
// first eight bytes, then (for longer texts) bytes 8 to 16 and the last
// eight, which may overlap them. A call to compare strings cost more than
// the rest of a field, and so did copying the last bytes of a message to
// compare three whole words.
func (e *expected) at(msg []byte, i int) bool {
	b := msg[i:]
	if len(b) < e.n {
		return false
	}
	if e.n < 8 {
		if len(b) < 8 {
			return string(b[:e.n]) == e.lit
		}
		return binary.LittleEndian.Uint64(b)&e.headMask == e.head
	}
	if binary.LittleEndian.Uint64(b) != e.head {
		return false
	}
	if e.n > 16 && binary.LittleEndian.Uint64(b[8:]) != e.mid {
		return false
	}
	return e.n == 8 || binary.LittleEndian.Uint64(b[e.n-8:]) == e.tail
}

// scanExpected reads the fields at the start of msg that come as setOrder
// expects them, comparing each key as a whole instead of byte by byte,
// and returns where it stopped and how many fields it read. The generic
// loop of scan goes on from there, so the result is the same as reading
// every field generically: a field matched here is one whose key the
// generic loop would trim to the same text.
func (x *setFields) scanExpected(msg []byte) (i, n int) {
	next := 0
	for n < maxSetFields {
		j := next
		for j < len(setOrder) && !setOrder[j].at(msg, i) {
			j++
		}
		if j == len(setOrder) {
			return i, n
		}
		e := &setOrder[j]
		v := i + e.n
		end := v + valueLen(msg[v:])
		closed := end < len(msg)
		if e.k < 0 {
			if x.kind == "" {
				x.kind, x.kindVal, x.kindClosed = e.kind, msg[v:end], closed
			}
			j = kindsEnd - 1
		} else {
			x.set(e.k, msg[v:end], closed)
		}
		n++
		if !closed {
			return end, n
		}
		i, next = end+1, j+1
	}
	return i, n
}

// valueLen is the length of the value at the start of b: up to its ']',
// or all of b.
func valueLen(b []byte) int {
	for i, c := range b {
		if c == ']' {
			return i
		}
	}
	return len(b)
}

// add records one field if its key is a Set-row key seen for the first time.
func (x *setFields) add(key, val []byte, closed bool) {
	k := -1
	switch string(key) {
	case "optype":
		k = kOptype
	case "offset to":
		k = kOffset
	case "size":
		k = kSize
	case "realsize":
		k = kRealSize
	case "streamid":
		k = kStreamID
	case "memtype":
		k = kMemType
	case "noalignsize":
		k = kNoAlign
	case "life time begin":
		k = kLifeBegin
	case "life time end":
		k = kLifeEnd
	case "child":
		k = kChild
	case "isref":
		k = kIsRef
	case "batch":
		k = kBatch
	case "block_type":
		k = kBlockType
	case "output_desc", "output", "workspace", "input", "unknown": // tensorKinds
		if x.kind == "" {
			for _, name := range tensorKinds {
				if name == string(key) {
					x.kind, x.kindVal, x.kindClosed = name, val, closed
				}
			}
		}
		return
	default:
		return
	}
	x.set(k, val, closed)
}

// set records the value of setKeys[k] unless an earlier field had it.
func (x *setFields) set(k int, val []byte, closed bool) {
	if bit := uint16(1) << k; x.has&bit == 0 {
		x.has |= bit
		x.val[k] = val
		if closed {
			x.closed |= bit
		}
	}
}

// field returns the value of setKeys[k], whether the key was present, and
// whether its value ended with ']'.
func (x *setFields) field(k int) (val []byte, ok, closed bool) {
	bit := uint16(1) << k
	return x.val[k], x.has&bit != 0, x.closed&bit != 0
}

// trimKey trims spaces, commas and periods around a key (bytes.Trim with a
// cutset builds its set on every call, which showed in profiles).
func trimKey(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isKeyPad(b[i]) {
		i++
	}
	for j > i && isKeyPad(b[j-1]) {
		j--
	}
	return b[i:j]
}

func isKeyPad(c byte) bool { return c == ' ' || c == ',' || c == '.' }
