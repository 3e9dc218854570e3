package wasmsimd

// The names of the memory the kernel imports and of the function it exports
// (page.js and run_node.js use them).
const (
	importModule = "env"
	importMemory = "mem"
	export       = "filter"
)

// The filter's locals: its parameters, then its own.
const (
	// filter(data, len, tables, out, cap) → (n, stop); pointers into the
	// imported memory, as scan.VectorFilter (core/scan/teddy_vector.go).
	locData uint32 = iota
	locLen
	locTables
	locOut
	locCap
	// i32
	locI    // the vector being looked at, from data
	locN    // hits written
	locMask // one bit per position of the vector with buckets left
	locAddr // data+i, then where the next hit goes
	// v128
	locLo0 // the tables: lo nibble of window bytes 0-3, then hi
	locLo1
	locLo2
	locLo3
	locHi0
	locHi1
	locHi2
	locHi3
	locNib // 0x0f in every lane
	locV   // 16 bytes of data
	locR   // the buckets left, per position

	numParams = locI
	numI32    = locLo0 - locI
	numV128   = locR + 1 - locLo0
)

// window is the filter's window: 4 bytes a marker, so a vector of 16
// positions reads 19 bytes.
const (
	window   = 4
	vecLen   = 16
	minData  = vecLen + window - 1
	hitShift = 3 // log2 of scan.VectorHit's size: position, bucket bits (two u32)
)

// Kernel returns the WebAssembly module: it imports env.mem (the Go
// program's memory) and exports filter, scan.VectorFilter's contract for
// 16 positions at a time.
func Kernel() []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")

	// One function type: five i32 parameters, two i32 results.
	t := uleb(nil, 1)
	t = append(t, typeFunc)
	t = uleb(t, numParams)
	for range numParams {
		t = append(t, typeI32)
	}
	t = append(uleb(t, 2), typeI32, typeI32)
	b = section(b, secType, t)

	// The memory: no minimum, no maximum (Go's grows).
	im := uleb(nil, 1)
	im = name(im, importModule)
	im = name(im, importMemory)
	im = append(im, kindMemory, limitsMinOnly)
	im = uleb(im, 0)
	b = section(b, secImport, im)

	b = section(b, secFunction, uleb(uleb(nil, 1), 0))

	ex := uleb(nil, 1)
	ex = name(ex, export)
	ex = append(ex, kindFunc)
	ex = uleb(ex, 0)
	b = section(b, secExport, ex)

	body := uleb(nil, 2) // local declarations: (count, type) pairs
	body = append(uleb(body, numI32), typeI32)
	body = append(uleb(body, numV128), typeV128)
	body = append(body, filter()...)
	fn := uleb(uleb(nil, 1), uint32(len(body)))
	b = section(b, secCode, append(fn, body...))
	return b
}

// filter is the function's code.
func filter() []byte {
	var c code

	// The eight tables into locals, and the nibble mask.
	for t := uint32(0); t < 2*window; t++ {
		c.get(locTables)
		c.v128Load(16 * t)
		c.set(locLo0 + t)
	}
	c.i32(15)
	c.simd(simdI8x16Splat)
	c.set(locNib)

	c.op(opBlock, blockVoid) // $done
	c.op(opLoop, blockVoid)  // $vector

	// Done when the next 16 windows do not fit: len-i < 19.
	c.get(locLen)
	c.get(locI)
	c.op(opI32Sub)
	c.i32(minData)
	c.op(opI32LtU)
	c.br(opBrIf, 1) // $done

	// r = AND over window bytes j of lo_j[v_j & 15] & hi_j[v_j >> 4],
	// v_j the 16 bytes at data+i+j (i8x16.swizzle is the table lookup).
	// The high nibble is a 16-bit shift and the mask: x64 has no byte
	// shift, and V8's emulation of i8x16.shr_u made the kernel ~20%
	// slower in Node.
	c.get(locData)
	c.get(locI)
	c.op(opI32Add)
	c.set(locAddr)
	for j := uint32(0); j < window; j++ {
		c.get(locLo0 + j)
		c.get(locAddr)
		c.v128Load(j)
		c.tee(locV)
		c.get(locNib)
		c.simd(simdV128And)
		c.simd(simdI8x16Swizzle)
		c.get(locHi0 + j)
		c.get(locV)
		c.i32(4)
		c.simd(simdI16x8ShrU)
		c.get(locNib)
		c.simd(simdV128And)
		c.simd(simdI8x16Swizzle)
		c.simd(simdV128And)
		if j > 0 {
			c.simd(simdV128And)
		}
	}
	c.tee(locR)

	// Most vectors leave no bucket: on to the next.
	c.simd(simdV128AnyTrue)
	c.op(opIf, blockVoid)
	{
		// mask = the positions with buckets left.
		c.get(locR)
		c.simd(simdV128Const)
		c.op(make([]byte, 16)...)
		c.simd(simdI8x16Ne)
		c.simd(simdI8x16Bitmask)
		c.set(locMask)

		// No room for them: stop before this vector, the next call
		// starts with it.
		c.get(locN)
		c.get(locMask)
		c.op(opI32Popcnt)
		c.op(opI32Add)
		c.get(locCap)
		c.op(opI32GtU)
		c.br(opBrIf, 2) // $done (out of the if and the loop)

		c.op(opLoop, blockVoid) // $hit
		{
			// out[n] = (i + k, r[k]) for k the lowest bit of mask; r[k]
			// is lane 0 of r swizzled by k in every lane.
			c.get(locOut)
			c.get(locN)
			c.i32(hitShift)
			c.op(opI32Shl)
			c.op(opI32Add)
			c.tee(locAddr)
			c.get(locI)
			c.get(locMask)
			c.op(opI32Ctz)
			c.op(opI32Add)
			c.i32Store(0)
			c.get(locAddr)
			c.get(locR)
			c.get(locMask)
			c.op(opI32Ctz)
			c.simd(simdI8x16Splat)
			c.simd(simdI8x16Swizzle)
			c.simd(simdI8x16ExtractLaneU)
			c.op(0) // lane 0
			c.i32Store(4)

			// n++; mask &= mask-1; again while mask != 0.
			c.get(locN)
			c.i32(1)
			c.op(opI32Add)
			c.set(locN)
			c.get(locMask)
			c.get(locMask)
			c.i32(1)
			c.op(opI32Sub)
			c.op(opI32And)
			c.tee(locMask)
			c.br(opBrIf, 0) // $hit
		}
		c.op(opEnd) // $hit
	}
	c.op(opEnd) // if

	// i += 16, next vector.
	c.get(locI)
	c.i32(vecLen)
	c.op(opI32Add)
	c.set(locI)
	c.br(opBr, 0) // $vector
	c.op(opEnd)   // $vector
	c.op(opEnd)   // $done

	c.get(locN)
	c.get(locI)
	c.op(opEnd) // the function
	return c.b
}
