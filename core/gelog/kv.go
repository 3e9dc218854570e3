package gelog

import "bytes"

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
	l.n = 0
	for len(msg) > 0 && l.n < len(l.a) {
		lb := bytes.IndexByte(msg, '[')
		if lb < 0 {
			return
		}
		key := trimKey(msg[:lb])
		v := msg[lb+1:]
		rb := bytes.IndexByte(v, ']')
		f := &l.a[l.n]
		l.n++
		f.key = key
		if rb < 0 {
			f.val, f.closed = v, false
			return
		}
		f.val, f.closed = v[:rb], true
		msg = v[rb+1:]
	}
}

// get returns the first field named key.
func (l *kvList) get(key string) (val []byte, ok, closed bool) {
	for i := 0; i < l.n; i++ {
		if string(l.a[i].key) == key {
			return l.a[i].val, true, l.a[i].closed
		}
	}
	return nil, false, false
}

// kind returns the first tensor-kind field (output, workspace, ...).
func (l *kvList) kind() (kind string, idx []byte, ok, closed bool) {
	for i := 0; i < l.n; i++ {
		for _, k := range tensorKinds {
			if string(l.a[i].key) == k {
				return k, l.a[i].val, true, l.a[i].closed
			}
		}
	}
	return "", nil, false, false
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
