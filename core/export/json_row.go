package export

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"imas/core/model"
)

// Rows are most of report.json (10^6 rows make ~0.5 GB), and going through
// json.Encoder and the indenter costs ~2 µs a row. appendRowJSON writes a
// row already indented, as json.Encoder with SetIndent("", " ") would at
// that depth. Its field list follows model.Row's json tags;
// TestRowJSONFields fails when they part, and the streamed-JSON tests and
// FuzzWriteJSON compare whole reports with json.Encoder's.

// appendRowJSON appends row r as an indented JSON object whose closing
// brace is at depth spaces (its fields one deeper).
func appendRowJSON(b []byte, r *model.Row, depth int) []byte {
	ind := spaces[:min(depth+1, len(spaces))]
	if depth+1 > len(spaces) {
		ind = repeatSpaces(depth + 1)
	}
	str := func(key, v string) {
		b = append(b, ",\n"...)
		b = append(b, ind...)
		b = append(b, key...)
		b = appendJSONString(b, v)
	}
	num := func(key string, v int64) {
		b = append(b, ",\n"...)
		b = append(b, ind...)
		b = append(b, key...)
		b = strconv.AppendInt(b, v, 10)
	}
	b = append(b, "{\n"...)
	b = append(b, ind...)
	b = append(b, `"node": `...)
	b = appendJSONString(b, r.Node)
	str(`"optype": `, r.OpType)
	str(`"kind": `, r.Kind)
	num(`"index": `, r.Index)
	num(`"offset": `, r.Offset)
	num(`"stream": `, r.Stream)
	if r.StreamDesc != "" {
		str(`"stream_desc": `, r.StreamDesc)
	}
	num(`"memtype": `, r.MemType)
	num(`"size": `, r.Size)
	num(`"realsize": `, r.RealSize)
	num(`"noalignsize": `, r.NoAlign)
	num(`"life_begin": `, r.LifeBegin)
	num(`"life_end": `, r.LifeEnd)
	if r.LifeDesc != nil { // an array, indented one deeper
		b = append(b, ",\n"...)
		b = append(b, ind...)
		b = append(b, `"life_desc": [`...)
		for i, d := range r.LifeDesc {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(append(append(b, '\n'), ind...), ' ')
			b = appendJSONString(b, d)
		}
		b = append(append(append(b, '\n'), ind...), ']')
	}
	num(`"child": `, r.Child)
	num(`"reuse": `, int64(r.Reuse))
	num(`"continuous": `, int64(r.Continuous))
	num(`"zero_copy": `, int64(r.ZeroCopy))
	num(`"same_stream": `, int64(r.SameStream))
	num(`"isref": `, int64(r.IsRef))
	str(`"batch": `, r.Batch)
	if r.BlockType != "" {
		str(`"block_type": `, r.BlockType)
	}
	if r.Pool {
		b = append(b, ",\n"...)
		b = append(b, ind...)
		b = append(b, `"buffer_pool": true`...)
	}
	b = append(b, ",\n"...)
	b = append(b, ind...)
	b = strconv.AppendBool(append(b, `"counted": `...), r.Counted)
	num(`"line": `, r.Line)
	b = append(b, '\n')
	b = append(b, ind[:depth]...)
	return append(b, '}')
}

// rowJSONFields lists the keys appendRowJSON writes, in order.
var rowJSONFields = []string{"node", "optype", "kind", "index", "offset", "stream", "stream_desc",
	"memtype", "size", "realsize", "noalignsize", "life_begin", "life_end", "life_desc", "child", "reuse",
	"continuous", "zero_copy", "same_stream", "isref", "batch", "block_type", "buffer_pool",
	"counted", "line"}

func repeatSpaces(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}

// appendJSONString appends s quoted as encoding/json does (HTML-escaped).
// Names are nearly always plain ASCII; anything else takes encoding/json
// itself, so the escaping cannot differ.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || !jsonPlain[c] {
			q, _ := json.Marshal(s) // a string cannot fail
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// jsonPlain marks the ASCII bytes encoding/json copies unchanged when it
// escapes HTML.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return
}()

// value writes b, one JSON value already indented for the writer's
// position, as Write would have formatted it.
func (x *indenter) value(b []byte) error {
	if x.needIndent {
		x.needIndent = false
		x.depth++
		x.newline()
	}
	_, err := x.w.Write(b)
	return err
}
