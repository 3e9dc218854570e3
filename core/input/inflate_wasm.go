//go:build wasm

package input

import (
	"compress/flate"
	"compress/gzip"
	"io"
)

func newGzipReader(r io.Reader) (gzipReader, error) { return gzip.NewReader(r) }

func newFlateReader(r io.Reader) io.ReadCloser { return flate.NewReader(r) }
