package input

import "io"

// Head returns the first n bytes (fewer if the file is shorter) of a
// RandomAccess source that is plain text; ok is false for any other
// source, an archive, or a file that does not open. It reads through Open,
// so builds without FileSource (the page's, whose browser Files are
// RandomAccess) do not link file reading for it.
func Head(s Source, n int) (head []byte, ok bool) {
	if !s.RandomAccess {
		return nil, false
	}
	return HeadInto(s, make([]byte, n))
}

// HeadInto is Head reading into buf (len(buf) bytes at most); head aliases
// buf.
func HeadInto(s Source, buf []byte) (head []byte, ok bool) {
	if !s.RandomAccess {
		return nil, false
	}
	rc, err := s.Open()
	if err != nil {
		return nil, false
	}
	defer rc.Close()
	head = buf
	k, err := io.ReadFull(rc, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, false
	}
	head = head[:k]
	return head, archiveKind(head) == ""
}
