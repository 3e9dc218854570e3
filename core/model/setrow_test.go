package model

import (
	"reflect"
	"testing"

	"imas/core/gelog"
)

// junk sets every field of the struct v points to a non-zero value, so
// that a field setRow forgets shows.
func junk(v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("junk")
		case reflect.Int, reflect.Int8, reflect.Int32, reflect.Int64:
			f.SetInt(77)
		case reflect.Uint64:
			f.SetUint(77)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		default:
			panic("junk: field " + v.Type().Field(i).Name + " of kind " + f.Kind().String())
		}
	}
}

// TestSetRowSetsEveryField stores rows over junk: each must equal the row
// written out by hand, field for field.
func TestSetRowSetsEveryField(t *testing.T) {
	for i, c := range []struct {
		in   gelog.SetRow
		want Row
	}{
		{gelog.SetRow{Meta: gelog.Meta{File: 3, Line: 9}, Node: "n", OpType: "Add", Kind: "output", Index: 1, Offset: 512,
			Stream: 2, MemType: 2, Size: 1024, RealSize: 1000, NoAlign: 999, LifeBegin: 4, LifeEnd: 6, ChildParts: 5,
			Child: [5]int64{1, 1, 1, 0, 1}, IsRef: true, HasLife: true},
			Row{Node: "n", OpType: "Add", Kind: "output", Index: 1, Offset: 512, Stream: 2, MemType: 2, Size: 1024,
				RealSize: 1000, NoAlign: 999, LifeBegin: 4, LifeEnd: 6, Child: 1, Reuse: 1, Continuous: 1, SameStream: 1,
				IsRef: 1, ChildParts: 5, File: 3, Line: 9}},
		{gelog.SetRow{Node: "m", Kind: "workspace", StreamDesc: "1(2)", Batch: "b", BlockType: "data", Pool: true,
			LifeDesc: [2]string{"1-4", "7"}, LifeBegin: 1, LifeEnd: 7, HasLife: true, ChildParts: 1},
			Row{Node: "m", Kind: "workspace", StreamDesc: "1(2)", Batch: "b", BlockType: "data", Pool: true,
				LifeDesc: &[2]string{"1-4", "7"}, LifeBegin: 1, LifeEnd: 7, Reuse: 1, ChildParts: 1}}, // one child number: reuse assumed
		{gelog.SetRow{Node: "old", Kind: "output", LifeBegin: 3, LifeEnd: 5, ChildParts: 9}, // no lifetime printed
			Row{Node: "old", Kind: "output", LifeBegin: 0, LifeEnd: LifeMax, ChildParts: 5}},
	} {
		var got Row
		junk(reflect.ValueOf(&got).Elem())
		setRow(&got, &c.in, new(lifeDescs))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got, c.want)
		}
	}
}

// TestSetAddrRowSetsEveryField is TestSetRowSetsEveryField for addresses.
func TestSetAddrRowSetsEveryField(t *testing.T) {
	for i, c := range []struct {
		in   gelog.OpAddress
		want AddrRow
	}{
		{gelog.OpAddress{Meta: gelog.Meta{File: 2, Line: 40}, Statement: "GetOutputDataAddrs", Type: "F", Name: "x",
			Kind: "output", Offset: 512, Size: 1024, DataSize: -1, Addr: 0x12c0000000, HasAddr: true},
			AddrRow{Statement: "GetOutputDataAddrs", Type: "F", Name: "name", OpType: "optype", Kind: "output", Offset: 512,
				Size: 1024, Addr: 0x12c0000000, MemAddr: hexAddr(0x12c0000000), Line: 40, File: 2, Path: "path", Region: 3}},
		{gelog.OpAddress{Statement: "CopyPlainData", Type: "C", Variant: "p2p", Index: -1, Offset: -1, Size: -1,
			DataSize: 64, OM2: true, Null: true},
			AddrRow{Statement: "CopyPlainData", Type: "C", Name: "name", OpType: "optype", Variant: "p2p", Index: -1,
				Offset: -1, Size: -1, DataSize: 64, Status: "null", OM2: true, Path: "path", Region: 3}},
		{gelog.OpAddress{Statement: "get failed", DataSize: -1, Failed: true, Null: true},
			AddrRow{Statement: "get failed", Name: "name", OpType: "optype", Status: "failed", Path: "path", Region: 3}},
	} {
		var got AddrRow
		junk(reflect.ValueOf(&got).Elem())
		setAddrRow(&got, &c.in, "name", "optype", "path", 3)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got, c.want)
		}
	}
}
