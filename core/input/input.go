// Package input opens what users hand to imas — files, directories, globs,
// gzip, tar, tar.gz and zip archives, HTTP bodies, browser File objects —
// and turns each into a stream of leaf texts. It knows nothing of GE.
//
// Archives are read in memory only: members are streamed, never extracted
// to disk. Member names are only labels, so "../" names cannot escape
// anywhere; they are still refused with a diagnostic, as are links and
// device files, so that a hostile archive is visible in the report.
package input

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"imas/core/diag"
)

// Source is one input the user named: a file, or an in-memory/streamed body.
type Source struct {
	Name string
	Size int64 // -1 if unknown
	Open func() (io.ReadCloser, error)
	// Inflate, if set, opens the source decompressed by the host; it is
	// used when the source turns out to be gzip (hostgzip.go). Open must
	// then be callable again: Go's inflater takes over from a host that
	// stops early.
	Inflate func() (HostInflater, error)
	// Unique says that no other source of the run can hold this source's
	// content (MarkUnique): its text needs no content hash.
	Unique bool
	// RandomAccess says that the source is a file of Size bytes that Open
	// reads from its start as often as asked, cheaply: a file on disk
	// (FileSource), a browser File. Only such sources have their heads read
	// before the run (Head), so that the run can plan its reading order
	// and read them side by side; a stream (an HTTP body, stdin) is read
	// once.
	RandomAccess bool
}

// Limits bound what archives may expand to (decompression bombs).
type Limits struct {
	MaxExpanded int64   // total bytes of all leaves of one source; 0 = default
	MaxRatio    float64 // expanded/compressed; enforced beyond RatioFloor bytes
	RatioFloor  int64
	MaxDepth    int   // archive nesting depth
	MaxZipSpool int64 // zip from a non-seekable stream is buffered up to this
}

// DefaultLimits suit plog folders of tens of GB.
var DefaultLimits = Limits{
	MaxExpanded: 64 << 30,
	MaxRatio:    1000,
	RatioFloor:  256 << 20,
	MaxDepth:    4,
	MaxZipSpool: 1 << 30,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MaxExpanded > 0 {
		d.MaxExpanded = l.MaxExpanded
	}
	if l.MaxRatio > 0 {
		d.MaxRatio = l.MaxRatio
	}
	if l.RatioFloor > 0 {
		d.RatioFloor = l.RatioFloor
	}
	if l.MaxDepth > 0 {
		d.MaxDepth = l.MaxDepth
	}
	if l.MaxZipSpool > 0 {
		d.MaxZipSpool = l.MaxZipSpool
	}
	return d
}

// Diag is a problem with an input that does not stop the run.
type Diag struct {
	Path   string
	Reason string // unreadable, corrupt-archive, truncated-input, unsafe-member, bomb-limit, not-found
	Detail string
}

// ErrBomb is returned (wrapped) when an archive exceeds the limits.
var ErrBomb = errors.New("decompression limit exceeded")

// FromPaths expands command-line PATHs into sources: directories are walked
// recursively (every regular file, sorted by path); a PATH that does not
// exist but holds glob characters is expanded like the shell would.
func FromPaths(paths []string) ([]Source, []Diag) {
	var out []Source
	var diags []Diag
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			if strings.ContainsAny(p, "*?[") {
				matches, gerr := filepath.Glob(p)
				if gerr == nil && len(matches) > 0 {
					sort.Strings(matches)
					s, d := FromPaths(matches)
					out, diags = append(out, s...), append(diags, d...)
					continue
				}
			}
			diags = append(diags, Diag{Path: p, Reason: diag.NotFound, Detail: err.Error()})
			continue
		}
		if st.IsDir() {
			files, d := walkFolder(p, st)
			diags = append(diags, d...)
			sort.Strings(files)
			for _, f := range files {
				out = append(out, FileSource(f))
			}
			continue
		}
		if !st.Mode().IsRegular() {
			diags = append(diags, Diag{Path: p, Reason: diag.Unreadable, Detail: "not a regular file"})
			continue
		}
		out = append(out, FileSource(p))
	}
	return out, diags
}

// FileSource is a Source reading a file.
func FileSource(name string) Source {
	size := int64(-1)
	if st, err := os.Stat(name); err == nil {
		size = st.Size()
	}
	return Source{Name: name, Size: size, Open: func() (io.ReadCloser, error) { return os.Open(name) }, RandomAccess: true}
}

// BytesSource is a Source over an in-memory buffer.
func BytesSource(name string, b []byte) Source {
	return Source{Name: name, Size: int64(len(b)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(b)), nil
	}}
}

// ReaderSource is a Source over a stream that can be read once.
func ReaderSource(name string, size int64, r io.Reader) Source {
	used := false
	return Source{Name: name, Size: size, Open: func() (io.ReadCloser, error) {
		if used {
			return nil, errors.New("stream already consumed")
		}
		used = true
		return io.NopCloser(r), nil
	}}
}

