package store

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"imas/core/gelog"
	"imas/core/internal/wire"
)

// The records of a chunk other than its Set rows (those are on the row
// tape) travel from a parse worker to the engine as a type number and
// their fields in declaration order. The fields of each type are found
// once by reflection and then read and written through their offsets, so
// that a record costs no reflection call per field (wasm runs reflection
// slowly, and a busy RT2 pool has millions of records).

// recordTypes are the gelog records a chunk's list can hold, numbered by
// their place here; append only. SetRow is not one: Set rows go on the
// tape. TestRecordTypesComplete checks that every gelog record is listed.
var recordTypes = []gelog.Record{
	&gelog.Reject{}, &gelog.Ignored{}, &gelog.ContRow{}, &gelog.AtomicPiece{},
	&gelog.AtomicClean{}, &gelog.AfterAssign{}, &gelog.AppendWs{}, &gelog.AppendWsSize{},
	&gelog.Region{}, &gelog.OpAddress{}, &gelog.DevmmStat{}, &gelog.UserMemoryLoad{},
	&gelog.DeviceMalloc{}, &gelog.AllocatorCall{}, &gelog.PhysicalPage{}, &gelog.DeviceFree{},
	&gelog.PageAddress{}, &gelog.ProcessFact{}, &gelog.MemError{}, &gelog.MemRequest{},
	&gelog.PoolCreate{}, &gelog.PoolAlloc{}, &gelog.PoolFree{}, &gelog.PoolBlock{},
	&gelog.PoolDetails{}, &gelog.VarAssign{}, &gelog.ZeroCopySize{},
}

type fieldKind uint8

const (
	kInt64 fieldKind = iota
	kInt32
	kInt
	kUint64
	kUint32
	kBool
	kString
	kInt64s  // []int64
	kStrings // [][2]string
)

type field struct {
	off  uintptr
	kind fieldKind
}

// A Codec encodes values of struct type T field by field, in declaration
// order (nested structs and arrays flattened), through the fields'
// offsets; unexported fields travel too.
type Codec[T any] struct{ fields []field }

// NewCodec returns T's codec. It panics on a field kind it does not know:
// a programming error, found when the package starts.
func NewCodec[T any]() *Codec[T] {
	return &Codec[T]{fields: planFields(reflect.TypeFor[T](), 0, nil)}
}

// Append appends v's encoding to b.
func (c *Codec[T]) Append(b []byte, v *T) []byte { return appendFields(b, unsafe.Pointer(v), c.fields) }

// Read decodes into v what Append encoded; an error is the reader's.
func (c *Codec[T]) Read(r *wire.Reader, v *T) { readFields(r, unsafe.Pointer(v), c.fields) }

type recordPlan struct {
	typ    reflect.Type // the struct
	fields []field
}

var (
	recordPlans []recordPlan
	recordIndex = map[reflect.Type]int{}
)

func init() {
	for i, r := range recordTypes {
		t := reflect.TypeOf(r).Elem()
		recordPlans = append(recordPlans, recordPlan{typ: t, fields: planFields(t, 0, nil)})
		recordIndex[reflect.TypeOf(r)] = i
	}
}

// planFields lists the fields of struct type t at offset base. A field of a
// kind the codec does not know is a programming error, found at start.
func planFields(t reflect.Type, base uintptr, out []field) []field {
	for i := range t.NumField() {
		f := t.Field(i)
		out = planField(t.Name()+"."+f.Name, f.Type, base+f.Offset, out)
	}
	return out
}

func planField(name string, t reflect.Type, off uintptr, out []field) []field {
	switch t.Kind() {
	case reflect.Int64:
		return append(out, field{off, kInt64})
	case reflect.Int32:
		return append(out, field{off, kInt32})
	case reflect.Int:
		return append(out, field{off, kInt})
	case reflect.Uint64:
		return append(out, field{off, kUint64})
	case reflect.Uint32:
		return append(out, field{off, kUint32})
	case reflect.Bool:
		return append(out, field{off, kBool})
	case reflect.String:
		return append(out, field{off, kString})
	case reflect.Struct:
		return planFields(t, off, out)
	case reflect.Array:
		for i := range t.Len() {
			out = planField(name, t.Elem(), off+uintptr(i)*t.Elem().Size(), out)
		}
		return out
	case reflect.Slice:
		switch {
		case t.Elem().Kind() == reflect.Int64:
			return append(out, field{off, kInt64s})
		case t.Elem() == reflect.TypeOf([2]string{}):
			return append(out, field{off, kStrings})
		}
	}
	panic(fmt.Sprintf("store: record field %s of type %s cannot be encoded", name, t))
}

