package gen

import (
	"fmt"
	"sort"
	"strings"

	"imas/internal/size"
)

// Generation selects the GE log templates of a process.
type Generation string

// Log generations (docs/log-formats.md): the 2020 templates (no tid, no
// optype/memtype), the 2021-2023 templates (scope[], "b-id" begins,
// EVENT-level summaries) and the 2025+/HEAD templates (block_type[],
// "--" descs, [EVENT] run-log lines, graph names <name>_<id>).
const (
	Gen2020 Generation = "2020"
	Gen2021 Generation = "2021"
	Gen2025 Generation = "2025"
)

// Devmm driver formats of _svm_mem_stats_show.
const (
	DevmmNone = ""
	DevmmNew  = "new" // CANN 9 (2026): [file.c:line], allocated_peak_size, MEM_DEV_* types
	DevmmOld  = "old" // CANN 8.5 (2024): [_svm_mem_stats_show 148], alloced_peak_size, DEV_MEM/SVM_MEM
	// CANN 6.x (2023): [_devmm_mem_stats_show 152], "mem stats(Bytes): k=v, ..." without counts, [EVENT], printed twice
	Devmm2023 = "2023"
)

// Profile describes one generated run: its processes and global knobs.
type Profile struct {
	Name string
	Seed int64
	// NoiseRatio is the mean number of unrelated log lines written after
	// each statement line.
	NoiseRatio float64
	// RotateBytes starts a new plog file for a process once its current
	// file reached this size (0: one file per process and channel).
	RotateBytes int64
	// TargetBytes (large profile) keeps adding graphs and noise until the
	// output reaches this size; 0 disables.
	TargetBytes int64
	Processes   []ProcessSpec
}

// ProcessSpec describes one GE process (one pid).
type ProcessSpec struct {
	PID        int
	PName      string     // process name in the envelope; default by generation
	Generation Generation // log templates
	StartUnix  int64      // first timestamp (seconds, UTC); default by generation
	Graphs     int        // static graphs compiled (and loaded when Load)
	Ops        int        // operators per graph (±30%)
	Streams    int        // streams per graph
	P2P        float64    // fraction of graphs that also place P2P (memtype 16) tensors
	Continuous float64    // mean continuous-input segments (2-3 members each) per graph
	Inplace    float64    // probability that an output gets an isref[1] in-place alias
	Atomic     int        // at most this many atomic pieces per graph
	Conflicts  int        // injected reuse conflicts per graph
	Variables  int        // AssignVarMem rows (spread over Sessions)
	Sessions   int
	Mallocs    bool // one malloc line of every purpose of the generation (device and non-device)
	Load       bool // load-time: feature-map malloc, InitFeatureMapAndP2PMem region, operator addresses
	Addresses  int  // at most this many operator address lines per loaded graph
	BadAddrs   int  // out-of-range operator addresses injected in this process
	Pools      int  // RT2 caching allocators (KernelTrace + Malloc/Free block)
	PoolEvents int  // allocations per allocator
	// PoolBurst, when > 0, feeds every allocator this many allocations
	// after each graph (a training step's pool traffic between
	// compilations) instead of PoolEvents after all graphs.
	PoolBurst  int
	PhysPages  int // expandable-memory physical pages (MallocPhysicalPage, page caching)
	Devmm      string
	EventDup   bool // GEEVENT lines twice: run-log copy and debug copy within 2 ms
	RunLogFile bool // run-log copies (and devmm) go to run/plog/, debug lines to debug/plog/
	Hostile    Hostile
	MemErrors  int // failed memory requests written at the end (memerr.go)
}

// Hostile lists the hostile injections of one process.
type Hostile struct {
	CRLF           bool     // debug plog written with \r\n
	NoFinalNewline bool     // last line of the last file without newline
	CutRejected    int      // [IMAS]Set rows cut at 1024 chars before isref[..] (need a long-name graph)
	CutUsed        int      // [IMAS]Set rows cut in batch/block_type/scope only
	Binary         int      // binary junk lines
	LongLines      int      // non-candidate lines longer than 64 KiB
	FormulaNames   []string // node names a spreadsheet would execute
	Recompile      bool     // the last graph recompiles the first graph's name (graph#2)
	MissingSummary bool     // one graph without AfterAssignMemory (figures from rows)
}

