package core

import (
	"bytes"
	"cmp"
	"errors"
	"hash/maphash"
	"io"
	"math"
	"slices"

	"imas/core/input"
	"imas/core/plog"
	"imas/core/scan"
)

// Files of several processes overlap in time, so the in-order build (see
// consume.go) stops at the first file of the second process, and the
// model would be built after the last file, by the merge, on one core. When
// every source is a plain file (input.Source.RandomAccess: on disk or a
// browser File), the time of each file's first
// record can be known before the file is read (planHorizons finds it, from
// the head each file's first read gives, see heads),
// and the merge can run while the files are parsed: a record is due once
// every file not read yet starts later (or at the same time with a later
// index: ties go to the earlier file), which is when mergeByTime would take
// it too. So the consumer merges in steps (merger.emitBefore) up to that
// horizon, and the report is the merge's (TestStreamingMergeEqualsMerge).
//
// A record waits in memory until it is due, so what is kept depends on
// the order the files are read in. Plog folders list a process's files
// together (plog-PID_TIME.log), so in the order given the first file of
// the last process holds back every record of the others: nearly the
// whole input would be kept; so would it before a file whose first record
// has no time (a line without a plog header), which the merge takes
// first. So the files are read in the order of their first records
// (readOrder), and the merge keeps about one file per process that logs
// at the same time. Files keep the index of their place on the command
// line, so paths, ties and the report do not change.
// Sources whose heads are unknown (archives, streamed uploads, AnalyzeSeq) are read
// in the order given and built in order while that holds (consume.go);
// every chunk is kept for the redo with the merge, which runs in steps
// once the in-order build breaks if every later source is a plain file,
// else after the last file.

// plan is Analyze's look at all its sources before the first is read.
func (p *pipeline) plan(hs *heads) {
	if len(hs.srcs) == 0 || p.opt.alwaysMerge {
		return
	}
	p.heads = hs
	c := p.consumer // it waits for the first file, which orders this before its reads
	if hs.startsOutOfOrder() {
		c.inOrder = false
	}
	if len(hs.srcs) == 1 && hs.get(0).plain {
		p.firstFrom = []mergeKey{mergeEnd, mergeEnd} // no file comes later
	} else if len(hs.srcs) <= maxPlanned {
		p.readOrder()
		p.planHorizons(-1)
	}
	if p.firstFrom != nil {
		c.startStepwise()
		p.sideBySide = len(hs.srcs) > 1
	}
}

// maxPlanned is the most sources whose heads are read to plan the merge:
// beyond it, opening every file once more costs more than it saves.
const maxPlanned = 4096

// readOrder sets p.order to the sources sorted by the merge time of their
// first record (ties by index, so of two files with the same content the
// first listed is read first and the other is its duplicate), when every
// first record is known.
func (p *pipeline) readOrder() {
	n := len(p.heads.srcs)
	first := make([]int64, n)
	for i := range first {
		t, ok := p.heads.firstRecord(i)
		if !ok {
			return
		}
		first[i] = t
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(first[a], first[b]) })
	if !slices.IsSorted(order) {
		p.order = order
	}
}

// sourceAt is the index of the source read k-th.
func (p *pipeline) sourceAt(k int) int {
	if p.order != nil {
		return p.order[k]
	}
	return k
}

// mergeKey orders records as mergeByTime takes them: by time, ties to the
// earlier file.
type mergeKey struct {
	t    int64
	file int32
}

func (k mergeKey) less(o mergeKey) bool {
	return k.t < o.t || k.t == o.t && k.file < o.file
}

// mergeEnd is after every record.
var mergeEnd = mergeKey{math.MaxInt64, math.MaxInt32}

// A fileHead is what the start of a plain (RandomAccess) file tells before the
// pipeline reads it, from one read of its first headBytes: whether it is
// plain text (input.MarkUnique), the time of its first stamped line
// (startsOutOfOrder) and the merge time of its first record
// (planHorizons).
type fileHead struct {
	read  bool   // the fields below are set
	plain bool   // a RandomAccess source that opens and is not an archive
	sum   uint64 // hash of the head (input.MarkUnique)
	stamp int64
	// first is the merge time of the first record (math.MaxInt64 when the
	// file has none), when known is set.
	first int64
	known bool
	// parsed is how many bytes at the start of the file (whole lines) were
	// parsed without finding a record.
	parsed int
}

