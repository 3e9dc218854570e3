// Package gelog turns plog messages into typed records, one parser per GE
// statement family, each tolerant of every generation's template
// (docs/log-formats.md). It knows nothing of aggregation: the model
// package builds graphs, pools and totals from the records.
package gelog

import "imas/core/store/intern"

// Meta is what every record carries about its line.
type Meta struct {
	File  int32 // index of the input file (model.Inputs.Files)
	Line  int64 // 1-based line number in that file
	PID   int64
	TID   int64 // -1 when the log generation has no tid
	Time  int64 // µs, see plog.Envelope.Time
	Event bool  // printed through the run-log GEEVENT channel ("[EVENT]")
	// Unterminated: the line is the last of its file and has no '\n' (the
	// file was copied while written, or cut): it may stop anywhere.
	Unterminated bool
	// EventKey is a hash of the message for statements that GE prints with
	// GEEVENT (and so may appear twice: run log and debug log). 0 otherwise.
	EventKey uint64
}

// Record is one parsed statement.
type Record interface{ meta() *Meta }

// M returns the record's Meta.
func M(r Record) *Meta { return r.meta() }

func (m *Meta) meta() *Meta { return m }

// Reject is a candidate line that could not be used. It is a record too, so
// that diagnostics keep their place in the input order.
type Reject struct {
	Meta
	Reason string // short machine-readable reason: truncated, bad-number, unrecognised, ...
	Detail string // human detail (which field)
	Text   string // the line, cut to a readable length
	// AtLimit: a truncated line that reaches GE's logger limit (cut by GE,
	// not by a copy or the end of a file).
	AtLimit bool
	// Graph is the graph a rejected static-graph line named, when readable.
	Graph   string
	MemType int64
}

// Ignored is a candidate line that was understood and deliberately carries
// no figure (e.g. "Reuse result" summaries of non-chosen assigners, debug
// duplicates that GE itself says not to sum).
type Ignored struct {
	Meta
	What string
}

// ---- static graph (docs/log-formats.md#set-rows) ----

// SetRow is one "[IMAS]Set" line: a tensor placed in a block.
type SetRow struct {
	Meta
	Graph      string
	Node       string
	OpType     string
	Kind       string // output, workspace, input, output_desc, unknown
	Index      int64
	Offset     int64
	StreamDesc string
	Stream     int64 // last number of streamid[...]
	MemType    int64 // 2 when not printed (2020 formats)
	Size       int64 // block size (512-aligned)
	RealSize   int64
	NoAlign    int64
	LifeBegin  int64 // smallest number of the begin description
	LifeEnd    int64 // largest number of the end description
	LifeDesc   [2]string
	Child      [5]int64 // level:reuse:continuous:zerocopy:samestream; see ChildParts
	ChildParts int      // how many child numbers were printed (1, 4 or 5)
	IsRef      bool
	Batch      string
	BlockType  string
	Pool       bool // printed by the buffer-pool assigner
	HasLife    bool // the template has lifetimes (2020-06 onwards)

	// The numbers of Graph, OpType and BlockType in the intern table (0:
	// not interned), set by the parser so that the row tape need not look
	// the names up again.
	graphID, opTypeID, blockTypeID uint32
}

// NameIDs returns the numbers of Graph, OpType and BlockType in the intern
// table (core/store/intern) the parser found, 0 for a name it did not
// intern.
func (r *SetRow) NameIDs() (graph, opType, blockType uint32) {
	return r.graphID, r.opTypeID, r.blockTypeID
}

// SetNameIDs sets what NameIDs returns (the row tape's reader restores
// them).
func (r *SetRow) SetNameIDs(graph, opType, blockType uint32) {
	r.graphID, r.opTypeID, r.blockTypeID = graph, opType, blockType
}

// internName interns a graph, op-type or block-type name.
func internName(b []byte) (string, uint32) { return intern.Bytes(b) }

// TensorKinds are the kinds a row may name, in a fixed order (the row tape
// stores a kind by its index). The slice is shared: do not modify it.
func TensorKinds() []string { return tensorKinds }

// Reuse is the reuse flag (2nd child number). Templates with a single child
// number predate the flag; GE reused then by default.
func (r *SetRow) Reuse() bool {
	if r.ChildParts >= 2 {
		return r.Child[1] != 0
	}
	return true
}

// Continuous is the continuous flag (3rd child number).
func (r *SetRow) Continuous() bool { return r.ChildParts >= 3 && r.Child[2] != 0 }

// ZeroCopy is the zero-copy flag (4th child number of the 5-part form; the
// 4-part form of 2020 had "deleted block" there).
func (r *SetRow) ZeroCopy() bool { return r.ChildParts >= 5 && r.Child[3] != 0 }

// ContRow is a continuous-memory "reassign" line: Continuous input/output,
// the 2020 Check/Virtual-node/ReAssignMerge forms.
type ContRow struct {
	Meta
	Graph     string
	Node      string
	OpType    string
	Dir       string // "input" or "output" (the continuous side)
	Kind      string // tensor kind printed (output normally)
	Index     int64
	Offset    int64
	Stream    int64
	MemType   int64
	Size      int64
	RealSize  int64
	NoPadding bool
	Variant   string // "graph", "block" ([ContinuousMem]), "check", "virtual", "merge"
}

// AtomicPiece is one atomic-clean allocation appended after the reuse area.
type AtomicPiece struct {
	Meta
	Graph    string
	Node     string
	OpType   string
	What     string // output, ordinary workspace, fusion workspace
	Kind     string
	Index    int64
	Offset   int64
	Stream   int64
	MemType  int64
	Size     int64 // printed size (aligned in HEAD, raw in 2021)
	RealSize int64 // real_size, or ssize
	Batch    string
}

// AtomicClean is a SetAtomicCleanAttr/AppendAttrsToMemSetOp line: the memset
// node and the offsets it clears. It adds no memory.
type AtomicClean struct {
	Meta
	Graph   string
	Node    string
	OpType  string
	Offsets []int64
	Sizes   []int64
	Stream  int64
	MemType int64
}

// AfterAssign is a "[IMAS]AfterAssignMemory" graph summary.
type AfterAssign struct {
	Meta
	Graph     string
	MemOffset int64
	HasOffset bool
	MemType   int64 // 2 when not printed
	Failure   bool  // failure-path form (no comma after streams[...])
	// Logged holds every other key[value] field verbatim, in print order.
	Logged [][2]string
}

// AppendWs is an "[IMAS]after append ws" refresh line (docs/log-formats.md#append-ws).
type AppendWs struct {
	Meta
	Node string
	What string // ws, input offset, output offset
	From []int64
	To   []int64
}

// AppendWsSize is "after append ws, origin memory size <a>, last memory size <b>".
type AppendWsSize struct {
	Meta
	Origin int64
	Last   int64
}
