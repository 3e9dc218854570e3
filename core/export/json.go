package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"imas/core/model"
)

// WriteJSON writes report.json (schema imas.report/v1), indented by one
// space, byte for byte what json.Encoder with SetIndent("", " ") writes.
// A report of 10^6 rows is ~1 GB of JSON, which encoding/json builds in
// memory twice (compact, then indented): here the big arrays are streamed
// instead. The report is marshalled without its graphs, pools and address
// checks, each of those without its rows, each row on its own, and an
// indenting writer formats the stream on its way out; graph rows, most of
// the bytes, are written already indented (json_row.go).
func WriteJSON(w io.Writer, rep *model.Report) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	x := &indenter{w: bw}
	head := *rep
	head.Graphs, head.Pools, head.AddressChecks = nil, nil, nil
	err := streamFields(x, &head, []streamed{
		{"graphs", func() error {
			return streamList(x, rep.Graphs == nil, len(rep.Graphs), func(i int) error {
				g, err := rep.WithRows(rep.Graphs[i])
				if err != nil {
					return err
				}
				return writeGraphJSON(x, g)
			})
		}},
		{"address_checks", func() error {
			return streamList(x, rep.AddressChecks == nil, len(rep.AddressChecks), func(i int) error {
				ac := &rep.AddressChecks[i]
				head := *ac
				head.Rows = nil
				return streamField(x, &head, "rows", func() error {
					return streamList(x, ac.Rows == nil, len(ac.Rows), func(j int) error { return marshalTo(x, &ac.Rows[j]) })
				})
			})
		}},
		{"pools", func() error {
			return streamList(x, rep.Pools == nil, len(rep.Pools), func(i int) error {
				p := rep.Pools[i]
				if p == nil {
					return x.writeString("null")
				}
				head := *p
				head.Rows = nil
				return streamField(x, &head, "rows", func() error {
					if p.RowsNil() {
						return x.writeString("null")
					}
					x.writeString("[")
					rd := p.RowReader()
					for r, i := rd.Next(), 0; r != nil; r, i = rd.Next(), i+1 {
						if i > 0 {
							x.writeString(",")
						}
						if err := marshalTo(x, r); err != nil {
							return err
						}
					}
					if err := rd.Err(); err != nil {
						return err
					}
					return x.writeString("]")
				})
			})
		}},
	})
	if err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// streamList writes a JSON array of n items, item writing each, or null.
func streamList(x *indenter, isNil bool, n int, item func(i int) error) error {
	if isNil {
		return x.writeString("null")
	}
	x.writeString("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			x.writeString(",")
		}
		if err := item(i); err != nil {
			return err
		}
	}
	return x.writeString("]")
}

// marshalTo writes v as compact JSON through x.
func marshalTo(x *indenter, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = x.Write(b)
	return err
}

func writeGraphJSON(x *indenter, g *model.Graph) error {
	head := *g
	head.Rows = nil
	return streamField(x, &head, "rows", func() error {
		if g.Rows == nil {
			return x.writeString("null")
		}
		x.writeString("[")
		var buf []byte
		for i := range g.Rows {
			if i > 0 {
				x.writeString(",")
			}
			depth := x.depth
			if x.needIndent {
				depth++
			}
			buf = appendRowJSON(buf[:0], &g.Rows[i], depth)
			if err := x.value(buf); err != nil {
				return err
			}
		}
		return x.writeString("]")
	})
}

// streamField writes v, a struct whose field key is null, with stream
// writing that field's value instead.
func streamField(x *indenter, v any, key string, stream func() error) error {
	return streamFields(x, v, []streamed{{key, stream}})
}

// streamed is a field of a struct that streamFields writes itself.
type streamed struct {
	key   string
	write func() error
}

// streamFields writes v, a struct whose fields fs are null, with each
// field's write writing its value instead; fs are in v's field order.
func streamFields(x *indenter, v any, fs []streamed) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	from := 0
	for _, f := range fs {
		at := topLevelNull(b, f.key)
		if at < from {
			return errors.New("export: report.json: no " + f.key + " field to stream")
		}
		if _, err := x.Write(b[from:at]); err != nil {
			return err
		}
		if err := f.write(); err != nil {
			return err
		}
		from = at + len("null")
	}
	_, err = x.Write(b[from:])
	return err
}

