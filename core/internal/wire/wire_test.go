package wire

import (
	"math"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var b []byte
	b = AppendUvarint(b, math.MaxUint64)
	b = AppendVarint(b, math.MinInt64)
	b = AppendBool(b, true)
	b = AppendString(b, "名前\x00")
	b = AppendBytes(b, []byte{1, 2, 3})
	b = AppendUvarint(b, 2)
	b = append(b, 9, 9)
	r := NewReader(b)
	if r.Uvarint() != math.MaxUint64 || r.Varint() != math.MinInt64 || !r.Bool() || r.String() != "名前\x00" ||
		string(r.Bytes()) != "\x01\x02\x03" || r.Count(1) != 2 || string(r.Raw(2)) != "\x09\x09" || r.Err() != nil || r.Len() != 0 {
		t.Fatalf("round trip failed: %v", r.Err())
	}
}

// TestDamaged checks that the reader fails, rather than allocating or
// reading out of range, on counts and lengths the input cannot hold, and
// stays failed.
func TestDamaged(t *testing.T) {
	for name, read := range map[string]func(r *Reader){
		"count":  func(r *Reader) { r.Count(8) },
		"bytes":  func(r *Reader) { r.Bytes() },
		"string": func(r *Reader) { _ = r.String() },
		"raw":    func(r *Reader) { r.Raw(1 << 20) },
		"bool":   func(r *Reader) { r.Raw(r.Len()); r.Bool() },
	} {
		r := NewReader(AppendUvarint(nil, 1<<40))
		read(r)
		if r.Err() == nil {
			t.Errorf("%s: no error", name)
		}
		if r.Uvarint() != 0 || r.Err() == nil {
			t.Errorf("%s: the reader went on after an error", name)
		}
	}
	if r := NewReader([]byte{2}); r.Bool() || r.Err() == nil {
		t.Error("a bool byte of 2 was read")
	}
}
