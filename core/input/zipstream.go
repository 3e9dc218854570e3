package input

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"imas/core/diag"
)

// zipStream reads a zip whose central directory is missing or unreadable
// (typically a download cut short) from its local file headers, member by
// member, as far as they go. Local headers carry no file mode, so links
// cannot be told from files here: their data (the link target) is read as
// text, which is harmless since nothing is ever written or followed.
func (w *walker) zipStream(name string, r io.Reader, depth int) error {
	br := bufio.NewReaderSize(r, 64<<10)
	stop := func(detail string) error {
		w.diag(Diag{Path: name, Reason: diag.CorruptArchive, Detail: "zip: " + detail + "; later members are not read"})
		return nil
	}
	for {
		var h [30]byte
		if _, err := io.ReadFull(br, h[:]); err != nil {
			return nil // cut between members: what came before is read
		}
		if !bytes.Equal(h[:4], []byte("PK\x03\x04")) {
			return nil // central directory, or the end
		}
		le := binary.LittleEndian
		flags, method := le.Uint16(h[6:]), le.Uint16(h[8:])
		csize := int64(le.Uint32(h[18:]))
		head := make([]byte, int(le.Uint16(h[26:]))+int(le.Uint16(h[28:])))
		if _, err := io.ReadFull(br, head); err != nil {
			return nil
		}
		fname, extra := string(head[:le.Uint16(h[26:])]), head[le.Uint16(h[26:]):]
		member := name + "!" + fname
		if csize == 0xffffffff {
			csize = zip64Size(extra)
		}
		var body io.Reader
		switch {
		case flags&1 != 0:
			return stop(member + " is encrypted")
		case method == zip.Deflate:
			body = newFlateReader(br) // br is an io.ByteReader: flate reads no further than its stream
		case method == zip.Store && flags&8 == 0 && csize >= 0:
			body = &exactReader{r: br, n: csize}
		default:
			return stop(fmt.Sprintf("%s: compression method %d without sizes", member, method))
		}
		if bad := unsafeName(fname); bad != "" {
			w.diag(Diag{Path: member, Reason: diag.UnsafeMember, Detail: bad + "; member ignored"})
		} else if !strings.HasSuffix(fname, "/") {
			if err := w.walk(member, member, &errTag{r: body, path: member}, nil, -1, depth+1); err != nil {
				return err
			}
		}
		// Whatever the parser left (or all of an ignored member) is read
		// under the limits, to reach the next header.
		if _, err := io.Copy(io.Discard, &limitReader{r: body, w: w, path: member}); err != nil {
			if w.bomb != nil {
				return w.bomb
			}
			return nil // the member was cut: its read error is reported with it
		}
		if !skipToHeader(br, flags&8 != 0) {
			return stop("no member header after " + member)
		}
	}
}

// skipToHeader drops the data descriptor after a member (12 to 24 bytes,
// with or without its signature) so that br is at the next signature.
func skipToHeader(br *bufio.Reader, descriptor bool) bool {
	if !descriptor {
		return true
	}
	next, _ := br.Peek(28)
	for _, n := range []int{16, 12, 24, 20} {
		if len(next) >= n+4 && next[n] == 'P' && next[n+1] == 'K' && (next[n+2] == 3 || next[n+2] == 1 || next[n+2] == 5 || next[n+2] == 6) {
			br.Discard(n)
			return true
		}
	}
	return false
}

// zip64Size reads the compressed size from a zip64 extra field of a local
// header (it holds the uncompressed size first); -1 if absent.
func zip64Size(extra []byte) int64 {
	for len(extra) >= 4 {
		id, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if len(extra) < 4+n {
			break
		}
		if id == 0x0001 && n >= 16 {
			return int64(binary.LittleEndian.Uint64(extra[12:]))
		}
		extra = extra[4+n:]
	}
	return -1
}

// exactReader reads n bytes and reports a shorter stream as cut.
type exactReader struct {
	r io.Reader
	n int64
}

func (e *exactReader) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > e.n {
		p = p[:e.n]
	}
	n, err := e.r.Read(p)
	e.n -= int64(n)
	if err == io.EOF && e.n > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}
