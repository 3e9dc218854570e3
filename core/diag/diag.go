// Package diag is the one table of reasons imas gives for a line or an input
// it did not use, a line it deliberately ignored, or a finding about the
// data. Like trace_processor's stats table, every reason has a name,
// a severity, what it means and what to do; the parsers, the model, the
// front doors and docs/diagnostics.md all read this table, so no reason is
// a loose string anywhere else.
package diag

import (
	"fmt"
	"slices"
	"strings"
)

// Severity orders reasons by how much they change the figures.
type Severity int

const (
	// Info: nothing is lost (a line understood and deliberately unused).
	Info Severity = iota
	// Warning: a line or a part of an input was not used; figures may be low.
	Warning
	// Error: an input could not be read, or the data is inconsistent.
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	}
	return "error"
}

// Class says what a reason is about.
type Class int

const (
	// Line: a candidate line that was rejected (counted in inputs.rejected).
	Line Class = iota
	// Ignored: a candidate line understood and deliberately not used, by a
	// named rule (counted under "ignored:NAME" in diagnostic_counts).
	Ignored
	// Input: a whole input (file, archive member) or part of it not read.
	Input
	// Finding: something the analyses found in the data.
	Finding
	// NotRecord: a line that mentions memory but is not a memory record
	// (not a candidate), explained by a named rule (core.NotRecordRule).
	NotRecord
)

func (c Class) String() string {
	switch c {
	case Line:
		return "line"
	case Ignored:
		return "ignored"
	case Input:
		return "input"
	case NotRecord:
		return "not-record"
	}
	return "finding"
}

// Reason is one row of the table.
type Reason struct {
	Name     string
	Class    Class
	Severity Severity
	Meaning  string // what happened, in a sentence
	Action   string // what the user can do about it ("" when nothing is needed)
}

var (
	byName   = map[string]int{}
	counters = map[string]string{} // ignored rule → "ignored:" + rule
)

// IgnoredCounter is the name under which lines ignored by rule name are
// counted ("ignored:" + name), one shared string per rule of the table.
func IgnoredCounter(name string) string {
	if c, ok := counters[name]; ok {
		return c
	}
	return "ignored:" + name
}

// IsIgnoredCounter reports whether a name of diagnostic_counts counts lines
// ignored by a rule (IgnoredCounter) rather than diagnostics.
func IsIgnoredCounter(name string) bool { return strings.HasPrefix(name, "ignored:") }

func init() {
	for i, r := range table {
		if _, dup := byName[r.Name]; dup {
			panic("diag: reason listed twice: " + r.Name)
		}
		if r.Name == "" || r.Meaning == "" {
			panic(fmt.Sprintf("diag: row %d has no name or meaning", i))
		}
		byName[r.Name] = i
		if r.Class == Ignored {
			counters[r.Name] = "ignored:" + r.Name
		}
	}
}

// Lookup returns the reason called name. Ignored rules are also found under
// their counter name "ignored:NAME".
func Lookup(name string) (Reason, bool) {
	i, ok := byName[name]
	if !ok {
		i, ok = byName[strings.TrimPrefix(name, "ignored:")]
		if ok && table[i].Class != Ignored {
			ok = false
		}
	}
	if !ok {
		return Reason{}, false
	}
	return table[i], true
}

// Known reports whether name is in the table.
func Known(name string) bool { _, ok := Lookup(name); return ok }

// All returns the table, ordered by class then name.
func All() []Reason {
	out := slices.Clone(table)
	slices.SortStableFunc(out, func(a, b Reason) int {
		if a.Class != b.Class {
			return int(a.Class) - int(b.Class)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// OfClass returns the names of the reasons of class c, sorted.
func OfClass(c Class) []string {
	var out []string
	for _, r := range table {
		if r.Class == c {
			out = append(out, r.Name)
		}
	}
	slices.Sort(out)
	return out
}

// IsInput reports whether name is a whole-input problem: users must see it
// even when a command writes no report.json.
func IsInput(name string) bool {
	r, ok := Lookup(name)
	return ok && r.Class == Input
}

// Markdown renders the table for docs/diagnostics.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("# Diagnostics\n\n")
	b.WriteString("Every line that carries a GE memory marker is parsed into a record, ignored by a named rule, or\n")
	b.WriteString("reported with one of the reasons below (file, line, reason, detail). Whole inputs that could not be\n")
	b.WriteString("read and findings of the analyses use the same table. This page is generated from `core/diag`\n")
	b.WriteString("(`go test ./core/diag -update`). Lines that mention memory but carry no marker are not memory\n")
	b.WriteString("records; the last table lists the named rules that explain them ([log-formats.md](log-formats.md#not-records)).\n")
	for _, c := range []Class{Line, Ignored, Input, Finding, NotRecord} {
		title := map[Class]string{
			Line:      "Rejected lines (counted in `inputs.rejected`)",
			Ignored:   "Ignore rules (counted as `ignored:NAME` in `diagnostic_counts`)",
			Input:     "Inputs",
			Finding:   "Findings",
			NotRecord: "Lines that mention memory but are not memory records",
		}[c]
		fmt.Fprintf(&b, "\n## %s\n\n| reason | severity | meaning | what to do |\n|---|---|---|---|\n", title)
		for _, r := range All() {
			if r.Class != c {
				continue
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.Name, r.Severity, cell(r.Meaning), cell(r.Action))
		}
	}
	return b.String()
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
