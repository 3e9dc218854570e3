package core

import (
	"bytes"
	"errors"
	"math"

	"imas/core/input"
	"imas/core/plog"
)

// Files of several processes overlap in time, so the in-order build (see
// consume.go) stops at the first file of the second process, and the
// model would be built after the last file, by the merge, on one core. When
// every source is a plain file on disk, the time of each file's first
// record can be known before the file is read (planHorizons finds it),
// and the merge can run while the files are parsed: a record is due once
// every file not read yet starts later (or at the same time: ties go to
// the earlier file), which is when mergeByTime would take it too. So the
// consumer merges in steps (merger.emitUpTo) up to that horizon, and the
// report is the merge's (TestStreamingMergeEqualsMerge). When the files
// are seen to start out of order before any is read (startsOutOfOrder),
// the in-order build is not even tried: it would be thrown away.

// plan is Analyze's look at all its sources before the first is read.
func (p *pipeline) plan(srcs []input.Source) {
	if len(srcs) < 2 || p.opt.alwaysMerge {
		return
	}
	p.planned = srcs
	if !startsOutOfOrder(srcs) {
		return
	}
	c := p.consumer // it waits for the first file, which orders this before its reads
	c.inOrder = false
	if p.planHorizons(-1); p.firstFrom != nil {
		c.startMerge()
	}
}

// startsOutOfOrder reports whether a file of srcs starts before the file
// before it, by the first timestamp in its first 4 KiB, when every source is
// a plain file on disk. The in-order build (consume.go) would then stop at
// that file and be thrown away: files of several processes that run at
// the same time, or names that do not sort by time. A wrong guess costs
// time, never a different report.
func startsOutOfOrder(srcs []input.Source) bool {
	if len(srcs) < 2 || len(srcs) > 4096 {
		return false
	}
	var prev int64
	var env plog.Envelope
	for _, s := range srcs {
		head, ok := input.Head(s, 4<<10)
		if !ok {
			return false
		}
		t := int64(0)
		for len(head) > 0 && t == 0 {
			line := head
			if nl := bytes.IndexByte(head, '\n'); nl >= 0 {
				line, head = head[:nl], head[nl+1:]
			} else {
				head = nil // a cut line: its time may be cut too
				break
			}
			if plog.Parse(line, &env) {
				t = env.Time
			}
		}
		if t == 0 {
			return false
		}
		if t < prev {
			return true
		}
		prev = t
	}
	return false
}

// headBytes is how much of a file firstRecordTime parses before it reads
// the file chunk by chunk as the pipeline does.
const headBytes = 256 << 10

// planHorizons finds the first record of every source after src (reading
// each up to there), or leaves firstFrom nil when one of them is not a
// plain file or cannot be read.
func (p *pipeline) planHorizons(src int) {
	n := len(p.planned)
	if src+1 >= n {
		return
	}
	first := make([]int64, n+1)
	first[n] = math.MaxInt64
	var sc chunkScratch
	for i := n - 1; i > src; i-- {
		t, ok := firstRecordTime(p.planned[i], p.opt.MaxLine, &sc)
		if !ok {
			return
		}
		first[i] = min(t, first[i+1])
	}
	p.firstFrom = first
}

// firstRecordTime is the merge time of the first record of a plain file:
// the time of its first candidate line, found as the pipeline finds it
// (math.MaxInt64 for a file without one: it never holds the merge back).
func firstRecordTime(s input.Source, maxLine int, sc *chunkScratch) (int64, bool) {
	head, ok := input.Head(s, headBytes)
	if !ok {
		return 0, false
	}
	// Usually the head has a record: its lines up to the last '\n' are
	// whole, so its first item is the file's.
	if nl := bytes.LastIndexByte(head, '\n'); nl >= 0 {
		if r := parseChunk(&input.Chunk{Data: head[:nl+1]}, 0, maxLine, sc); len(r.items) > 0 {
			return r.items[0].time, true
		}
	}
	rc, err := s.Open()
	if err != nil {
		return 0, false
	}
	defer rc.Close()
	t := int64(math.MaxInt64)
	_, err = input.Chunks(rc, maxLine, false, func(c *input.Chunk) error {
		r := parseChunk(c, 0, maxLine, sc)
		c.Release()
		if len(r.items) > 0 {
			t = r.items[0].time
			return errFound
		}
		return nil
	})
	return t, err == nil || err == errFound
}

var errFound = errors.New("found")

// horizon is the latest time the merge may emit once the files of sources
// up to src are in: the earliest first record of the sources after it.
func (p *pipeline) horizon(src int) (int64, bool) {
	if p.firstFrom == nil || src+1 >= len(p.firstFrom) {
		return 0, false
	}
	return p.firstFrom[src+1], true
}
