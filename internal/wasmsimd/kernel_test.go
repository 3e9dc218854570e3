package wasmsimd

import (
	"bytes"
	"encoding/hex"
	"testing"
	"unsafe"

	"imas/core/scan"
)

func TestLEB128(t *testing.T) {
	for _, c := range []struct {
		v    uint32
		want string
	}{{0, "00"}, {1, "01"}, {127, "7f"}, {128, "8001"}, {300, "ac02"}, {624485, "e58e26"}, {1<<32 - 1, "ffffffff0f"}} {
		if got := hex.EncodeToString(uleb(nil, c.v)); got != c.want {
			t.Errorf("uleb(%d) = %s, want %s", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		v    int32
		want string
	}{{0, "00"}, {15, "0f"}, {19, "13"}, {63, "3f"}, {64, "c000"}, {-1, "7f"}, {-64, "40"}, {-65, "bf7f"}, {-1 << 31, "8080808078"}} {
		if got := hex.EncodeToString(sleb(nil, c.v)); got != c.want {
			t.Errorf("sleb(%d) = %s, want %s", c.v, got, c.want)
		}
	}
}

// TestKernelLayout: the kernel writes scan.VectorHits and reads
// scan.VectorTables by these sizes.
func TestKernelLayout(t *testing.T) {
	var h scan.VectorHit
	if unsafe.Sizeof(h) != 1<<hitShift || unsafe.Offsetof(h.Buckets) != 4 {
		t.Errorf("VectorHit is %d bytes, buckets at %d", unsafe.Sizeof(h), unsafe.Offsetof(h.Buckets))
	}
	if n := unsafe.Sizeof(scan.VectorTables{}); n != 2*window*16 {
		t.Errorf("VectorTables is %d bytes", n)
	}
	if scan.VectorMinLen != minData || scan.VectorMinHits != vecLen {
		t.Errorf("scan expects %d bytes and room for %d hits a vector", scan.VectorMinLen, scan.VectorMinHits)
	}
}

// TestKernelModule reads the module back: the header, the sections in
// order with their sizes, the one function type, the memory import and
// the export. (Node runs the code itself: kernel_js_test.go.)
func TestKernelModule(t *testing.T) {
	b := Kernel()
	if !bytes.HasPrefix(b, []byte("\x00asm\x01\x00\x00\x00")) {
		t.Fatalf("header % x", b[:8])
	}
	r := reader{b: b[8:]}
	sections := map[byte][]byte{}
	var ids []byte
	for len(r.b) > 0 {
		id := r.byte()
		ids = append(ids, id)
		sections[id] = r.bytes(int(r.uleb()))
	}
	if r.err || string(ids) != string([]byte{secType, secImport, secFunction, secExport, secCode}) {
		t.Fatalf("sections %v (truncated: %v)", ids, r.err)
	}
	want := map[byte]string{
		secType:     "01 60 05 7f7f7f7f7f 02 7f7f",
		secImport:   "01 03 656e76 03 6d656d 02 00 00",
		secFunction: "01 00",
		secExport:   "01 06 66696c746572 00 00",
	}
	for id, w := range want {
		if got := hex.EncodeToString(sections[id]); got != string(bytes.ReplaceAll([]byte(w), []byte(" "), nil)) {
			t.Errorf("section %d: %s, want %s", id, got, w)
		}
	}
	code := reader{b: sections[secCode]}
	if n := code.uleb(); n != 1 {
		t.Fatalf("%d bodies", n)
	}
	body := code.bytes(int(code.uleb()))
	if code.err || len(code.b) != 0 || body[len(body)-1] != opEnd {
		t.Fatalf("code section: body of %d bytes, %d left over, truncated %v", len(body), len(code.b), code.err)
	}
	locals := reader{b: body}
	if locals.uleb() != 2 || locals.uleb() != numI32 || locals.byte() != typeI32 || locals.uleb() != numV128 || locals.byte() != typeV128 {
		t.Errorf("locals % x", body[:6])
	}
}

// reader reads the module back.
type reader struct {
	b   []byte
	err bool
}

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.err = true
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) uleb() uint32 {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.err = true
	return v
}

func (r *reader) bytes(n int) []byte {
	if n > len(r.b) {
		r.err = true
		n = len(r.b)
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}
