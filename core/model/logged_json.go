package model

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// MarshalJSON writes Logged as an object in print order. Values that are
// plain integers are written as JSON numbers (the digits GE printed); all
// others as strings.
func (l Logged) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Key)
		b.Write(k)
		b.WriteByte(':')
		if _, err := strconv.ParseInt(f.Value, 10, 64); err == nil && f.Value != "" && f.Value[0] != '+' && !(len(f.Value) > 1 && f.Value[0] == '0') && !(len(f.Value) > 2 && f.Value[0] == '-' && f.Value[1] == '0') {
			b.WriteString(f.Value)
		} else {
			v, _ := json.Marshal(f.Value)
			b.Write(v)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON wrote (order of keys is kept).
func (l *Logged) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return err
	}
	*l = (*l)[:0]
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return err
		}
		var s string
		switch x := v.(type) {
		case json.Number:
			s = x.String()
		case string:
			s = x
		default:
			b, _ := json.Marshal(x)
			s = string(b)
		}
		*l = append(*l, LoggedField{Key: kt.(string), Value: s})
	}
	_, err := dec.Token()
	return err
}
