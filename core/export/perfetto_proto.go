package export

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"unicode/utf8"

	"imas/core/model"
)

// The protobuf trace (imas_graph_perfetto.pftrace) holds what the JSON
// trace holds, as Perfetto's own format: a stream of TracePacket messages
// (Trace.packet, field 1, written one after the other), several times
// smaller than the JSON and loaded without Perfetto's JSON importer and its
// size limit. The JSON writer's events are translated one by one as they
// are made, so both files always show the same tracks, slices, counters and
// arguments:
//
//   - process names (M process_name) become process tracks, thread names
//     become thread tracks (a block of a graph);
//   - complete slices (X) become a begin and an end event on their thread
//     track, with the category, and every arg as a debug annotation;
//   - counters (C) become one counter track per process, name and arg;
//   - process-scoped instants (i) become instant events on the process;
//   - async slices (b/e, pool allocations) are packed, by process,
//     category and name, onto the fewest child tracks of their process on
//     which they do not overlap (what the UI does for JSON async events).
//
// Timestamps are the JSON's microseconds as nanoseconds. Categories,
// annotation names, short annotation strings and the names of instants
// and async slices are interned (sent once, then referred to by id), which
// is most of the saving over JSON; tensor names, unique per slice, are
// not.

// Field numbers of Perfetto's published trace schema (trace_packet.proto,
// track_descriptor.proto, track_event.proto and their imports).
const (
	fTracePacket = 1 // Trace.packet

	fPacketTimestamp  = 8  // TracePacket.timestamp (ns)
	fPacketSequenceID = 10 // TracePacket.trusted_packet_sequence_id
	fPacketTrackEvent = 11 // TracePacket.track_event
	fPacketSeqFlags   = 13 // TracePacket.sequence_flags
	fPacketInterned   = 12 // TracePacket.interned_data
	fPacketTrackDesc  = 60 // TracePacket.track_descriptor

	fTrackUUID       = 1  // TrackDescriptor.uuid
	fTrackName       = 2  // TrackDescriptor.name
	fTrackProcess    = 3  // TrackDescriptor.process
	fTrackThread     = 4  // TrackDescriptor.thread
	fTrackParent     = 5  // TrackDescriptor.parent_uuid
	fTrackCounter    = 8  // TrackDescriptor.counter (CounterDescriptor)
	fTrackOrderRank  = 12 // TrackDescriptor.sibling_order_rank
	fProcessPID      = 1  // ProcessDescriptor.pid
	fProcessName     = 6  // ProcessDescriptor.process_name
	fThreadPID       = 1  // ThreadDescriptor.pid
	fThreadTID       = 2  // ThreadDescriptor.tid
	fThreadName      = 5  // ThreadDescriptor.thread_name
	fEventAnnotation = 4  // TrackEvent.debug_annotations
	fEventCategoryID = 3  // TrackEvent.category_iids
	fEventNameID     = 10 // TrackEvent.name_iid
	fAnnotNameID     = 1  // DebugAnnotation.name_iid
	fAnnotStringID   = 17 // DebugAnnotation.string_value_iid
	fInternedCat     = 1  // InternedData.event_categories (EventCategory)
	fInternedName    = 2  // InternedData.event_names (EventName)
	fInternedAnnot   = 3  // InternedData.debug_annotation_names (DebugAnnotationName)
	fInternedString  = 29 // InternedData.debug_annotation_string_values (InternedString)
	fInternIID       = 1  // iid of each of those
	fInternText      = 2  // name (or str) of each of those
	fEventType       = 9  // TrackEvent.type
	fEventTrack      = 11 // TrackEvent.track_uuid
	fEventCategory   = 22 // TrackEvent.categories
	fEventName       = 23 // TrackEvent.name
	fEventCounter    = 30 // TrackEvent.counter_value (int64)
	fAnnotBool       = 2  // DebugAnnotation.bool_value
	fAnnotInt        = 4  // DebugAnnotation.int_value
	fAnnotString     = 6  // DebugAnnotation.string_value
	fAnnotName       = 10 // DebugAnnotation.name

	eventSliceBegin = 1 // TrackEvent.Type
	eventSliceEnd   = 2
	eventInstant    = 3
	eventCounter    = 4

	seqIncrementalStateCleared = 1 // TracePacket.SequenceFlags
	seqNeedsIncrementalState   = 2
	protoSequence              = 1 // the one packet sequence of the file
)

