package gen

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
)

// Truth is what a correct analyzer reports for the generated logs. It is
// computed from the generator's own model of every graph, pool and
// allocation (never by reading the logs back), under the rules of
// docs/figures.md. WriteJSON writes it in the truth.json schema of
// testdata/samples/*/truth.json.
type Truth struct {
	Profile   string        `json:"profile"`
	Seed      int64         `json:"seed"`
	Graphs    []GraphTruth  `json:"graphs"`
	Variables []VarTruth    `json:"variables"`
	Malloc    []MallocTruth `json:"malloc"`
	Regions   []RegionTruth `json:"regions"`
	Addresses []AddrTruth   `json:"addresses"`
	Pools     []PoolTruth   `json:"pools"`
	Devmm     []DevmmTruth  `json:"devmm"`
	Files     []FileTruth   `json:"files"`
	IMASLines int64         `json:"imas_lines"`
	// Injections lists the hostile lines written on purpose (hostile
	// profile only; absent from truth.json when empty, so the other
	// profiles keep the sample schema exactly).
	Injections []Injection `json:"injections,omitempty"`
	// MemErrors lists the memory errors written (memerr.go; absent when
	// none, as Injections).
	MemErrors []MemErrTruth `json:"memory_errors,omitempty"`

	// Generations maps each pid to the log generation it was written in
	// (not part of truth.json).
	Generations map[int]Generation `json:"-"`
}

// GraphTruth holds the figures of one (pid, graph, memtype).
type GraphTruth struct {
	PID               int         `json:"pid"`
	Graph             string      `json:"graph"`
	MemType           int         `json:"memtype"`
	MemorySize        int64       `json:"memory_size"`
	AfterReuse        int64       `json:"after_reuse"`
	Total             int64       `json:"total"`
	GETotal           int64       `json:"ge_total"`
	NoReuse           int64       `json:"no_reuse"`
	Atomic            int64       `json:"atomic"`
	TheoryMin         int64       `json:"theory_min"`
	ZeroCopy          int64       `json:"zero_copy"`
	Streams           int64       `json:"streams"`
	Tensors           int64       `json:"tensors"`
	ReuseRate         Rate        `json:"reuse_rate"`
	ReachTheoryRate   Rate        `json:"reach_theory_rate"`
	Conflicts         [][2]string `json:"conflicts"`
	ContinuousMembers int64       `json:"continuous_members"`
	IsrefTensors      int64       `json:"isref_tensors"`
	TensorKeys        []string    `json:"tensor_keys"`
	TruncatedRows     int64       `json:"truncated_rows"`
	Logged            []string    `json:"logged"`
	Topo              string      `json:"topo"`
}

// VarTruth is one (pid, session) of variable memory.
type VarTruth struct {
	PID     int   `json:"pid"`
	Session int   `json:"session"`
	Count   int64 `json:"count"`
	SizeSum int64 `json:"size_sum"`
	AreaEnd int64 `json:"area_end"`
}

// MallocTruth is one device malloc line (sum them per pid and category).
type MallocTruth struct {
	PID      int    `json:"pid"`
	Category string `json:"category"`
	Bytes    int64  `json:"bytes"`
}

// RegionTruth is one InitFeatureMapAndP2PMem region.
type RegionTruth struct {
	PID     int    `json:"pid"`
	GraphID int    `json:"graph_id"`
	Type    string `json:"type"`
	Base    string `json:"base"`
	Size    int64  `json:"size"`
}

// AddrTruth is the address check of one loaded graph.
type AddrTruth struct {
	PID     int          `json:"pid"`
	GraphID int          `json:"graph_id"`
	Checked int64        `json:"checked"`
	Invalid []BadAddress `json:"invalid"`
}

