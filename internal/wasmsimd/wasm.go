// Package wasmsimd is the WebAssembly SIMD kernel of the candidate-line
// Teddy filter (core/scan/teddy.go) for the page: Go has no vector
// instructions for wasm, but the browser does. Kernel returns the module,
// assembled here by a minimal encoder (only the opcodes the kernel needs),
// so that no binary is committed and no external tool is needed; tools/mkhtml
// inlines it in the page, and page.js instantiates it against the Go
// program's memory. Register (js only) hands it to scan.
package wasmsimd

// The binary format, from the WebAssembly core specification (release
// 2.0): sections of LEB128-sized vectors, instructions as opcodes with
// immediates. SIMD instructions are the prefix 0xfd and a LEB128 number.

// Value and block types.
const (
	typeI32   = 0x7f
	typeV128  = 0x7b
	typeFunc  = 0x60
	blockVoid = 0x40
)

// Section ids, import/export kinds and limits.
const (
	secType     = 1
	secImport   = 2
	secFunction = 3
	secExport   = 7
	secCode     = 10

	kindFunc   = 0x00
	kindMemory = 0x02

	limitsMinOnly = 0x00 // no maximum: the Go program's memory grows
)

// Control and integer instructions.
const (
	opBlock     = 0x02
	opLoop      = 0x03
	opIf        = 0x04
	opEnd       = 0x0b
	opBr        = 0x0c
	opBrIf      = 0x0d
	opLocalGet  = 0x20
	opLocalSet  = 0x21
	opLocalTee  = 0x22
	opI32Store  = 0x36
	opI32Const  = 0x41
	opI32LtU    = 0x49
	opI32GtU    = 0x4b
	opI32Ctz    = 0x68
	opI32Popcnt = 0x69
	opI32Add    = 0x6a
	opI32Sub    = 0x6b
	opI32And    = 0x71
	opI32Shl    = 0x74

	opSIMD = 0xfd // prefix of the instructions below
)

// SIMD instructions (after opSIMD).
const (
	simdV128Load          = 0x00
	simdV128Const         = 0x0c
	simdI8x16Swizzle      = 0x0e
	simdI8x16Splat        = 0x0f
	simdI8x16ExtractLaneU = 0x16
	simdI8x16Ne           = 0x24
	simdV128And           = 0x4e
	simdV128AnyTrue       = 0x53
	simdI8x16Bitmask      = 0x64
	simdI16x8ShrU         = 0x8d
)

// uleb appends v as unsigned LEB128.
func uleb(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// sleb appends v as signed LEB128 (i32.const).
func sleb(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// name appends a string as a length-prefixed vector of bytes.
func name(b []byte, s string) []byte { return append(uleb(b, uint32(len(s))), s...) }

// section appends section id with its contents, prefixed by their size.
func section(b []byte, id byte, contents []byte) []byte {
	b = append(b, id)
	b = uleb(b, uint32(len(contents)))
	return append(b, contents...)
}

// code is a function body being written, instruction by instruction.
type code struct{ b []byte }

func (c *code) op(ops ...byte)           { c.b = append(c.b, ops...) }
func (c *code) get(local uint32)         { c.b = uleb(append(c.b, opLocalGet), local) }
func (c *code) set(local uint32)         { c.b = uleb(append(c.b, opLocalSet), local) }
func (c *code) tee(local uint32)         { c.b = uleb(append(c.b, opLocalTee), local) }
func (c *code) i32(v int32)              { c.b = sleb(append(c.b, opI32Const), v) }
func (c *code) simd(op uint32)           { c.b = uleb(append(c.b, opSIMD), op) }
func (c *code) br(op byte, depth uint32) { c.b = uleb(append(c.b, op), depth) }

// memarg appends a load's or store's alignment (log2 bytes) and offset.
func (c *code) memarg(align, offset uint32) { c.b = uleb(uleb(c.b, align), offset) }

// v128Load loads 16 bytes from the address on the stack plus offset; the
// alignment hint is 1 byte, as the data is read at every offset.
func (c *code) v128Load(offset uint32) {
	c.simd(simdV128Load)
	c.memarg(0, offset)
}

// i32Store stores an i32 at the address on the stack plus offset.
func (c *code) i32Store(offset uint32) {
	c.op(opI32Store)
	c.memarg(2, offset)
}