func writePerfettoProto(w io.Writer, rep *model.Report, sc TraceScope) error {
	pt := newProtoTrace(w)
	t := &traceWriter{buf: make([]byte, 0, 512), sink: pt.event}
	writePerfettoEvents(t, rep, sc, protoLimits)
	if t.err == nil {
		t.err = pt.err
	}
	if t.err == nil {
		t.err = pt.w.Flush()
	}
	return t.err
}

// protoTrace translates JSON trace events into packets.
type protoTrace struct {
	w        *bufio.Writer
	err      error
	pkt, msg []byte // scratch: the packet, and a nested message
	sub      []byte
	ev       jsonEvent
	started  bool
	nextUUID uint64
	procs    map[int64]uint64       // JSON pid → process track
	threads  map[int64]uint64       // JSON tid → thread track
	counters map[string]uint64      // trackKey(pid, name, arg) → counter track
	groups   map[string]*asyncGroup // trackKey(pid, cat, name) → lanes
	key      []byte
	open     map[string]openAsync // async id → its begin, until the end
	// interned strings by InternedData field, and the entries the packet
	// being built adds
	interned map[int]*internTable
	newData  []byte
	entry    []byte
	// interning: the packet being built may refer to interned strings
	interning bool
}

// internTable gives strings their ids. It stops growing at internMax
// entries (later strings are written in full), so it stays small whatever
// the trace.
type internTable struct {
	ids  map[string]uint64
	next uint64
}

const (
	internMax    = 1 << 16
	internLonger = 64 // strings longer than this are written in full
)

// intern returns the id of s in the table of InternedData field kind,
// adding it to the packet being built when new; 0 when s is not interned.
func (pt *protoTrace) intern(kind int, s []byte) uint64 {
	if len(s) > internLonger {
		return 0
	}
	it := pt.interned[kind]
	if id, ok := it.ids[string(s)]; ok {
		return id
	}
	if len(it.ids) >= internMax {
		return 0
	}
	it.next++
	it.ids[string(s)] = it.next
	e := appendVarintField(pt.entry[:0], fInternIID, it.next)
	e = appendBytesField(e, fInternText, s)
	pt.entry = e
	pt.newData = appendBytesField(pt.newData, kind, e)
	return it.next
}

// asyncGroup is the lanes of one process, category and name: each lane a
// track and the time its last slice ends.
type asyncGroup struct{ lanes []asyncLane }

type asyncLane struct {
	uuid uint64
	end  int64
}

type openAsync struct {
	ev jsonEvent
}

func newProtoTrace(w io.Writer) *protoTrace {
	pt := &protoTrace{w: bufio.NewWriterSize(w, 64<<10), procs: map[int64]uint64{}, threads: map[int64]uint64{},
		counters: map[string]uint64{}, groups: map[string]*asyncGroup{}, open: map[string]openAsync{},
		interned: map[int]*internTable{}}
	for _, k := range []int{fInternedCat, fInternedName, fInternedAnnot, fInternedString} {
		pt.interned[k] = &internTable{ids: map[string]uint64{}}
	}
	return pt
}

// event translates one JSON event (as the traceWriter built it).
func (pt *protoTrace) event(b []byte) {
	ev := &pt.ev
	if !ev.parse(b) {
		return
	}
	switch ev.ph {
	case 'M':
		pt.meta(ev)
	case 'X':
		track := pt.thread(ev.pid, ev.tid)
		pt.trackEvent(ev.ts, eventSliceBegin, track, ev, true)
		pt.trackEvent(ev.ts+ev.dur, eventSliceEnd, track, nil, false)
	case 'C':
		for i := range ev.args {
			a := &ev.args[i]
			track := pt.counter(ev.pid, ev.name, a.key)
			pt.counterEvent(ev.ts, track, a.num)
		}
	case 'i':
		pt.trackEvent(ev.ts, eventInstant, pt.process(ev.pid, ""), ev, true)
	case 'b':
		pt.open[string(ev.id)] = openAsync{ev.clone()}
	case 'e':
		begin, ok := pt.open[string(ev.id)]
		if !ok {
			return
		}
		delete(pt.open, string(ev.id))
		track := pt.asyncLane(&begin.ev, ev.ts)
		pt.trackEvent(begin.ev.ts, eventSliceBegin, track, &begin.ev, true)
		pt.trackEvent(ev.ts, eventSliceEnd, track, nil, false)
	}
}

func (pt *protoTrace) meta(ev *jsonEvent) {
	name := ""
	for i := range ev.args {
		if string(ev.args[i].key) == "name" {
			name = string(ev.args[i].str)
		}
	}
	switch string(ev.name) {
	case "process_name":
		pt.process(ev.pid, name)
	case "thread_name":
		pt.newThread(ev.pid, ev.tid, name)
	}
}

