package store

import (
	"errors"
	"unsafe"

	"imas/core/internal/wire"
	"imas/core/store/intern"
)

// The page parses chunks in Web Workers, each a wasm instance of the same
// build with its own intern table, and hands the tapes to the engine's
// instance as bytes. Rows are pointer-free, so they travel as they lie in
// memory (the layout is the build's: both ends run the same binary, and
// the row size is checked); the rare entries are encoded field by field;
// the names a row refers to by intern number travel as text once per tape,
// and the decoder gives them the numbers of its own table.

var errTapeLayout = errors.New("store: row tape of another build")

const rowBytes = int(unsafe.Sizeof(tapeRow{}))

var rareCodec = NewCodec[tapeRare]()

// AppendBinary appends the tape's encoding to b.
func (t *RowTape) AppendBinary(b []byte) []byte { return t.appendBinary(b, intern.Names()) }

// appendBinary encodes the tape whose names are numbered by names.
func (t *RowTape) appendBinary(b []byte, names []string) []byte {
	b = wire.AppendUvarint(b, uint64(rowBytes))
	b = wire.AppendUvarint(b, uint64(len(t.rows)))
	if len(t.rows) > 0 {
		b = append(b, unsafe.Slice((*byte)(unsafe.Pointer(&t.rows[0])), len(t.rows)*rowBytes)...)
	}
	b = wire.AppendBytes(b, t.text)
	b = wire.AppendUvarint(b, uint64(len(t.rare)))
	for i := range t.rare {
		b = rareCodec.Append(b, &t.rare[i])
	}
	// The interned names the rows use, each once.
	seen := map[uint32]bool{}
	var ids []uint32
	for i := range t.rows {
		w := &t.rows[i]
		for _, id := range [...]uint32{w.graph, w.opType, w.blockType} {
			if id != 0 && !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	b = wire.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		name := ""
		if int(id) < len(names) {
			name = names[id]
		}
		b = wire.AppendUvarint(b, uint64(id))
		b = wire.AppendString(b, name)
	}
	return b
}

// ReadRowTape decodes a tape AppendBinary encoded, in another instance of
// the same build, from r. Its names get the numbers of this instance's
// intern table; a name the table has no room for is kept as text.
func ReadRowTape(r *wire.Reader) (*RowTape, error) {
	if r.Uvarint() != uint64(rowBytes) {
		if r.Err() != nil {
			return nil, r.Err()
		}
		return nil, errTapeLayout
	}
	n := r.Count(rowBytes)
	t := &RowTape{rows: make([]tapeRow, n)}
	if raw := r.Raw(n * rowBytes); n > 0 && len(raw) == n*rowBytes {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&t.rows[0])), n*rowBytes), raw)
	}
	t.text = append([]byte(nil), r.Bytes()...)
	nRare := r.Count(9 + 5)
	if nRare > 0 {
		t.rare = make([]tapeRare, nRare)
	}
	for i := range t.rare {
		rareCodec.Read(r, &t.rare[i])
	}
	nNames := r.Count(2)
	type renamed struct {
		id   uint32
		name string
	}
	remap := map[uint32]renamed{}
	for range nNames {
		old := r.Uvarint()
		name, id := intern.Bytes(r.Bytes())
		if old == 0 || old > 1<<32-1 || name == "" {
			return nil, errTape
		}
		remap[uint32(old)] = renamed{id, name}
	}
	if r.Err() != nil {
		return nil, r.Err()
	}
	for i := range t.rows {
		w := &t.rows[i]
		if w.rare > uint32(len(t.rare)) {
			return nil, errTape
		}
		for f, id := range []*uint32{&w.graph, &w.opType, &w.blockType} {
			if *id == 0 {
				continue
			}
			to, ok := remap[*id]
			if !ok {
				return nil, errTape
			}
			*id = to.id
			if to.id == 0 { // this instance's table is full: the name goes as text
				t.rareOf(w).setName(f, to.name)
			}
		}
	}
	return t, nil
}

// rareOf returns the rare entry of w, adding one if it has none (rows do
// not share rare entries).
func (t *RowTape) rareOf(w *tapeRow) *tapeRare {
	if w.rare == 0 {
		t.rare = append(t.rare, tapeRare{})
		w.rare = uint32(len(t.rare))
	}
	return &t.rare[w.rare-1]
}

// setName sets the text of the graph (0), op type (1) or block type (2).
func (x *tapeRare) setName(field int, name string) {
	switch field {
	case 0:
		x.graph = name
	case 1:
		x.opType = name
	default:
		x.blockType = name
	}
}