// topLevelNull returns where the null value of key starts in the compact
// JSON object b, or -1.
func topLevelNull(b []byte, key string) int {
	want := `"` + key + `":null`
	depth, inString, escaped := 0, false, false
	for i, c := range b {
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			if depth == 1 && bytes.HasPrefix(b[i:], []byte(want)) {
				return i + len(want) - len("null")
			}
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return -1
}

// indenter formats compact JSON written to it as json.Indent(dst, src, "",
// " ") does, as it goes: whitespace outside strings is dropped, and an empty
// object or array stays "{}" or "[]".
type indenter struct {
	w          *bufio.Writer
	depth      int
	needIndent bool // after '{' or '[': indent unless the next byte closes it
	inString   bool
	escaped    bool
}

const spaces = "                                                                "

func (x *indenter) newline() {
	x.w.WriteByte('\n')
	for n := x.depth; n > 0; n -= len(spaces) {
		x.w.WriteString(spaces[:min(n, len(spaces))])
	}
}

func (x *indenter) writeString(s string) error {
	_, err := x.Write([]byte(s))
	return err
}

func (x *indenter) Write(p []byte) (int, error) {
	for i := 0; i < len(p); i++ {
		if x.inString {
			// Copy the rest of the string (or of p) at once.
			j := i
			for ; j < len(p); j++ {
				c := p[j]
				if x.escaped {
					x.escaped = false
				} else if c == '\\' {
					x.escaped = true
				} else if c == '"' {
					x.inString = false
					j++
					break
				}
			}
			x.w.Write(p[i:j])
			i = j - 1
			continue
		}
		c := p[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if x.needIndent && c != '}' && c != ']' {
			x.needIndent = false
			x.depth++
			x.newline()
		}
		switch c {
		case '"':
			x.inString = true
			x.w.WriteByte(c)
		case '{', '[':
			x.needIndent = true
			x.w.WriteByte(c)
		case ',':
			x.w.WriteByte(c)
			x.newline()
		case ':':
			x.w.WriteString(": ")
		case '}', ']':
			if x.needIndent {
				x.needIndent = false
			} else {
				x.depth--
				x.newline()
			}
			x.w.WriteByte(c)
		default:
			x.w.WriteByte(c)
		}
	}
	// bufio.Writer keeps its first error; report it.
	if _, err := x.w.Write(nil); err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteJSONWithoutRows writes report.json without the per-tensor rows of
// graphs and variables, the graphs' live curves, the per-allocation rows
// of pools and the per-operator rows of address checks (their figures
// stay), marked extra.rows_omitted: the summary of a big run is then
// small. rep itself is not changed.
func WriteJSONWithoutRows(w io.Writer, rep *model.Report) error {
	r := *rep
	r.Graphs = make([]*model.Graph, len(rep.Graphs))
	for i, g := range rep.Graphs {
		c := *g
		c.Rows, c.Reassign, c.AtomicPieces = []model.Row{}, []model.Reassign{}, []model.AtomicPiece{}
		// One point a step, the live curve grows like the rows: it was
		// most of a big run's summary.
		c.Live = nil
		r.Graphs[i] = &c
	}
	r.Variables = make([]*model.VarSession, len(rep.Variables))
	for i, v := range rep.Variables {
		c := *v
		c.Rows = []model.VarRow{}
		r.Variables[i] = &c
	}
	r.Pools = make([]*model.Pool, len(rep.Pools))
	for i, p := range rep.Pools {
		r.Pools[i] = p.WithoutRows()
	}
	if rep.AddressChecks != nil {
		r.AddressChecks = make([]model.AddressCheck, len(rep.AddressChecks))
	}
	for i := range rep.AddressChecks {
		r.AddressChecks[i] = rep.AddressChecks[i]
		r.AddressChecks[i].Rows = []model.AddrRow{}
	}
	r.Extra = make(map[string]any, len(rep.Extra)+1)
	for k, v := range rep.Extra {
		r.Extra[k] = v
	}
	r.Extra["rows_omitted"] = true
	return WriteJSON(w, &r)
}