var errRecord = errors.New("store: damaged record")

// AppendRecord appends rec's encoding to b.
func AppendRecord(b []byte, rec gelog.Record) ([]byte, error) {
	i, ok := recordIndex[reflect.TypeOf(rec)]
	if !ok {
		return b, fmt.Errorf("store: record type %T cannot be encoded", rec)
	}
	b = wire.AppendUvarint(b, uint64(i))
	return appendFields(b, reflect.ValueOf(rec).UnsafePointer(), recordPlans[i].fields), nil
}

// ReadRecord decodes one record AppendRecord encoded.
func ReadRecord(r *wire.Reader) (gelog.Record, error) {
	i := r.Uvarint()
	if r.Err() != nil || i >= uint64(len(recordPlans)) {
		return nil, errRecord
	}
	plan := &recordPlans[i]
	v := reflect.New(plan.typ)
	readFields(r, v.UnsafePointer(), plan.fields)
	if r.Err() != nil {
		return nil, errRecord
	}
	return v.Interface().(gelog.Record), nil
}

func appendFields(b []byte, p unsafe.Pointer, fields []field) []byte {
	for _, f := range fields {
		at := unsafe.Add(p, f.off)
		switch f.kind {
		case kInt64:
			b = wire.AppendVarint(b, *(*int64)(at))
		case kInt32:
			b = wire.AppendVarint(b, int64(*(*int32)(at)))
		case kInt:
			b = wire.AppendVarint(b, int64(*(*int)(at)))
		case kUint64:
			b = wire.AppendUvarint(b, *(*uint64)(at))
		case kUint32:
			b = wire.AppendUvarint(b, uint64(*(*uint32)(at)))
		case kBool:
			b = wire.AppendBool(b, *(*bool)(at))
		case kString:
			b = wire.AppendString(b, *(*string)(at))
		case kInt64s:
			s := *(*[]int64)(at)
			b = appendLen(b, s == nil, len(s))
			for _, v := range s {
				b = wire.AppendVarint(b, v)
			}
		case kStrings:
			s := *(*[][2]string)(at)
			b = appendLen(b, s == nil, len(s))
			for _, kv := range s {
				b = wire.AppendString(wire.AppendString(b, kv[0]), kv[1])
			}
		}
	}
	return b
}

func readFields(r *wire.Reader, p unsafe.Pointer, fields []field) {
	for _, f := range fields {
		at := unsafe.Add(p, f.off)
		switch f.kind {
		case kInt64:
			*(*int64)(at) = r.Varint()
		case kInt32:
			*(*int32)(at) = int32(r.Varint())
		case kInt:
			*(*int)(at) = int(r.Varint())
		case kUint64:
			*(*uint64)(at) = r.Uvarint()
		case kUint32:
			*(*uint32)(at) = uint32(r.Uvarint())
		case kBool:
			*(*bool)(at) = r.Bool()
		case kString:
			*(*string)(at) = r.String()
		case kInt64s:
			if n, isNil := readLen(r, 1); !isNil {
				s := make([]int64, n)
				for j := range s {
					s[j] = r.Varint()
				}
				*(*[]int64)(at) = s
			}
		case kStrings:
			if n, isNil := readLen(r, 2); !isNil {
				s := make([][2]string, n)
				for j := range s {
					s[j] = [2]string{r.String(), r.String()}
				}
				*(*[][2]string)(at) = s
			}
		}
	}
}

// appendLen writes a slice's length, keeping nil apart from empty (0: nil,
// n+1: n items), so that a decoded record is the parsed one exactly.
func appendLen(b []byte, isNil bool, n int) []byte {
	if isNil {
		return wire.AppendUvarint(b, 0)
	}
	return wire.AppendUvarint(b, uint64(n)+1)
}

func readLen(r *wire.Reader, min int) (n int, isNil bool) {
	v := r.Uvarint()
	if v == 0 {
		return 0, true
	}
	if v-1 > uint64(r.Len()/min) {
		r.Raw(-1) // fails the reader
		return 0, false
	}
	return int(v - 1), false
}