// heads reads the head of each of a run's sources at most once, when it is
// first asked about, and keeps what it found, not the bytes.
type heads struct {
	srcs    []input.Source
	maxLine int
	h       []fileHead
	buf     []byte
	sc      chunkScratch
}

func newHeads(srcs []input.Source, maxLine int) *heads {
	return &heads{srcs: srcs, maxLine: maxLine, h: make([]fileHead, len(srcs))}
}

const (
	// headBytes is how much of a file is read before the pipeline reads it
	// chunk by chunk: usually enough to hold its first record.
	headBytes = 256 << 10
	// stampBytes is how far startsOutOfOrder looks for a file's first time.
	stampBytes = 4 << 10
	// probeBytes is how far the first candidate line is looked for
	// before the whole head is scanned.
	probeBytes = 16 << 10
)

// get returns what the head of source i tells. Only with several sources
// is a first record looked for: only a merge needs it.
func (hs *heads) get(i int) *fileHead {
	h := &hs.h[i]
	if h.read {
		return h
	}
	h.read = true
	if hs.buf == nil {
		hs.buf = make([]byte, headBytes)
	}
	head, ok := input.HeadInto(hs.srcs[i], hs.buf)
	if !ok {
		return h
	}
	h.plain = true
	h.sum = maphash.Bytes(headSeed, head)
	h.stamp = firstStamp(head[:min(len(head), stampBytes)])
	if len(hs.srcs) > 1 {
		// A head shorter than the buffer is the whole file, so its first
		// record (or that it has none) is known without opening it again.
		// Its last line, when unterminated, gets the '\n' the pipeline's
		// reading gives it (input.Chunk.Unterminated).
		whole := len(head) < len(hs.buf)
		unterminated := whole && len(head) > 0 && head[len(head)-1] != '\n'
		if unterminated {
			head = hs.buf[:len(head)+1]
			head[len(head)-1] = '\n'
		}
		h.first, h.known, h.parsed = firstRecordIn(head, hs.maxLine, unterminated, &hs.sc)
		if whole && !h.known {
			h.first, h.known = math.MaxInt64, true
		}
	}
	return h
}

// headSeed seeds the hashes of heads: they are compared within a run.
var headSeed = maphash.MakeSeed()

// plain reports whether source i is a RandomAccess file of plain text, and the
// hash of its head.
func (hs *heads) plain(i int) (sum uint64, plain bool) {
	h := hs.get(i)
	return h.sum, h.plain
}

// firstStamp is the time of the first line of head with a plog timestamp,
// 0 when none has one (a cut last line does not count: its time may be
// cut too).
func firstStamp(head []byte) int64 {
	var env plog.Envelope
	for len(head) > 0 {
		nl := bytes.IndexByte(head, '\n')
		if nl < 0 {
			return 0
		}
		if plog.Parse(head[:nl], &env) && env.Time != 0 {
			return env.Time
		}
		head = head[nl+1:]
	}
	return 0
}

// startsOutOfOrder reports whether a file of the run starts before the
// file before it, by the first timestamp in its first stampBytes, when
// every source is a plain RandomAccess file. The in-order build (consume.go)
// would then stop at that file and be thrown away: files of several
// processes that run at the same time, or names that do not sort by time.
// A wrong guess costs time, never a different report.
func (hs *heads) startsOutOfOrder() bool {
	if len(hs.srcs) < 2 || len(hs.srcs) > maxPlanned {
		return false
	}
	var prev int64
	out := false
	for i := range hs.srcs {
		h := hs.get(i)
		if !h.plain {
			return false
		}
		if h.stamp == 0 {
			continue // an empty file or one without a time says nothing
		}
		out = out || h.stamp < prev
		prev = h.stamp
	}
	return out
}