// hostile reports whether the process has any hostile injection (its
// run-log duplicates are then listed in the truth's injections too).
func (s ProcessSpec) hostile() bool {
	h := s.Hostile
	return s.RunLogFile || h.CRLF || h.NoFinalNewline || h.CutRejected+h.CutUsed+h.Binary+h.LongLines > 0 ||
		len(h.FormulaNames) > 0 || h.Recompile || h.MissingSummary
}

var profileNames = []string{"basic", "mixed", "conflicts", "pool", "hostile", "large", "poolheavy", "ranks", "smallgraphs", "hugegraph", "allkinds"}

// sizedProfiles are the profiles whose output grows to the -size target.
var sizedProfiles = map[string]bool{"large": true, "poolheavy": true, "ranks": true, "smallgraphs": true, "hugegraph": true, "allkinds": true}

// Sized reports whether the named profile writes about its size argument.
func Sized(name string) bool { return sizedProfiles[name] }

// hugeGraphBytesPerTensor is about what one tensor of the hugegraph
// profile costs in the log (its Set row, its operator's share of the
// other statements and the noise between them).
const hugeGraphBytesPerTensor = 460

// DefaultHugeGraphTensors is the tensor count of the hugegraph profile
// when no size is given.
const DefaultHugeGraphTensors = 1_000_000

// Profiles lists the built-in profile names.
func Profiles() []string { return append([]string(nil), profileNames...) }

// DefaultLargeBytes is the default target size of the large profile.
const DefaultLargeBytes = 560 << 20