// BadAddress is an operator address outside its region.
type BadAddress struct {
	GraphID int    `json:"graph_id"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Index   int    `json:"index"`
	MemAddr string `json:"memaddr"`
}

// PoolTruth is one RT2 allocator of one process.
type PoolTruth struct {
	PID       int    `json:"pid"`
	Allocator string `json:"allocator"`
	Allocs    int64  `json:"allocs"`
	Frees     int64  `json:"frees"`
	Total     int64  `json:"total"`
	PeakLive  int64  `json:"peak_live"`
	Leaked    int64  `json:"leaked"`
}

// DevmmTruth is one _svm_mem_stats_show statistics line.
type DevmmTruth struct {
	PID     int    `json:"pid"`
	MemType string `json:"memtype"`
	Module  string `json:"module"`
	Peak    int64  `json:"peak"`
	Current int64  `json:"current"`
}

// FileTruth describes one written file: its path relative to the output
// directory (forward slashes), its line count and the number of lines that
// contain "[IMAS]".
type FileTruth struct {
	Name      string `json:"name"`
	Lines     int64  `json:"lines"`
	IMASLines int64  `json:"imas_lines"`
}

// Injection is one hostile line (or file property) written on purpose.
// Diagnostic is the reason a parser must list the line under in
// diagnostics ("" when the line must not be diagnosed).
type Injection struct {
	File       string `json:"file"`
	Line       int64  `json:"line"`
	Kind       string `json:"kind"`
	Diagnostic string `json:"diagnostic,omitempty"`
	Detail     string `json:"detail,omitempty"`
}

// Injection kinds.
const (
	InjTruncRejected = "truncated-rejected" // [IMAS]Set cut before isref[..]: diagnostic "truncated", in truncated_rows, in no figure
	InjTruncUsed     = "truncated-used"     // [IMAS]Set cut in batch/block_type/scope only: counted normally
	InjBinary        = "binary-junk"        // random bytes, no marker: no diagnostic
	InjLongLine      = "long-line"          // non-candidate line longer than 64 KiB
	InjCRLF          = "crlf-file"          // the whole file uses \r\n (Line 0)
	InjNoFinalNL     = "no-final-newline"   // the last line of the file has no newline
	InjEventDup      = "event-dup"          // duplicate of a GEEVENT line within 2 ms: counts once
	InjFormulaName   = "formula-name"       // node name that a spreadsheet would execute
)

// Rate is a percentage rounded to two decimals. It marshals the way the
// sample truth files print it (Python's float repr: 46.0, 40.18).
type Rate float64

// MarshalJSON prints integral values with one decimal, others shortest.
func (r Rate) MarshalJSON() ([]byte, error) {
	v := float64(r)
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.AppendFloat(nil, v, 'f', 1, 64), nil
	}
	return strconv.AppendFloat(nil, v, 'f', -1, 64), nil
}

// round2 rounds to two decimals.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// WriteJSON writes the truth in the truth.json schema (one-space indent,
// no HTML escaping, trailing newline).
func (t *Truth) WriteJSON(w io.Writer) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(t); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// normalize replaces nil slices by empty ones so that JSON prints [].
func (t *Truth) normalize() {
	if t.Graphs == nil {
		t.Graphs = []GraphTruth{}
	}
	for i := range t.Graphs {
		g := &t.Graphs[i]
		if g.Conflicts == nil {
			g.Conflicts = [][2]string{}
		}
		if g.TensorKeys == nil {
			g.TensorKeys = []string{}
		}
		if g.Logged == nil {
			g.Logged = []string{}
		}
	}
	if t.Variables == nil {
		t.Variables = []VarTruth{}
	}
	if t.Malloc == nil {
		t.Malloc = []MallocTruth{}
	}
	if t.Regions == nil {
		t.Regions = []RegionTruth{}
	}
	if t.Addresses == nil {
		t.Addresses = []AddrTruth{}
	}
	for i := range t.Addresses {
		if t.Addresses[i].Invalid == nil {
			t.Addresses[i].Invalid = []BadAddress{}
		}
	}
	if t.Pools == nil {
		t.Pools = []PoolTruth{}
	}
	if t.Devmm == nil {
		t.Devmm = []DevmmTruth{}
	}
	if t.Files == nil {
		t.Files = []FileTruth{}
	}
}