// planHorizons finds the first record of every source read after the
// k-th one, or leaves firstFrom nil when one of them is not a plain file
// or cannot be read. firstFrom[q] is the earliest key a source read at
// place q or later can give: in the order given, files still to come have
// higher indexes than every file read, so only the time counts; read in
// p.order, a source's file index is its own index.
func (p *pipeline) planHorizons(k int) {
	if p.heads == nil {
		return // sources that come one at a time (AnalyzeSeq)
	}
	n := len(p.heads.srcs)
	if k+1 >= n || k >= 0 && !p.heads.get(p.sourceAt(k)).plain {
		return // an archive's members still to come are not known
	}
	first := make([]mergeKey, n+1)
	first[n] = mergeEnd
	for q := n - 1; q > k; q-- {
		i := p.sourceAt(q)
		t, ok := p.heads.firstRecord(i)
		if !ok {
			return
		}
		key := mergeKey{t, math.MaxInt32}
		if p.order != nil {
			key.file = int32(i)
		}
		first[q] = key
		if first[q+1].less(key) {
			first[q] = first[q+1]
		}
	}
	p.firstFrom = first
}

// firstRecordIn is the merge time of the first record in the whole lines
// of head, found as the pipeline finds it; unterminated: head's last line
// had no '\n' in its file. Without one, parsed is the bytes of whole lines
// it looked at.
func firstRecordIn(head []byte, maxLine int, unterminated bool, sc *chunkScratch) (t int64, ok bool, parsed int) {
	nl := bytes.LastIndexByte(head, '\n')
	if nl < 0 {
		return 0, false, 0
	}
	whole := head[:nl+1]
	// The first candidate is usually near the start: the first lines are
	// scanned alone first, so that a small file is not scanned twice in
	// full (here and by the pipeline).
	var cand []int
	for _, n := range [2]int{probeBytes, len(whole)} {
		part := whole[:min(n, len(whole))]
		part = part[:bytes.LastIndexByte(part, '\n')+1]
		cand = scan.CandidateLines(part, sc.cand[:0])
		if len(cand) > 0 || len(part) == len(whole) {
			break
		}
	}
	sc.cand = cand
	if len(cand) == 0 {
		return 0, false, len(whole)
	}
	// The lines up to the first candidate's are usually enough: a prefix
	// of whole lines gives a prefix of the items.
	end := len(whole)
	if e := bytes.IndexByte(whole[cand[0]:], '\n'); e >= 0 {
		end = cand[0] + e + 1
	}
	for _, data := range [][]byte{whole[:end], whole} {
		c := &input.Chunk{Data: data, Unterminated: unterminated && len(data) == len(whole)}
		if r := parseChunk(c, 0, maxLine, sc); len(r.items) > 0 {
			return r.items[0].time, true, 0
		}
	}
	return 0, false, len(whole)
}

// firstRecord is the merge time of the first record of source i
// (math.MaxInt64 for a file without one: it never holds the merge back).
// When the head has none, the rest of the file is read chunk by chunk as
// the pipeline reads it.
func (hs *heads) firstRecord(i int) (int64, bool) {
	h := hs.get(i)
	if !h.plain {
		return 0, false
	}
	if h.known {
		return h.first, true
	}
	rc, err := hs.srcs[i].Open()
	if err != nil {
		return 0, false
	}
	defer rc.Close()
	if _, err := io.CopyN(io.Discard, rc, int64(h.parsed)); err != nil {
		return 0, false
	}
	t := int64(math.MaxInt64)
	_, err = input.Chunks(rc, hs.maxLine, false, func(c *input.Chunk) error {
		r := parseChunk(c, 0, hs.maxLine, &hs.sc)
		c.Release()
		if len(r.items) > 0 {
			t = r.items[0].time
			return errFound
		}
		return nil
	})
	if err != nil && err != errFound {
		return 0, false
	}
	h.first, h.known = t, true
	return t, true
}

var errFound = errors.New("found")

// horizon is the key before which the merge may emit once the files of
// the sources read up to place k are in: the earliest first record of the
// sources read after it.
func (p *pipeline) horizon(k int) (mergeKey, bool) {
	if p.firstFrom == nil || k+1 >= len(p.firstFrom) {
		return mergeKey{}, false
	}
	return p.firstFrom[k+1], true
}