// process returns the track of a JSON pid, describing it first (named
// name) if it is new.
func (pt *protoTrace) process(pid int64, name string) uint64 {
	if u, ok := pt.procs[pid]; ok {
		return u
	}
	pt.nextUUID++
	u := pt.nextUUID
	pt.procs[pid] = u
	proc := appendVarintField(pt.sub[:0], fProcessPID, uint64(pid))
	if name != "" {
		proc = appendStringField(proc, fProcessName, name)
	}
	pt.sub = proc
	d := appendVarintField(pt.msg[:0], fTrackUUID, u)
	d = appendBytesField(d, fTrackProcess, proc)
	d = appendVarintField(d, fTrackOrderRank, uint64(pid)) // JSON pids are handed out in display order
	pt.msg = d
	pt.packet(0, fPacketTrackDesc, d)
	return u
}

func (pt *protoTrace) newThread(pid, tid int64, name string) uint64 {
	if u, ok := pt.threads[tid]; ok {
		return u
	}
	pt.process(pid, "")
	pt.nextUUID++
	u := pt.nextUUID
	pt.threads[tid] = u
	th := appendVarintField(pt.sub[:0], fThreadPID, uint64(pid))
	th = appendVarintField(th, fThreadTID, uint64(tid))
	th = appendStringField(th, fThreadName, name)
	pt.sub = th
	d := appendVarintField(pt.msg[:0], fTrackUUID, u)
	d = appendBytesField(d, fTrackThread, th)
	d = appendVarintField(d, fTrackOrderRank, uint64(tid)) // so are tids
	pt.msg = d
	pt.packet(0, fPacketTrackDesc, d)
	return u
}

func (pt *protoTrace) thread(pid, tid int64) uint64 {
	if u, ok := pt.threads[tid]; ok {
		return u
	}
	return pt.newThread(pid, tid, strconv.FormatInt(tid, 10))
}

// child describes a track of process pid that is not a thread.
func (pt *protoTrace) child(pid int64, name string, counter bool) uint64 {
	parent := pt.process(pid, "")
	pt.nextUUID++
	u := pt.nextUUID
	d := appendVarintField(pt.msg[:0], fTrackUUID, u)
	d = appendVarintField(d, fTrackParent, parent)
	d = appendStringField(d, fTrackName, name)
	if counter {
		d = appendBytesField(d, fTrackCounter, nil)
	}
	pt.msg = d
	pt.packet(0, fPacketTrackDesc, d)
	return u
}

// trackKey is a map key of a process and two strings, built in scratch.
func (pt *protoTrace) trackKey(pid int64, a, b []byte) []byte {
	k := strconv.AppendInt(pt.key[:0], pid, 10)
	k = append(append(k, 0), a...)
	k = append(append(k, 0), b...)
	pt.key = k
	return k
}

func (pt *protoTrace) counter(pid int64, name, arg []byte) uint64 {
	k := pt.trackKey(pid, name, arg)
	if u, ok := pt.counters[string(k)]; ok {
		return u
	}
	u := pt.child(pid, string(name)+" "+string(arg), true)
	pt.counters[string(k)] = u
	return u
}

// asyncLane returns the lowest lane of the slice's group whose slices all
// end before it begins, adding one when none does.
func (pt *protoTrace) asyncLane(ev *jsonEvent, end int64) uint64 {
	k := pt.trackKey(ev.pid, ev.cat, ev.name)
	g := pt.groups[string(k)]
	if g == nil {
		g = &asyncGroup{}
		pt.groups[string(k)] = g
	}
	for i := range g.lanes {
		if l := &g.lanes[i]; l.end < ev.ts {
			l.end = end
			return l.uuid
		}
	}
	u := pt.child(ev.pid, string(ev.name), false)
	g.lanes = append(g.lanes, asyncLane{u, end})
	return u
}

