//go:build !wasm

package input

import (
	"io"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
)

// Natively gzip and zip members are inflated by klauspost/compress, ~1.5x
// faster than compress/gzip. In wasm the standard library's inflater, which
// the binary links anyway (archive/zip), does it (inflate_wasm.go): the
// page has the browser inflate .gz files, and a second inflater would take
// the page over its 3 MB budget.

func newGzipReader(r io.Reader) (gzipReader, error) { return gzip.NewReader(r) }

func newFlateReader(r io.Reader) io.ReadCloser { return flate.NewReader(r) }