// Leaf is one text stream inside a source (the source itself, or an archive
// member). Path names it for reports: "a.tar.gz!plog/plog-1.log".
type Leaf struct {
	Path string
	R    io.Reader
	// Unique: the leaf is the whole of a Unique source, and cannot be a
	// duplicate of another leaf, nor another one of it.
	Unique bool
}

// Walk opens src and calls fn for every leaf, in archive order. Problems that
// leave the rest readable are reported through report; Walk returns an error
// for a source that could not be opened at all, and ErrBomb (wrapped) when
// the expansion limits stopped it.
func Walk(src Source, lim Limits, fn func(Leaf) error, report func(Diag)) error {
	lim = lim.withDefaults()
	rc, err := src.Open()
	if err != nil {
		report(Diag{Path: src.Name, Reason: diag.Unreadable, Detail: err.Error()})
		return err
	}
	defer rc.Close()
	cr := &countReader{r: rc}
	w := &walker{lim: lim, fn: fn, diag: report, outer: cr, src: src}
	var ra io.ReaderAt
	if f, ok := rc.(*os.File); ok && src.Size >= 0 {
		ra = countReaderAt{f, cr} // zip reads here: the ratio limit must see it
	}
	err = w.walk(src.Name, src.Name, cr, ra, src.Size, 0)
	if w.bomb != nil {
		report(Diag{Path: src.Name, Reason: diag.BombLimit, Detail: w.bomb.Error() + "; the rest of this input is not read"})
	}
	return err
}

type walker struct {
	lim      Limits
	fn       func(Leaf) error
	diag     func(Diag)
	outer    *countReader // compressed bytes read from the source
	expanded int64
	bomb     error // set when the limits are passed: nothing more is read
	src      Source
}

// walk reads one input: an archive's members are named after name, and a
// text leaf is called as (a compressed log keeps its own name, a.log.gz,
// so that it never reads like its uncompressed twin).
func (w *walker) walk(name, as string, r io.Reader, ra io.ReaderAt, size int64, depth int) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(512)
	switch archiveKind(head) {
	case "gzip":
		if depth >= w.lim.MaxDepth {
			w.diag(Diag{Path: name, Reason: diag.NestingLimit, Detail: "archive nested too deeply; read as text"})
			break
		}
		// newGzipReader: inflate.go says which inflater.
		zr, err := newGzipReader(br)
		if err != nil {
			w.diag(Diag{Path: name, Reason: diag.CorruptArchive, Detail: "gzip: " + err.Error()})
			return nil
		}
		zr.Multistream(true)
		inner := strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".tgz")
		if strings.HasSuffix(name, ".tgz") {
			inner += ".tar"
		}
		// The header is read by Go either way, so that a bad one is
		// reported alike; the host inflates from the start of the source.
		if depth == 0 && w.src.Inflate != nil {
			if host, err := w.src.Inflate(); err == nil {
				hr := &hostGzip{name: name, host: host, reopen: w.src.Open, outer: w.outer}
				defer hr.Close()
				return w.walk(inner, as, hr, nil, -1, depth+1)
			}
		}
		return w.walk(inner, as, &errTag{r: zr, path: name}, nil, -1, depth+1)
	case "zip":
		if depth >= w.lim.MaxDepth {
			w.diag(Diag{Path: name, Reason: diag.NestingLimit, Detail: "archive nested too deeply; read as text"})
			break
		}
		return w.zip(name, br, ra, size, depth)
	case "tar":
		if depth >= w.lim.MaxDepth {
			w.diag(Diag{Path: name, Reason: diag.NestingLimit, Detail: "archive nested too deeply; read as text"})
			break
		}
		return w.tar(name, br, depth)
	}
	return w.leaf(as, br, depth == 0 && w.src.Unique)
}

// archiveKind names the archive format whose magic bytes start head, ""
// for text.
func archiveKind(head []byte) string {
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		return "gzip"
	case len(head) >= 4 && bytes.Equal(head[:4], []byte("PK\x03\x04")):
		return "zip"
	case len(head) >= 262 && bytes.Equal(head[257:262], []byte("ustar")):
		return "tar"
	}
	return ""
}

func (w *walker) leaf(name string, r io.Reader, unique bool) error {
	lr := &limitReader{r: r, w: w, path: name}
	if err := w.fn(Leaf{Path: name, R: lr, Unique: unique}); err != nil {
		return err
	}
	// Past the limits, stop: even skipping to the next tar header would
	// decompress the rest of the bomb.
	return w.bomb
}

func (w *walker) tar(name string, r io.Reader, depth int) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			w.diag(Diag{Path: name, Reason: diag.CorruptArchive, Detail: "tar: " + err.Error()})
			return nil
		}
		member := name + "!" + h.Name
		if bad := unsafeName(h.Name); bad != "" {
			w.diag(Diag{Path: member, Reason: diag.UnsafeMember, Detail: bad + "; member ignored"})
			if err := w.skip(tr, member); err != nil {
				return err
			}
			continue
		}
		switch h.Typeflag {
		case tar.TypeReg: // Reader.Next reports the old TypeRegA as TypeReg
		case tar.TypeDir, tar.TypeXGlobalHeader, tar.TypeXHeader:
			continue
		default:
			w.diag(Diag{Path: member, Reason: diag.UnsafeMember, Detail: fmt.Sprintf("%s member ignored", tarType(h.Typeflag))})
			if err := w.skip(tr, member); err != nil {
				return err
			}
			continue
		}
		if err := w.walk(member, member, tr, nil, h.Size, depth+1); err != nil {
			return err
		}
	}
}