// trackEvent writes a slice begin or end, or an instant; with ev (and
// full), its name, category and args.
func (pt *protoTrace) trackEvent(ts int64, typ uint64, track uint64, ev *jsonEvent, full bool) {
	pt.newData = pt.newData[:0]
	pt.interning = full && ev != nil
	e := appendVarintField(pt.msg[:0], fEventType, typ)
	e = appendVarintField(e, fEventTrack, track)
	if full && ev != nil {
		if len(ev.cat) > 0 {
			if id := pt.intern(fInternedCat, ev.cat); id != 0 {
				e = appendVarintField(e, fEventCategoryID, id)
			} else {
				e = appendBytesField(e, fEventCategory, ev.cat)
			}
		}
		// Tensor slices (X) have unique names; instants and pool
		// allocations repeat theirs.
		if id := uint64(0); ev.ph != 'X' {
			if id = pt.intern(fInternedName, ev.name); id != 0 {
				e = appendVarintField(e, fEventNameID, id)
			} else {
				e = appendBytesField(e, fEventName, ev.name)
			}
		} else {
			e = appendBytesField(e, fEventName, ev.name)
		}
		for i := range ev.args {
			a := &ev.args[i]
			var an []byte
			if id := pt.intern(fInternedAnnot, a.key); id != 0 {
				an = appendVarintField(pt.sub[:0], fAnnotNameID, id)
			} else {
				an = appendBytesField(pt.sub[:0], fAnnotName, a.key)
			}
			switch a.kind {
			case argNum:
				an = appendVarintField(an, fAnnotInt, uint64(a.num))
			case argBool:
				an = appendVarintField(an, fAnnotBool, uint64(a.num))
			default:
				if id := pt.intern(fInternedString, a.str); id != 0 {
					an = appendVarintField(an, fAnnotStringID, id)
				} else {
					an = appendBytesField(an, fAnnotString, a.str)
				}
			}
			pt.sub = an
			e = appendBytesField(e, fEventAnnotation, an)
		}
	}
	pt.msg = e
	pt.packet(ts, fPacketTrackEvent, e)
}

func (pt *protoTrace) counterEvent(ts int64, track uint64, v int64) {
	pt.interning = false
	e := appendVarintField(pt.msg[:0], fEventType, eventCounter)
	e = appendVarintField(e, fEventTrack, track)
	e = appendVarintField(e, fEventCounter, uint64(v))
	pt.msg = e
	pt.packet(ts, fPacketTrackEvent, e)
}

// packet writes one TracePacket holding body as field, at ts microseconds.
func (pt *protoTrace) packet(tsMicros int64, field int, body []byte) {
	p := appendVarintField(pt.pkt[:0], fPacketTimestamp, uint64(max(tsMicros, 0))*1000)
	p = appendVarintField(p, fPacketSequenceID, protoSequence)
	switch {
	case !pt.started:
		p = appendVarintField(p, fPacketSeqFlags, seqIncrementalStateCleared)
		pt.started = true
	case field == fPacketTrackEvent && pt.interning:
		p = appendVarintField(p, fPacketSeqFlags, seqNeedsIncrementalState)
	}
	if len(pt.newData) > 0 {
		p = appendBytesField(p, fPacketInterned, pt.newData)
		pt.newData = pt.newData[:0]
	}
	p = appendBytesField(p, field, body)
	pt.pkt = p
	var head [2 * binaryMaxVarint]byte
	h := appendVarint(appendVarint(head[:0], uint64(fTracePacket)<<3|wireBytes), uint64(len(p)))
	if pt.err == nil {
		_, pt.err = pt.w.Write(h)
	}
	if pt.err == nil {
		_, pt.err = pt.w.Write(p)
	}
}

// Protobuf wire format: varints, and length-delimited fields.
const (
	wireVarint      = 0
	wireBytes       = 2
	binaryMaxVarint = 10
)

func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendVarintField(b []byte, field int, v uint64) []byte {
	return appendVarint(appendVarint(b, uint64(field)<<3|wireVarint), v)
}

func appendBytesField(b []byte, field int, v []byte) []byte {
	b = appendVarint(appendVarint(b, uint64(field)<<3|wireBytes), uint64(len(v)))
	return append(b, v...)
}

func appendStringField(b []byte, field int, v string) []byte {
	b = appendVarint(appendVarint(b, uint64(field)<<3|wireBytes), uint64(len(v)))
	return append(b, v...)
}

// jsonEvent is one event of the JSON trace, read back from the flat
// object the traceWriter makes (members are numbers, strings, booleans and
// one level of args).
type jsonEvent struct {
	ph                byte
	ts, dur, pid, tid int64
	// name, cat and id point into the event's bytes (or into scratch
	// for escaped strings): valid until the next event, unless cloned.
	name, cat, id []byte
	args          []jsonArg
}

type jsonArg struct {
	key  []byte
	kind byte // argNum, argBool, argString
	num  int64
	str  []byte
}

const (
	argNum = iota + 1
	argBool
	argString
)