// ProfileByName returns a built-in profile. seed 0 keeps the profile's
// default seed; size is the target byte size of the sized profiles
// (0: 560 MiB; hugegraph: its one graph of 10^6 tensors).
//
// The sized profiles are the mixes the benchmarks run:
//   - large: Set-heavy, one process compiling graphs of ~900 operators;
//   - poolheavy: six ranks interleaved in time, each compiling graphs and
//     feeding two RT2 caching allocators between them (about a quarter of
//     the bytes are Malloc block and KernelTrace lines);
//   - ranks: sixteen processes interleaved in time, graphs and a small pool;
//   - smallgraphs: thousands of loaded graphs of a dozen operators;
//   - hugegraph: one graph whose tensor count grows with the size;
//   - allkinds: two processes of each of large, poolheavy, ranks and
//     smallgraphs, interleaved in time, each kind a quarter of the bytes.
func ProfileByName(name string, seed int64, size int64) (Profile, error) {
	var p Profile
	if sizedProfiles[name] && size <= 0 && name != "hugegraph" {
		size = DefaultLargeBytes
	}
	switch name {
	case "basic":
		p = Profile{Name: name, Seed: 101, NoiseRatio: 1.6, Processes: []ProcessSpec{{
			PID: 1311101, Generation: Gen2025, Graphs: 3, Ops: 26, Streams: 1, Continuous: 0.7, Inplace: 0.03,
			Atomic: 2, Load: true, Addresses: 40, EventDup: true,
		}}}
	case "mixed":
		p = Profile{Name: name, Seed: 102, NoiseRatio: 1.1, RotateBytes: 160 << 10, Processes: []ProcessSpec{
			{PID: 20000, Generation: Gen2021, Graphs: 3, Ops: 60, Streams: 2, P2P: 1, Continuous: 1.5, Inplace: 0.03,
				Atomic: 3, Variables: 14, Sessions: 1, Mallocs: true, Load: true, Addresses: 30},
			{PID: 20777, Generation: Gen2025, Graphs: 4, Ops: 70, Streams: 3, P2P: 0.75, Continuous: 0.8, Inplace: 0.04,
				Atomic: 3, Variables: 18, Sessions: 2, Mallocs: true, Load: true, Addresses: 30, EventDup: true},
			{PID: 21554, Generation: Gen2020, Graphs: 3, Ops: 70, Streams: 2, Continuous: 0.8, Inplace: 0.03,
				Atomic: 2, Mallocs: true},
		}}
	case "conflicts":
		p = Profile{Name: name, Seed: 103, NoiseRatio: 0.6, Processes: []ProcessSpec{{
			PID: 4242, Generation: Gen2025, Graphs: 4, Ops: 45, Streams: 2, Continuous: 0.6, Inplace: 0.04,
			Atomic: 2, Conflicts: 3, Load: true, Addresses: 40, BadAddrs: 4, EventDup: true,
		}}}
	case "pool":
		p = Profile{Name: name, Seed: 104, NoiseRatio: 0.25, Processes: []ProcessSpec{
			{PID: 5151, Generation: Gen2025, Pools: 2, PoolEvents: 200, PhysPages: 4, Devmm: DevmmNew, Mallocs: false},
			{PID: 5252, Generation: Gen2025, StartUnix: 1719677905, Pools: 1, PoolEvents: 90, Devmm: DevmmOld},
			{PID: 5353, Generation: Gen2021, StartUnix: 1689300000, Pools: 1, PoolEvents: 60, Devmm: Devmm2023},
		}}
	case "hostile":
		p = Profile{Name: name, Seed: 105, NoiseRatio: 0.8, Processes: []ProcessSpec{
			{PID: 31001, Generation: Gen2025, Graphs: 3, Ops: 30, Streams: 2, P2P: 0.5, Continuous: 0.6, Inplace: 0.05,
				Atomic: 2, Variables: 5, Sessions: 1, Mallocs: true, Load: true, Addresses: 20, BadAddrs: 1,
				EventDup: true, RunLogFile: true, Devmm: DevmmNew, MemErrors: 3,
				Hostile: Hostile{CRLF: true, CutUsed: 3, Binary: 3, LongLines: 1,
					FormulaNames: []string{"=cmd|' /C calc'!A0", "<img src=x onerror=alert(1)>", "+SUM(1,2)"}}},
			{PID: 31002, Generation: Gen2021, Graphs: 4, Ops: 30, Streams: 1, P2P: 0.5, Continuous: 0.6, Inplace: 0.05,
				Atomic: 2, Variables: 4, Sessions: 2, Load: true, Addresses: 15, EventDup: true,
				Hostile: Hostile{NoFinalNewline: true, CutRejected: 3, CutUsed: 2, Binary: 2, Recompile: true, MissingSummary: true,
					FormulaNames: []string{"@SUM(A1:A9)", "-2+3*cmd"}}},
			{PID: 31003, Generation: Gen2020, Graphs: 2, Ops: 24, Streams: 1, Continuous: 0.5, Inplace: 0.05, Atomic: 1,
				Hostile: Hostile{CutRejected: 2, CutUsed: 1, FormulaNames: []string{"=HYPERLINK(\"http://x\")"}}},
		}}
	case "large":
		p = Profile{Name: name, Seed: 106, NoiseRatio: 6, RotateBytes: 20 << 20, TargetBytes: size, Processes: []ProcessSpec{{
			PID: 777001, Generation: Gen2025, Graphs: 1, Ops: 900, Streams: 3, P2P: 0.3, Continuous: 2, Inplace: 0.02,
			Atomic: 4, Variables: 40, Sessions: 1, Mallocs: true, Load: true, Addresses: 200, EventDup: true,
		}}}
	case "poolheavy":
		p = Profile{Name: name, Seed: 107, NoiseRatio: 2, RotateBytes: 20 << 20, TargetBytes: size}
		for i := 0; i < 6; i++ {
			p.Processes = append(p.Processes, ProcessSpec{
				PID: 610001 + 97*i, Generation: Gen2025, StartUnix: genStart[Gen2025] + int64(i),
				Graphs: 1, Ops: 160, Streams: 2, Continuous: 1, Inplace: 0.02, Atomic: 2, Variables: 6, Sessions: 1,
				Mallocs: true, Load: true, Addresses: 40, EventDup: true, Pools: 2, PoolBurst: 110, Devmm: DevmmNew,
			})
		}
	case "ranks":
		p = Profile{Name: name, Seed: 108, NoiseRatio: 4, RotateBytes: 20 << 20, TargetBytes: size}
		for i := 0; i < 16; i++ {
			p.Processes = append(p.Processes, ProcessSpec{
				PID: 720001 + 13*i, Generation: Gen2025, StartUnix: genStart[Gen2025] + int64(i%4),
				Graphs: 1, Ops: 400, Streams: 3, P2P: 0.3, Continuous: 1.5, Inplace: 0.02, Atomic: 3,
				Load: true, Addresses: 60, EventDup: true, Pools: 1, PoolBurst: 8,
			})
		}
	case "smallgraphs":
		p = Profile{Name: name, Seed: 109, NoiseRatio: 3, RotateBytes: 20 << 20, TargetBytes: size, Processes: []ProcessSpec{{
			PID: 830001, Generation: Gen2025, Graphs: 1, Ops: 12, Streams: 1, Continuous: 0.3, Inplace: 0.02,
			Atomic: 1, Load: true, Addresses: 6, EventDup: true,
		}}}
	case "allkinds":
		// Every process gets an equal share of the bytes (TargetBytes/n).
		p = Profile{Name: name, Seed: 111, NoiseRatio: 3, RotateBytes: 20 << 20, TargetBytes: size}
		for i := 0; i < 2; i++ {
			start := genStart[Gen2025] + int64(i)
			p.Processes = append(p.Processes,
				ProcessSpec{PID: 777101 + 97*i, Generation: Gen2025, StartUnix: start, Graphs: 1, Ops: 900, Streams: 3,
					P2P: 0.3, Continuous: 2, Inplace: 0.02, Atomic: 4, Variables: 40, Sessions: 1, Mallocs: true, Load: true,
					Addresses: 200, EventDup: true},
				ProcessSpec{PID: 610101 + 97*i, Generation: Gen2025, StartUnix: start, Graphs: 1, Ops: 160, Streams: 2,
					Continuous: 1, Inplace: 0.02, Atomic: 2, Variables: 6, Sessions: 1, Mallocs: true, Load: true,
					Addresses: 40, EventDup: true, Pools: 2, PoolBurst: 110, Devmm: DevmmNew},
				ProcessSpec{PID: 720101 + 13*i, Generation: Gen2025, StartUnix: start, Graphs: 1, Ops: 400, Streams: 3,
					P2P: 0.3, Continuous: 1.5, Inplace: 0.02, Atomic: 3, Load: true, Addresses: 60, EventDup: true,
					Pools: 1, PoolBurst: 8},
				ProcessSpec{PID: 830101 + 97*i, Generation: Gen2025, StartUnix: start, Graphs: 1, Ops: 12, Streams: 1,
					Continuous: 0.3, Inplace: 0.02, Atomic: 1, Load: true, Addresses: 6, EventDup: true},
			)
		}
	case "hugegraph":
		tensors := int64(DefaultHugeGraphTensors)
		if size > 0 {
			tensors = max(size/hugeGraphBytesPerTensor, 8)
		}
		// About 1.9 rows per operator (outputs, workspaces, aliases).
		ops := int(tensors * 10 / 19)
		p = Profile{Name: name, Seed: 110, NoiseRatio: 0.5, RotateBytes: 20 << 20, Processes: []ProcessSpec{{
			PID: 940001, Generation: Gen2025, Graphs: 1, Ops: ops, Streams: 4, P2P: 1, Continuous: 40, Inplace: 0.02,
			Atomic: 8, Load: true, Addresses: 2000, EventDup: true,
		}}}
	default:
		return Profile{}, fmt.Errorf("unknown profile %q (known: %s)", name, strings.Join(profileNames, ", "))
	}
	if seed != 0 {
		p.Seed = seed
	}
	sort.Slice(p.Processes, func(i, j int) bool { return p.Processes[i].PID < p.Processes[j].PID })
	return p, nil
}

// ParseSize parses a byte size such as 560M, 2G, 800K or 12345, with the
// units of every imas front door (docs/sizes.md).
func ParseSize(s string) (int64, error) { return size.Parse(s) }
