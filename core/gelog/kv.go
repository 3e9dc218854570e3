package gelog

import "slices"

// kv is one "key[value]" field of a message.
type kv struct {
	key, val []byte
	closed   bool // the value ended with ']' (false: the line was cut)
}

// kvList holds the fields of one message, read left to right in one pass.
// Fixed-size so that it lives on the stack.
type kvList struct {
	n int
	a [32]kv
}

// tokenize reads every key[value] of msg. A key is the text since the end of
// the previous field, trimmed of spaces, commas and periods ("offset to",
// "life time begin", "block_type").
func (l *kvList) tokenize(msg []byte) {
	// Fields are short: a plain loop beats a pair of IndexByte calls each.
	l.n = 0
	i := 0
	for l.n < len(l.a) {
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
		f := &l.a[l.n]
		l.n++
		f.key = trimKey(msg[k:lb])
		if i == len(msg) {
			f.val, f.closed = msg[lb+1:], false
			return
		}
		f.val, f.closed = msg[lb+1:i], true
		i++
	}
}

// setKeys are the fields of a "[IMAS]Set" row, looked up by index after one
// pass over the fields (a lookup per key by name was a tenth of a row's
// parsing time).
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

// fieldIndex holds, per setKeys entry, the index of its first field (-1:
// none), and the first tensor-kind field.
type fieldIndex struct {
	at       [len(setKeys)]int8
	kind     int8
	kindName string // one of tensorKinds
}

// index finds the set-row fields in one pass.
func (l *kvList) index() fieldIndex {
	var x fieldIndex
	for i := range x.at {
		x.at[i] = -1
	}
	x.kind = -1
	for i := 0; i < l.n; i++ {
		k := -1
		switch string(l.a[i].key) {
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
			if x.kind < 0 {
				x.kind = int8(i)
				x.kindName = tensorKinds[slices.Index(tensorKinds, string(l.a[i].key))]
			}
		}
		if k >= 0 && x.at[k] < 0 {
			x.at[k] = int8(i)
		}
	}
	return x
}

// field returns field i of an index (i < 0: absent).
func (l *kvList) field(i int8) (val []byte, ok, closed bool) {
	if i < 0 {
		return nil, false, false
	}
	return l.a[i].val, true, l.a[i].closed
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
