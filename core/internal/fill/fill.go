// Package fill gives the codec tests of the row stores (core/spill,
// core/rowpack) values with every field set, so that a field a codec
// leaves out cannot round-trip.
package fill

import "reflect"

// Value sets every field of the value v points to, recursively, to a
// value that differs from its zero value (and from field to field); seed
// counts the fields set. Maps stay nil: the stores keep a graph whose
// waste breakdown has extra causes in memory.
func Value(v reflect.Value, seed *int64) {
	*seed++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + string(rune('a'+*seed%26)) + "\"\\<é")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-(*seed % 100) - 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*seed) << 40)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		Value(v.Elem(), seed)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			Value(v.Index(i), seed)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := 0; i < v.Len(); i++ {
			Value(v.Index(i), seed)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			Value(v.Field(i), seed)
		}
	case reflect.Map:
	default:
		panic("fill: " + v.Kind().String())
	}
}