// skip reads past an ignored member under the expansion limits: tar (to
// find the next header) and a zip without its directory must decompress
// it, and a hostile archive can hide a bomb in a member it knows is skipped.
func (w *walker) skip(r io.Reader, member string) error {
	if _, err := io.Copy(io.Discard, &limitReader{r: r, w: w, path: member}); err != nil && w.bomb == nil {
		return nil // a read error: the archive reader reports it next
	}
	return w.bomb
}

func tarType(t byte) string {
	switch t {
	case tar.TypeSymlink:
		return "symlink"
	case tar.TypeLink:
		return "hard link"
	case tar.TypeChar, tar.TypeBlock:
		return "device"
	case tar.TypeFifo:
		return "fifo"
	}
	return fmt.Sprintf("type %q", t)
}

func unsafeName(n string) string {
	if strings.HasPrefix(n, "/") || strings.HasPrefix(n, "\\") || (len(n) > 1 && n[1] == ':') {
		return "absolute member name"
	}
	for _, part := range strings.FieldsFunc(n, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return "member name escapes with ../"
		}
	}
	return ""
}

func (w *walker) zip(name string, r io.Reader, ra io.ReaderAt, size int64, depth int) error {
	if ra == nil || size < 0 {
		// A stream: zip needs random access, so hold it in memory (bounded).
		buf, err := io.ReadAll(io.LimitReader(r, w.lim.MaxZipSpool+1))
		if err != nil {
			w.diag(Diag{Path: name, Reason: diag.Unreadable, Detail: err.Error()})
			return nil
		}
		if int64(len(buf)) > w.lim.MaxZipSpool {
			w.diag(Diag{Path: name, Reason: diag.BombLimit, Detail: "zip stream larger than the in-memory limit"})
			return nil
		}
		ra, size = bytes.NewReader(buf), int64(len(buf))
	}
	zr, err := zip.NewReader(ra, size)
	if err == nil {
		zr.RegisterDecompressor(zip.Deflate, newFlateReader)
	}
	if err != nil {
		// A cut zip has lost its central directory (at the end); its
		// members can still be read one by one from their local headers.
		w.diag(Diag{Path: name, Reason: diag.CorruptArchive, Detail: "zip: " + err.Error() + "; members read from their local headers"})
		return w.zipStream(name, io.NewSectionReader(ra, 0, size), depth)
	}
	for _, f := range zr.File {
		member := name + "!" + f.Name
		if bad := unsafeName(f.Name); bad != "" {
			w.diag(Diag{Path: member, Reason: diag.UnsafeMember, Detail: bad + "; member ignored"})
			continue
		}
		mode := f.Mode()
		if mode.IsDir() {
			continue
		}
		if !mode.IsRegular() {
			w.diag(Diag{Path: member, Reason: diag.UnsafeMember, Detail: "non-regular member ignored (" + mode.Type().String() + ")"})
			continue
		}
		rc, err := f.Open()
		if err != nil {
			w.diag(Diag{Path: member, Reason: diag.CorruptArchive, Detail: err.Error()})
			continue
		}
		err = w.walk(member, member, &errTag{r: rc, path: member}, nil, int64(f.UncompressedSize64), depth+1)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// countReaderAt counts what is read through ReadAt into c.
type countReaderAt struct {
	ra io.ReaderAt
	c  *countReader
}

func (r countReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := r.ra.ReadAt(p, off)
	r.c.n += int64(n)
	return n, err
}

// limitReader enforces the expansion limits across all leaves of a source.
type limitReader struct {
	r    io.Reader
	w    *walker
	path string
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.w.bomb != nil {
		return 0, l.w.bomb
	}
	n, err := l.r.Read(p)
	l.w.expanded += int64(n)
	if l.w.expanded > l.w.lim.MaxExpanded {
		l.w.bomb = fmt.Errorf("%w: more than %d bytes expanded", ErrBomb, l.w.lim.MaxExpanded)
		return n, l.w.bomb
	}
	if l.w.expanded > l.w.lim.RatioFloor && l.w.outer.n > 0 &&
		float64(l.w.expanded)/float64(l.w.outer.n) > l.w.lim.MaxRatio {
		l.w.bomb = fmt.Errorf("%w: expansion ratio above %.0f", ErrBomb, l.w.lim.MaxRatio)
		return n, l.w.bomb
	}
	return n, err
}

// errTag names the archive in decompression errors.
type errTag struct {
	r    io.Reader
	path string
}

func (e *errTag) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		err = &ReadError{Path: e.path, Err: err}
	}
	return n, err
}

// ReadError is a failure while reading (truncated gzip, corrupt deflate...).
type ReadError struct {
	Path string
	Err  error
}

func (e *ReadError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }
