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
// built the plain way, field for field.
func TestSetRowSetsEveryField(t *testing.T) {
	rows := []gelog.SetRow{
		{Meta: gelog.Meta{File: 3, Line: 9}, Node: "n", OpType: "Add", Kind: "output", Index: 1, Offset: 512, Stream: 2,
			MemType: 2, Size: 1024, RealSize: 1000, NoAlign: 999, LifeBegin: 4, LifeEnd: 6, ChildParts: 5,
			Child: [5]int64{1, 1, 1, 0, 1}, IsRef: true, HasLife: true},
		{Node: "m", Kind: "workspace", StreamDesc: "1(2)", Batch: "b", BlockType: "data", Pool: true,
			LifeDesc: [2]string{"1-4", "7"}, ChildParts: 1},
		{Node: "old", Kind: "output", ChildParts: 9, Child: [5]int64{0, 0, 0, 0, 3}}, // no lifetime printed
	}
	for i := range rows {
		r := &rows[i]
		want := Row{Node: r.Node, OpType: r.OpType, Kind: r.Kind, Index: r.Index, Offset: r.Offset, Stream: r.Stream,
			StreamDesc: r.StreamDesc, MemType: r.MemType, Size: r.Size, RealSize: r.RealSize, NoAlign: r.NoAlign,
			LifeBegin: r.LifeBegin, LifeEnd: r.LifeEnd, Child: r.Child[0],
			Reuse: b01(r.Reuse()), Continuous: b01(r.Continuous()), ZeroCopy: b01(r.ZeroCopy()),
			SameStream: b01(r.ChildParts >= 5 && r.Child[4] != 0), IsRef: b01(r.IsRef),
			Batch: r.Batch, BlockType: r.BlockType, Pool: r.Pool,
			ChildParts: int8(min(max(r.ChildParts, 0), 5)), File: r.File, Line: r.Line}
		if r.LifeDesc != [2]string{} {
			d := r.LifeDesc
			want.LifeDesc = &d
		}
		if !r.HasLife {
			want.LifeBegin, want.LifeEnd = 0, LifeMax
		}
		var got Row
		junk(reflect.ValueOf(&got).Elem())
		setRow(&got, r)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got, want)
		}
	}
}

// TestSetAddrRowSetsEveryField is TestSetRowSetsEveryField for addresses.
func TestSetAddrRowSetsEveryField(t *testing.T) {
	rows := []gelog.OpAddress{
		{Meta: gelog.Meta{File: 2, Line: 40}, Statement: "GetOutputDataAddrs", Type: "F", Name: "n", Kind: "output",
			Index: 0, Offset: 512, Size: 1024, DataSize: -1, Addr: 0x12c0000000, HasAddr: true},
		{Statement: "CopyPlainData", Type: "C", Name: "c", Variant: "p2p", Index: -1, Offset: -1, Size: -1, DataSize: 64, OM2: true, Null: true},
		{Statement: "get failed", Name: "f", OpType: "Add", DataSize: -1, Failed: true},
	}
	for i := range rows {
		r := &rows[i]
		want := AddrRow{Statement: r.Statement, Type: r.Type, Name: "name", OpType: "optype", Kind: r.Kind, Variant: r.Variant,
			Index: r.Index, Offset: r.Offset, Size: r.Size, OM2: r.OM2, Line: r.Line, File: r.File, Path: "path", Region: 3}
		if r.DataSize >= 0 {
			want.DataSize = r.DataSize
		}
		if r.HasAddr {
			want.Addr, want.MemAddr = r.Addr, hexAddr(r.Addr)
		}
		switch {
		case r.Failed:
			want.Status = "failed"
		case r.Null:
			want.Status = "null"
		}
		var got AddrRow
		junk(reflect.ValueOf(&got).Elem())
		setAddrRow(&got, r, "name", "optype", "path", 3)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got, want)
		}
	}
}
