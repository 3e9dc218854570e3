package input

import (
	"bufio"
	"fmt"
	"io"
)

// HostInflater is a gzip source decompressed outside Go: in the page, the
// browser's own DecompressionStream in the reader worker, which inflates
// natively on a thread of its own while Go parses (inflating in wasm would
// take turns with the parser on one thread and hold .gz well below plain
// text).
type HostInflater interface {
	// Read returns the next decompressed bytes. Any error other than
	// io.EOF hands the rest of the source to Go's inflater.
	Read(p []byte) (int, error)
	// Compressed is how many bytes of the source the host has consumed so
	// far (the expansion-ratio limit compares against it).
	Compressed() int64
	Close() error
}

// gzipReader is what input needs of a gzip reader (inflate.go).
type gzipReader interface {
	io.ReadCloser
	Multistream(bool)
}

// hostGzip reads a gzip source through the host's inflater for as long as
// it can, then through Go's from where the host stopped. Both decode the
// same bytes to the same text, so the switch is seamless; it is how
// multi-member gzip (which Chromium refuses after the first member), a
// corrupt or a truncated file end up with exactly the errors and the text
// of Go's inflater alone: Go inflates the source again from its start,
// drops what the host already delivered, and goes on, reporting whatever
// it finds on the way.
type hostGzip struct {
	name      string
	host      HostInflater
	reopen    func() (io.ReadCloser, error)
	outer     *countReader // the walker's count of compressed bytes
	delivered int64        // decompressed bytes returned so far
	goRead    io.Reader    // Go's inflater, once the host stopped
	goClose   io.Closer
}

func (h *hostGzip) Read(p []byte) (int, error) {
	if h.goRead != nil {
		n, err := h.goRead.Read(p)
		h.delivered += int64(n)
		return n, err
	}
	n, err := h.host.Read(p)
	h.delivered += int64(n)
	h.outer.n = max(h.outer.n, h.host.Compressed())
	if err == nil || err == io.EOF {
		return n, err
	}
	h.host.Close()
	if ferr := h.fallBack(); ferr != nil {
		return n, ferr
	}
	return n, nil
}

// fallBack opens the source again and brings Go's inflater to where the
// host stopped.
func (h *hostGzip) fallBack() error {
	rc, err := h.reopen()
	if err != nil {
		return &ReadError{Path: h.name, Err: err}
	}
	// The compressed bytes are counted again from the start: they are read
	// again, and the ratio limit is of what was read to what it gave.
	h.outer.n = 0
	zr, err := newGzipReader(bufio.NewReaderSize(&countInto{r: rc, n: &h.outer.n}, 64<<10))
	if err != nil {
		rc.Close()
		return &ReadError{Path: h.name, Err: fmt.Errorf("gzip: %w", err)}
	}
	zr.Multistream(true)
	h.goRead, h.goClose = &errTag{r: zr, path: h.name}, rc
	if _, err := io.CopyN(io.Discard, h.goRead, h.delivered); err != nil {
		if err == io.EOF {
			// The host gave text that Go does not find in the file.
			err = &ReadError{Path: h.name, Err: io.ErrUnexpectedEOF}
		}
		return err
	}
	return nil
}

func (h *hostGzip) Close() error {
	if h.goClose != nil {
		h.goClose.Close()
	}
	return h.host.Close()
}

// countInto adds what is read through it to *n.
type countInto struct {
	r io.Reader
	n *int64
}

func (c *countInto) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	*c.n += int64(k)
	return k, err
}
