package core_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"imas/core"
	"imas/core/diag"
	"imas/core/gelog"
	"imas/core/input"
	"imas/core/model"
	"imas/core/plog"
)

// memoryLine is the accounting's broad idea of a line about memory: a
// memory word and a number.
var memoryLine = regexp.MustCompile(`(?i)(alloc|free|malloc|mem|size).*[0-9]|[0-9].*(alloc|free|malloc|mem|size)`)

// readForms are the statement forms imas reads: every real line of these
// forms must be a candidate, and parse into a record, an ignore rule or a
// diagnostic. (GE's memory statements, devmm statistics, memory errors.)
var readForms = regexp.MustCompile(`\[IMAS\]|MallocMemory, func=|MemoryAllocator::|\[KernelTrace\]\[|Malloc block |Free block |Device memory   : \[|` +
	`\] DRV\(.*mem_stats_show|create caching memory allocator|rtMallocPhysical success|aclrtFreePhysical success|RtMemAllocator::free|` +
	`Total memory size is|Final StaticMemoryPolicy|zero_copy_memory is |zero_copy_mem_size|virtual_active_addr_base:|` +
	`PrintDetails:|DeviceAllocator::|` +
	// memory errors and the kernel log's devmm table
	`ErrCode=207001|result = 207001|halMemCreate|halMemAlloc failed|Mem_remote_map|memory alloc error|alloc device memory failed|` +
	`Call rtMalloc fail|InitRuntimeParams.*expect \d+ actual \d+|^\[[0-9-:. ]+\] \[ascend\] \[devmm\]`)

// TestRealLogsAccounting: over the real logs, every line that mentions
// memory is a record, a line ignored by a named rule, a diagnostic, or a
// line that is not a memory record, explained by a named rule of
// core.NotRecordRule. Nothing is left over; leftovers are listed grouped by
// log module and function. Lines of the forms imas reads are candidates.
func TestRealLogsAccounting(t *testing.T) {
	var records, ignored, rejected int
	notRecords := map[string]int{}
	leftovers := map[string]int{}
	examples := map[string]string{}
	for _, name := range realLogs(t) {
		f, err := os.Open(filepath.Join(realLogsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var env plog.Envelope
		for n := int64(1); sc.Scan(); n++ {
			line := bytes.TrimRight(sc.Bytes(), "\r")
			if !memoryLine.Match(line) {
				continue
			}
			if !gelog.IsCandidate(line) {
				if readForms.Match(line) {
					t.Errorf("%s:%d: a form imas reads is not a candidate: %.200s", name, n, line)
				}
				if rule := core.NotRecordRule(line); rule != "" {
					if r, ok := diag.Lookup(rule); !ok || r.Class != diag.NotRecord {
						t.Errorf("%s:%d: rule %q is not a not-record row of core/diag", name, n, rule)
					}
					notRecords[rule]++
					continue
				}
				key := leftoverGroup(line)
				leftovers[key]++
				if _, ok := examples[key]; !ok {
					examples[key] = fmt.Sprintf("%s:%d", name, n)
				}
				continue
			}
			ok := plog.ParseAny(line, &env)
			switch r := gelog.Parse(&env, ok, line, gelog.Meta{Line: n}).(type) {
			case *gelog.Ignored:
				ignored++
				if !diag.Known("ignored:" + r.What) {
					t.Errorf("%s:%d: ignore rule %q is not in core/diag", name, n, r.What)
				}
			case *gelog.Reject:
				rejected++
				if !diag.Known(r.Reason) {
					t.Errorf("%s:%d: reason %q is not in core/diag", name, n, r.Reason)
				}
				// A line without any header (a wrapped line's tail) is
				// reported as such, which is all the accounting asks.
				if readForms.Match(line) && r.Reason != diag.BadEnvelope {
					t.Errorf("%s:%d: rejected (%s: %s): %.200s", name, n, r.Reason, r.Detail, line)
				}
			default:
				records++
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	total := 0
	for _, v := range notRecords {
		total += v
	}
	var b strings.Builder
	fmt.Fprintf(&b, "memory lines: %d records, %d ignored by rule, %d diagnostics, %d not memory records (by rule):\n",
		records, ignored, rejected, total)
	for _, k := range sortedByCount(notRecords) {
		fmt.Fprintf(&b, "  %5d  %s\n", notRecords[k], k)
	}
	t.Log(b.String())
	if len(leftovers) > 0 {
		b.Reset()
		for _, k := range sortedByCount(leftovers) {
			fmt.Fprintf(&b, "\n  %5d  %s  (e.g. %s)", leftovers[k], k, examples[k])
		}
		t.Errorf("lines that mention memory but no rule explains (by module and function):%s", b.String())
	}
}

// sortedByCount returns the keys of m, the largest count first.
func sortedByCount(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

var (
	envModule = regexp.MustCompile(`^\S*?\[[A-Z]+\] ?([A-Z_0-9]+)\(`)
	envFunc   = regexp.MustCompile(`\] ?\d* (?:\[[a-z_0-9]+\] )?([A-Za-z_~][\w:~]*):`)
)

// leftoverGroup names a line by its log module and function token.
func leftoverGroup(line []byte) string {
	mod := "no plog envelope"
	if m := envModule.FindSubmatch(line); m != nil {
		mod = string(m[1])
	}
	fn := "?"
	if m := envFunc.FindSubmatch(line); m != nil {
		fn = string(m[1])
	}
	return mod + " " + fn
}

// checkReasonsKnown: every reason a report gives is a row of core/diag.
func checkReasonsKnown(t *testing.T, rep *model.Report) {
	t.Helper()
	for _, d := range rep.Diagnostics {
		if !diag.Known(d.Reason) {
			t.Errorf("diagnostic reason %q (%s) is not in core/diag", d.Reason, d.Detail)
		}
	}
	for k := range rep.DiagSummary {
		if !diag.Known(k) {
			t.Errorf("diagnostic count %q is not in core/diag", k)
		}
	}
}

// TestReasonsAreKnown: the reasons given over the real logs, the shared
// samples and the generated test logs are all rows of core/diag. (The
// fuzz seeds check the same in FuzzAnalyze and the gelog fuzz targets.)
func TestReasonsAreKnown(t *testing.T) {
	var dirs []string
	for _, d := range []string{"../../shared/samples", "../testdata/gen"} {
		if _, err := os.Stat(d); err == nil {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		t.Run(filepath.Base(d), func(t *testing.T) {
			srcs, bad := input.FromPaths([]string{d})
			if len(bad) > 0 {
				t.Fatalf("%v", bad)
			}
			rep := run(t, srcs...)
			checkReasonsKnown(t, rep)
		})
	}
	if _, err := os.Stat(realLogsDir); err == nil {
		for _, name := range realLogs(t) {
			checkReasonsKnown(t, runReal(t, name))
		}
	}
}
