package gen

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"time"
)

// output collects every file written by one Generate call (or the single
// stream of GenerateStream) with its line accounting.
type output struct {
	dir    string // "" in stream mode
	shared *fileOut
	files  []*fileOut
	names  map[string]bool
	err    error
}

type fileOut struct {
	name    string // relative to dir, forward slashes
	f       *os.File
	w       *bufio.Writer
	lines   int64
	imas    int64
	bytes   int64
	crlf    bool
	noFinal bool
	started bool
	closed  bool
}

var imasMarker = []byte("[IMAS]")

func (o *output) fail(err error) {
	if o.err == nil && err != nil {
		o.err = err
	}
}

func newDirOutput(dir string) *output {
	return &output{dir: dir, names: map[string]bool{}}
}

func newStreamOutput(w io.Writer, name string) *output {
	fo := &fileOut{name: name, w: bufio.NewWriterSize(w, 1<<20)}
	return &output{shared: fo, files: []*fileOut{fo}, names: map[string]bool{name: true}}
}

// writeLine appends one line; it returns the line number in its file.
func (fo *fileOut) writeLine(line []byte) int64 {
	if fo.started {
		if fo.crlf {
			fo.w.WriteString("\r\n")
			fo.bytes += 2
		} else {
			fo.w.WriteByte('\n')
			fo.bytes++
		}
	}
	fo.started = true
	fo.w.Write(line)
	fo.bytes += int64(len(line))
	fo.lines++
	if bytes.Contains(line, imasMarker) {
		fo.imas++
	}
	return fo.lines
}

func (fo *fileOut) close() error {
	if fo.closed {
		return nil
	}
	fo.closed = true
	if fo.started && !fo.noFinal {
		if fo.crlf {
			fo.w.WriteString("\r\n")
			fo.bytes += 2
		} else {
			fo.w.WriteByte('\n')
			fo.bytes++
		}
	}
	err := fo.w.Flush()
	if fo.f != nil {
		if cerr := fo.f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// sink is the log channel of one process: a sequence of rotated files
// plog-<pid>_<first line's timestamp>.log under sub.
type sink struct {
	out     *output
	sub     string
	pid     int
	rotate  int64
	crlf    bool
	noFinal bool
	cur     *fileOut
}

func (o *output) newSink(sub string, pid int, rotate int64, crlf bool) *sink {
	return &sink{out: o, sub: sub, pid: pid, rotate: rotate, crlf: crlf}
}

// write appends line (no newline) stamped ts (µs); it returns the file name
// and line number it landed on.
func (s *sink) write(ts int64, line []byte) (string, int64) {
	o := s.out
	if o.shared != nil {
		return o.shared.name, o.shared.writeLine(line)
	}
	if s.cur == nil || (s.rotate > 0 && s.cur.bytes >= s.rotate) {
		s.open(ts)
	}
	if s.cur == nil {
		return "", 0
	}
	return s.cur.name, s.cur.writeLine(line)
}

func (s *sink) open(ts int64) {
	o := s.out
	if s.cur != nil {
		o.fail(s.cur.close())
	}
	s.cur = nil
	var name string
	for {
		name = path.Join(s.sub, fmt.Sprintf("plog-%d_%s.log", s.pid, fileStamp(ts)))
		if !o.names[name] {
			break
		}
		ts += 1000
	}
	o.names[name] = true
	full := filepath.Join(o.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		o.fail(err)
		return
	}
	f, err := os.Create(full)
	if err != nil {
		o.fail(err)
		return
	}
	fo := &fileOut{name: name, f: f, w: bufio.NewWriterSize(f, 256<<10), crlf: s.crlf}
	o.files = append(o.files, fo)
	s.cur = fo
}

// close ends the sink's last file (without a final newline if asked).
func (s *sink) close() {
	if s.out.shared != nil || s.cur == nil {
		return
	}
	s.cur.noFinal = s.noFinal
	s.out.fail(s.cur.close())
}

// finish closes everything and returns the files sorted by name.
func (o *output) finish() ([]FileTruth, int64, error) {
	for _, fo := range o.files {
		o.fail(fo.close())
	}
	var ft []FileTruth
	var imas int64
	for _, fo := range o.files {
		ft = append(ft, FileTruth{Name: fo.name, Lines: fo.lines, IMASLines: fo.imas})
		imas += fo.imas
	}
	sort.Slice(ft, func(i, j int) bool { return ft[i].Name < ft[j].Name })
	return ft, imas, o.err
}

func (o *output) bytesWritten() int64 {
	var n int64
	for _, fo := range o.files {
		n += fo.bytes
	}
	return n
}

// fileStamp is the plog file-name timestamp YYYYMMDDhhmmssmmm.
func fileStamp(us int64) string {
	t := time.UnixMicro(us).UTC()
	return fmt.Sprintf("%s%03d", t.Format("20060102150405"), t.Nanosecond()/1e6)
}

// tsfmt formats plog timestamps YYYY-MM-DD-hh:mm:ss.mmm.uuu, caching the
// part that only changes once a second.
type tsfmt struct {
	sec    int64
	prefix []byte
}

func (f *tsfmt) append(b []byte, us int64) []byte {
	sec := us / 1e6
	if f.prefix == nil || sec != f.sec {
		f.sec = sec
		f.prefix = time.Unix(sec, 0).UTC().AppendFormat(f.prefix[:0], "2006-01-02-15:04:05")
	}
	b = append(b, f.prefix...)
	rem := us % 1e6
	ms, u := rem/1000, rem%1000
	return append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10),
		'.', byte('0'+u/100), byte('0'+u/10%10), byte('0'+u%10))
}