// clone copies ev and every string it points to.
func (ev *jsonEvent) clone() jsonEvent {
	c := *ev
	c.name, c.cat, c.id = bytes.Clone(ev.name), bytes.Clone(ev.cat), bytes.Clone(ev.id)
	c.args = make([]jsonArg, len(ev.args))
	for i, a := range ev.args {
		a.key, a.str = bytes.Clone(a.key), bytes.Clone(a.str)
		c.args[i] = a
	}
	return c
}

// parse reads b; false if b is not an event object of that shape.
func (ev *jsonEvent) parse(b []byte) bool {
	*ev = jsonEvent{args: ev.args[:0]}
	s := jsonScanner{b: b}
	if !s.skipTo('{') {
		return false
	}
	for {
		key, ok := s.key()
		if !ok {
			return s.closed
		}
		if string(key) == "args" {
			if !s.skipTo('{') {
				return false
			}
			for {
				k, ok := s.key()
				if !ok {
					break
				}
				a := jsonArg{key: k}
				switch {
				case s.peek() == '"':
					a.kind, a.str = argString, s.str()
				case s.peek() == 't' || s.peek() == 'f':
					a.kind = argBool
					if string(s.word()) == "true" {
						a.num = 1
					}
				default:
					a.kind, a.num = argNum, s.num()
				}
				ev.args = append(ev.args, a)
			}
			s.closed = false
			continue
		}
		switch string(key) {
		case "ph":
			if v := s.str(); len(v) > 0 {
				ev.ph = v[0]
			}
		case "ts":
			ev.ts = s.num()
		case "dur":
			ev.dur = s.num()
		case "pid":
			ev.pid = s.num()
		case "tid":
			ev.tid = s.num()
		case "name":
			ev.name = s.str()
		case "cat":
			ev.cat = s.str()
		case "id":
			ev.id = s.str()
		default:
			if s.peek() == '"' {
				s.str()
			} else {
				s.word()
			}
		}
	}
}

// jsonScanner reads the traceWriter's JSON: no whitespace inside events,
// strings escaped as appendEscaped does.
type jsonScanner struct {
	b      []byte
	i      int
	closed bool // the last key() call met the end of its object
}

func (s *jsonScanner) skipTo(c byte) bool {
	for s.i < len(s.b) {
		s.i++
		if s.b[s.i-1] == c {
			return true
		}
	}
	return false
}

func (s *jsonScanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// key reads `"key":` after an optional comma; false at the object's end.
func (s *jsonScanner) key() ([]byte, bool) {
	if s.peek() == ',' {
		s.i++
	}
	if s.peek() != '"' {
		if s.peek() == '}' {
			s.i++
			s.closed = true
		}
		return nil, false
	}
	k := s.str()
	if s.peek() == ':' {
		s.i++
	}
	return k, true
}

func (s *jsonScanner) word() []byte {
	j := s.i
	for s.i < len(s.b) && s.b[s.i] != ',' && s.b[s.i] != '}' {
		s.i++
	}
	return s.b[j:s.i]
}

func (s *jsonScanner) num() int64 {
	word := s.word()
	w := word
	neg := len(w) > 0 && w[0] == '-'
	if neg {
		w = w[1:]
	}
	var n int64
	for _, c := range w {
		if c < '0' || c > '9' {
			v, _ := strconv.ParseInt(string(word), 10, 64)
			return v
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n
}

// str reads a JSON string and undoes appendEscaped. The result points
// into the event, or, when the string has escapes, into a fresh copy.
func (s *jsonScanner) str() []byte {
	if s.peek() != '"' {
		return s.word()
	}
	s.i++
	j := s.i
	for s.i < len(s.b) && s.b[s.i] != '"' && s.b[s.i] != '\\' {
		s.i++
	}
	if s.i < len(s.b) && s.b[s.i] == '"' {
		v := s.b[j:s.i]
		s.i++
		return v
	}
	out := append([]byte(nil), s.b[j:s.i]...)
	for s.i < len(s.b) && s.b[s.i] != '"' {
		c := s.b[s.i]
		if c != '\\' || s.i+1 >= len(s.b) {
			out = append(out, c)
			s.i++
			continue
		}
		e := s.b[s.i+1]
		s.i += 2
		switch e {
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if s.i+4 <= len(s.b) {
				r, err := strconv.ParseUint(string(s.b[s.i:s.i+4]), 16, 32)
				if err == nil {
					out = utf8.AppendRune(out, rune(r))
				}
				s.i += 4
			}
		default:
			out = append(out, e)
		}
	}
	s.i++
	return out
}
