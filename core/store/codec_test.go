package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"imas/core/gelog"
	"imas/core/internal/wire"
	"imas/core/store/intern"
)

// TestRecordTypesComplete checks that every gelog type that embeds Meta
// (every record) can travel, SetRow excepted (it goes on the tape).
func TestRecordTypesComplete(t *testing.T) {
	files, err := filepath.Glob("../gelog/*.go")
	if err != nil || len(files) == 0 {
		t.Fatal("no gelog sources", err)
	}
	listed := map[string]bool{}
	for _, r := range recordTypes {
		listed[reflect.TypeOf(r).Elem().Name()] = true
	}
	found := 0
	fset := token.NewFileSet()
	for _, f := range files {
		if filepath.Ext(f) != ".go" || len(f) > 8 && f[len(f)-8:] == "_test.go" {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fl := range st.Fields.List {
				if id, ok := fl.Type.(*ast.Ident); ok && len(fl.Names) == 0 && id.Name == "Meta" {
					found++
					if !listed[ts.Name.Name] && ts.Name.Name != "SetRow" {
						t.Errorf("gelog.%s is a record the parse workers' codec does not list (store.recordTypes)", ts.Name.Name)
					}
				}
			}
			return true
		})
	}
	if found < len(recordTypes) {
		t.Errorf("found %d records in gelog, fewer than the %d listed", found, len(recordTypes))
	}
}

// fill sets every field of v to a random value (nil and empty slices
// included).
func fill(rng *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.Int64, reflect.Int32, reflect.Int:
		v.SetInt([]int64{0, -1, 1, 1 << 40, -1 << 62, int64(rng.Int32())}[rng.IntN(6)])
	case reflect.Uint64, reflect.Uint32:
		v.SetUint([]uint64{0, 1, 1 << 31, uint64(rng.Uint32())}[rng.IntN(4)])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.String:
		v.SetString([]string{"", "x", "名前 \x00\xff", "AllocMemHbm_Add_1"}[rng.IntN(4)])
	case reflect.Struct:
		for i := range v.NumField() {
			fill(rng, v.Field(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(rng, v.Index(i))
		}
	case reflect.Slice:
		switch n := rng.IntN(4); n {
		case 0: // nil
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range s.Len() {
				fill(rng, s.Index(i))
			}
			v.Set(s)
		}
	}
}

func TestRecordRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var b []byte
	var want []gelog.Record
	for range 50 {
		for _, proto := range recordTypes {
			v := reflect.New(reflect.TypeOf(proto).Elem())
			fill(rng, v.Elem())
			rec := v.Interface().(gelog.Record)
			want = append(want, rec)
			var err error
			if b, err = AppendRecord(b, rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := wire.NewReader(b)
	for i, w := range want {
		got, err := ReadRecord(r)
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, w) {
			t.Fatalf("record %d:\n got %#v\nwant %#v", i, got, w)
		}
	}
	if r.Len() != 0 {
		t.Errorf("%d bytes left", r.Len())
	}
	if _, err := AppendRecord(nil, &gelog.SetRow{}); err == nil {
		t.Error("a SetRow was encoded as a record")
	}
	for n := range b[:min(len(b), 2000)] { // a cut record is refused, never a panic
		r := wire.NewReader(b[:n])
		for r.Len() > 0 {
			if _, err := ReadRecord(r); err != nil {
				break
			}
		}
	}
}

// TestTapeBinaryRenumbersNames encodes a tape whose rows use the intern
// numbers of another instance (a parse worker's table) and checks that
// the decoded rows read back with the same names.
func TestTapeBinaryRenumbersNames(t *testing.T) {
	for _, name := range []string{"renumber_graph", "RenumberOp", "RenumberOp2", "RenumberBlock"} {
		intern.Bytes([]byte(name))
	}
	var tape RowTape
	rows := []gelog.SetRow{
		{Graph: "renumber_graph", OpType: "RenumberOp", Node: "n1", Kind: "output", ChildParts: 1},
		{Graph: "renumber_graph", OpType: "RenumberOp2", BlockType: "RenumberBlock", Node: "n2", Kind: "odd kind", ChildParts: 5, Child: [5]int64{1, 1 << 40}},
		{Graph: "", OpType: "RenumberOp", Node: "", Kind: "workspace", StreamDesc: "s[1]"},
	}
	for i := range rows {
		tape.Append(&rows[i])
	}
	// The worker's table: the same names under numbers of its own.
	renumbered := 0
	shift := uint32(70000)
	other := make([]string, shift+3*uint32(len(intern.Names())))
	for i := range tape.rows {
		w := &tape.rows[i]
		for _, id := range []*uint32{&w.graph, &w.opType, &w.blockType} {
			if *id != 0 {
				other[*id+shift] = intern.Names()[*id]
				*id += shift
				renumbered++
			}
		}
	}
	if renumbered < 6 {
		t.Fatalf("%d names on the tape by number", renumbered)
	}
	b := tape.appendBinary(nil, other)
	got, err := ReadRowTape(wire.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	rd := NewTapeReader()
	for i, want := range rows {
		var r gelog.SetRow
		if err := rd.Read(got, i, &r, gelog.Meta{}); err != nil {
			t.Fatal(err)
		}
		want.SetNameIDs(intern.ID(want.Graph), intern.ID(want.OpType), intern.ID(want.BlockType))
		if !reflect.DeepEqual(r, want) {
			t.Errorf("row %d:\n got %#v\nwant %#v", i, r, want)
		}
	}
	for n := range b { // a cut tape is refused, never a panic
		if _, err := ReadRowTape(wire.NewReader(b[:n])); err == nil {
			t.Fatalf("a tape cut at %d of %d bytes decoded", n, len(b))
		}
	}
}
