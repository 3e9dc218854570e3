package ui

import (
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"imas/core/diag"
	"imas/core/model"
)

// Overview shows what was read and the process-level memory: device
// mallocs, driver statistics, sanity notes and the diagnostics.
type Overview struct {
	S      *State
	Open   bool   // diagnostics list shown
	Reason string // diagnostics filter
	Page   int

	DevmmSort, DiagSort TableSort
}

const diagPage = 50

// Rendered lets the page's script size the stacked bars (data-w): CSP
// allows no style attributes, only styles set from script.
// It writes the view into the address, too.
func (c *Overview) Rendered() {
	c.S.Eng.Rendered()
	c.S.syncHash()
}

func (c *Overview) rep() *model.Report { return c.S.Run.Report }

// pids lists every process seen in the graphs or any section of the report.
func (c *Overview) pids() []string {
	r := c.rep()
	seen := map[string]bool{}
	for _, g := range r.Graphs {
		seen[g.PID] = true
	}
	gjson.Get(c.S.Run.Raw, "sections").ForEach(func(_, sec gjson.Result) bool {
		sec.ForEach(func(_, item gjson.Result) bool {
			if p := item.Get("pid"); p.Exists() {
				seen[p.String()] = true
			}
			return true
		})
		return true
	})
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func (c *Overview) took() string {
	return (time.Duration(c.S.Run.Seconds*1000) * time.Millisecond).String()
}

func (c *Overview) diagClass() string {
	if c.diagTotal() > 0 {
		return "card warn"
	}
	return "card"
}

func (c *Overview) families() []string {
	var out []string
	for k, n := range c.rep().Sanity.Families {
		out = append(out, k+"="+strconv.FormatInt(n, 10))
	}
	sort.Strings(out)
	return out
}

// listedReason tells the reasons of listed diagnostics from what the
// report only counts: duplicate events and lines skipped by a named rule.
func listedReason(k string) bool { return k != diag.DuplicateEvent && !diag.IsIgnoredCounter(k) }

func (c *Overview) reasons() []string {
	var out []string
	for k := range c.rep().DiagSummary {
		if listedReason(k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// diagTotal is every diagnostic of the run, listed or not: the card's
// number and the sum of the summary's.
func (c *Overview) diagTotal() int64 {
	var n int64
	for _, k := range c.reasons() {
		n += c.rep().DiagSummary[k]
	}
	if n == 0 { // a report without counts
		n = int64(c.S.Run.Diags)
	}
	return n
}

func (c *Overview) diagSummary() string {
	var parts []string
	for _, k := range c.reasons() {
		parts = append(parts, k+" "+Count(c.rep().DiagSummary[k]))
	}
	return strings.Join(parts, " · ")
}

// counted lists what the report counts without listing it.
func (c *Overview) counted() string {
	var parts []string
	for k, n := range c.rep().DiagSummary {
		if !listedReason(k) {
			parts = append(parts, k+" "+Count(n))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, " · ")
}

func (c *Overview) inputs() string {
	if len(c.S.Run.Inputs) == 0 {
		return "report.json"
	}
	return strings.Join(c.S.Run.Inputs, ", ")
}

// proc is a process as the overview ranks it.
type proc struct {
	PID            string
	Static, Malloc int64
	Graphs         int
	Leaked         int64
	Conflicts      int
	MemErrors      int // failed memory requests of the process
}

// procs ranks the processes by their graphs' memory_size, then their
// device mallocs.
func (c *Overview) procs() []proc {
	by := map[string]*proc{}
	get := func(pid string) *proc {
		if by[pid] == nil {
			by[pid] = &proc{PID: pid}
		}
		return by[pid]
	}
	for i, g := range c.rep().Graphs {
		p := get(g.PID)
		p.Static += g.MemorySize
		p.Graphs++
		p.Conflicts += c.S.Run.Counts[i].Conflicts
	}
	for _, m := range c.rep().DeviceMalloc {
		get(m.PID).Malloc += m.Bytes
	}
	for _, p := range c.S.Run.Pools() {
		get(p.PID).Leaked += p.Leaked
	}
	for _, e := range c.rep().MemoryErrors {
		get(e.PID).MemErrors++
	}
	out := make([]proc, 0, len(by))
	for _, p := range by {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { // not slices: see Graphs.matching
		a, b := out[i], out[j]
		return cmp.Or(cmp.Compare(b.Static, a.Static), cmp.Compare(b.Malloc, a.Malloc), cmp.Compare(a.PID, b.PID)) < 0
	})
	return out
}

func (c *Overview) mostStatic() int64 {
	var m int64 = 1
	for _, p := range c.procs() {
		m = max(m, p.Static)
	}
	return m
}

func (c *Overview) procText(p proc) string {
	t := "pid " + p.PID + ": " + Size(p.Static) + " in " + Count(int64(p.Graphs)) + " graphs"
	if p.Malloc > 0 {
		t += " · device malloc " + Size(p.Malloc)
	}
	if p.Conflicts > 0 {
		t += " · " + Count(int64(p.Conflicts)) + " conflicts"
	}
	if p.Leaked > 0 {
		t += " · " + Count(p.Leaked) + " pool blocks never freed"
	}
	if p.MemErrors > 0 {
		t += " · " + Count(int64(p.MemErrors)) + " memory errors"
	}
	return t
}

func (c *Overview) procClass(p proc) string {
	if p.Leaked > 0 || p.Conflicts > 0 || p.MemErrors > 0 {
		return "bad"
	}
	return ""
}

// stack is one process' device mallocs as a stacked bar.
type stack struct {
	PID, Label string
	Total      int64
	Parts      []stackPart
}

type stackPart struct {
	Class, Title, W string // W: the part's share of the bar, 0–1
}

// stacks are the device mallocs of each process by category, largest
// first; the page's script sizes each part from its data-w.
func (c *Overview) stacks() []stack {
	var out []stack
	at := map[string]int{}
	for _, m := range c.rep().DeviceMalloc {
		i, ok := at[m.PID]
		if !ok {
			i = len(out)
			at[m.PID] = i
			out = append(out, stack{PID: m.PID})
		}
		out[i].Total += m.Bytes
	}
	for i := range out {
		st := &out[i]
		var ms []model.MallocTotal
		for _, m := range c.rep().DeviceMalloc {
			if m.PID == st.PID {
				ms = append(ms, m)
			}
		}
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].Bytes > ms[j].Bytes })
		var label []string
		for k, m := range ms {
			t := m.Category + " " + Size(m.Bytes)
			w := 0.0
			if st.Total > 0 {
				w = float64(m.Bytes) / float64(st.Total)
			}
			cls := "sw c" + strconv.Itoa(k%MapColorsCSS)
			st.Parts = append(st.Parts, stackPart{Class: cls, Title: t, W: strconv.FormatFloat(w, 'f', 4, 64)})
			label = append(label, t)
		}
		st.Label = "pid " + st.PID + ", " + Size(st.Total) + ": " + strings.Join(label, " · ")
	}
	return out
}

// MapColorsCSS is how many palette colours style.css defines (--c0…).
const MapColorsCSS = 12

var (
	devmmHeads = []head{{"pid", "pid", "", ""}, {"memtype", "memtype", "", ""}, {"module", "module", "", ""},
		{"peak", "peak", "", "num"}, {"current", "current", "", "num"}, {"allocs", "allocs", "", "num"}, {"frees", "frees", "", "num"}}
	diagHeads = []head{{"reason", "reason", "", ""}, {"file", "file", "", ""}, {"line", "line", "", "num"},
		{"detail", "detail", "", ""}, {"text", "text", "", ""}}
)

// devmm is the driver statistics in the order the user chose.
func (c *Overview) devmm() []model.Devmm {
	rows := append([]model.Devmm(nil), c.rep().Devmm...)
	c.DevmmSort.sort(rows, func(i int, col string) cell {
		d := &rows[i]
		switch col {
		case "memtype":
			return cell{T: d.MemType}
		case "module":
			return cell{T: d.Module}
		case "peak":
			return cell{N: d.Peak}
		case "current":
			return cell{N: d.Current}
		case "allocs":
			return cell{N: d.AllocCnt}
		case "frees":
			return cell{N: d.FreeCnt}
		}
		return cell{T: d.PID}
	})
	return rows
}

// filtered is the listed diagnostics of the chosen reason, sorted; a file's
// lines sort by file, then line.
func (c *Overview) filtered() []model.Diagnostic {
	ds := c.rep().Diagnostics
	if c.Reason == "" && c.DiagSort.Col == "" {
		return ds
	}
	ds = slices.Clone(ds)
	if c.Reason != "" {
		ds = slices.DeleteFunc(ds, func(d model.Diagnostic) bool { return d.Reason != c.Reason })
	}
	c.DiagSort.sort(ds, func(i int, col string) cell {
		d := &ds[i]
		switch col {
		case "file":
			return cell{T: d.Path}
		case "line":
			return cell{N: d.Line, T: d.Path}
		case "detail":
			return cell{T: d.Detail}
		case "text":
			return cell{T: d.Text}
		}
		return cell{T: d.Reason}
	})
	return ds
}

func (c *Overview) pages() int { return max(1, (len(c.filtered())+diagPage-1)/diagPage) }

// page is the page shown: a new run may have fewer pages than the last.
func (c *Overview) page() int { return min(c.Page, c.pages()-1) }

func (c *Overview) diags() []model.Diagnostic {
	ds, p := c.filtered(), c.page()
	return ds[min(p*diagPage, len(ds)):min((p+1)*diagPage, len(ds))]
}

func (c *Overview) goPage(p int) { c.Page = p }
