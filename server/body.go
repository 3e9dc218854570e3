package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"iter"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"imas/internal/driver"
)

// rawTypes are the Content-Types of a body that is the log itself. core
// recognises gzip, tar and zip by their magic bytes, so the type is only
// checked to turn away bodies that are plainly something else (JSON, forms).
var rawTypes = map[string]bool{
	"":                             true,
	"application/octet-stream":     true,
	"application/gzip":             true,
	"application/x-gzip":           true,
	"application/x-tar":            true,
	"application/x-gtar":           true,
	"application/x-compressed-tar": true,
	"application/zip":              true,
	"application/x-zip-compressed": true,
}

// upload is the body of one API request, read as it arrives: either the
// log itself or a multipart/form-data stream whose parts are read one after
// the other (never spooled to memory or disk).
type upload struct {
	body  *bodyReader       // the request body, for its read error
	in    *bufio.Reader     // the same, buffered: what is parsed
	mr    *multipart.Reader // nil for a raw body
	size  int64             // Content-Length of a raw body, -1 if unknown
	seen  []string          // form names of the parts, for error messages
	want  string            // the form name sources takes
	taken int               // parts taken
	mpErr error             // first error of the multipart framing
	limit int64
	note  string
}

// open checks the request's headers and wraps its body. multipartOnly is
// for routes that need named parts (diff).
func (s *server) open(w http.ResponseWriter, r *http.Request, multipartOnly bool) (*upload, *apiError) {
	u := &upload{limit: s.cfg.MaxBody, note: s.cfg.BodyNote, size: r.ContentLength}
	if r.ContentLength > s.cfg.MaxBody {
		return nil, u.tooLarge()
	}
	if r.Body == nil || r.ContentLength == 0 {
		return nil, errorf(http.StatusBadRequest, "empty body: send a plog file (raw, gzip, tar or zip) or multipart \"file\" parts")
	}
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if ct != "" && err != nil {
		return nil, errorf(http.StatusUnsupportedMediaType, "unreadable Content-Type %q: %v", ct, err)
	}
	isMultipart := mt == "multipart/form-data"
	switch {
	case isMultipart:
	case multipartOnly:
		return nil, errorf(http.StatusUnsupportedMediaType, "Content-Type %q: this route takes multipart/form-data (curl -F old=@A -F new=@B)", mt)
	case !rawTypes[mt] && !strings.HasPrefix(mt, "text/"):
		return nil, errorf(http.StatusUnsupportedMediaType,
			"Content-Type %q is not a log: send the file as application/octet-stream (curl --data-binary @FILE -H 'Content-Type: application/octet-stream') or as multipart/form-data (curl -F file=@FILE)", mt)
	}
	u.body = &bodyReader{r: http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)}
	u.in = bufio.NewReaderSize(u.body, 64<<10)
	switch enc := strings.ToLower(r.Header.Get("Content-Encoding")); enc {
	case "", "identity":
	case "gzip", "x-gzip":
		if isMultipart {
			return nil, errorf(http.StatusUnsupportedMediaType, "Content-Encoding: gzip on a multipart body; send .gz files as parts instead")
		}
		// core decompresses by magic bytes; check them so that a mislabelled
		// body gets a clear answer instead of being read as text.
		if head, _ := u.in.Peek(2); len(head) == 2 && (head[0] != 0x1f || head[1] != 0x8b) {
			return nil, errorf(http.StatusBadRequest, "Content-Encoding: gzip, but the body is not gzip data")
		}
	default:
		return nil, errorf(http.StatusUnsupportedMediaType, "Content-Encoding %q not supported; send gzip or uncompressed data", enc)
	}
	if isMultipart {
		if params["boundary"] == "" {
			return nil, errorf(http.StatusBadRequest, "multipart/form-data without a boundary")
		}
		u.mr = multipart.NewReader(u.in, params["boundary"])
	}
	return u, nil
}

// compressed names the compression a raw body starts with, by its magic
// bytes: "gzip" (tar.gz too) or "zip", which expand beyond their length;
// "" for anything else.
func (u *upload) compressed() string {
	head, _ := u.in.Peek(4)
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return "gzip"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return "zip"
	}
	return ""
}

// stream is one input of an upload: the raw body or one part.
type stream struct {
	name string
	size int64 // -1 if unknown
	r    *bufio.Reader
}

// streams yields the inputs of the upload: the raw body, or each part whose
// form name is field, in the order they arrive.
func (u *upload) streams(field string) iter.Seq[stream] {
	u.want = field
	return func(yield func(stream) bool) {
		if u.mr == nil {
			yield(stream{"body", u.size, u.in})
			return
		}
		for p := range u.parts() {
			if p.FormName() != field {
				continue
			}
			u.taken++
			if !yield(stream{partLabel(p, u.taken), -1, bufio.NewReaderSize(p, 64<<10)}) {
				return
			}
		}
	}
}

// parts yields the parts of a multipart upload as they arrive; a part not
// read to its end is skipped by the next NextPart.
func (u *upload) parts() iter.Seq[*multipart.Part] {
	return func(yield func(*multipart.Part) bool) {
		for {
			p, err := u.mr.NextPart()
			if err != nil {
				if err != io.EOF {
					u.mpErr = err
				}
				return
			}
			u.seen = append(u.seen, p.FormName())
			if !yield(p) {
				return
			}
		}
	}
}

// partLabel names a part in the report: its file name (already reduced to
// a base name by mime/multipart), else its form name, numbered when n > 0.
func partLabel(p *multipart.Part, n int) string {
	if f := p.FileName(); f != "" {
		return f
	}
	if n > 0 {
		return p.FormName() + "#" + strconv.Itoa(n)
	}
	return p.FormName()
}

// failure reports what went wrong while reading the upload, if anything:
// core turns read errors into diagnostics, but these are the request's.
func (u *upload) failure(ctx context.Context) *apiError {
	var tooBig *http.MaxBytesError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return errorf(http.StatusServiceUnavailable, "the request took longer than the server's time limit")
	case errors.As(u.body.err, &tooBig):
		return u.tooLarge()
	case u.body.err != nil:
		return errorf(http.StatusBadRequest, "reading the request body: %v", u.body.err)
	case u.mpErr != nil:
		return errorf(http.StatusBadRequest, "malformed multipart body: %v", u.mpErr)
	}
	return nil
}

func (u *upload) tooLarge() *apiError {
	e := errorf(http.StatusRequestEntityTooLarge, "request body larger than %s", driver.SizeText(u.limit))
	if u.note != "" {
		e.Message += ": " + u.note
	}
	return e
}

// missing is the error for a multipart body without the wanted part.
func (u *upload) missing() *apiError {
	return errorf(http.StatusBadRequest, "multipart body has no %s part (curl -F %s=@plog.log); its parts were: %s", u.want, u.want, u.seenText())
}

func (u *upload) seenText() string {
	if len(u.seen) == 0 {
		return "none"
	}
	return strings.Join(u.seen, ", ")
}

// bodyReader keeps the first read error, which core would only list as a
// diagnostic of the input.
type bodyReader struct {
	r   io.Reader
	err error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF && b.err == nil {
		b.err = err
	}
	return n, err
}
