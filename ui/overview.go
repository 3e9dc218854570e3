package ui

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"imas/core/model"
)

// Overview shows what was read and the process-level memory: device
// mallocs, driver statistics, sanity notes and the diagnostics.
type Overview struct {
	S      *State
	Open   bool   // diagnostics list shown
	Reason string // diagnostics filter
	Page   int
}

const diagPage = 50

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
	if c.S.Run.Diags > 0 {
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

func (c *Overview) reasons() []string {
	var out []string
	for k := range c.rep().DiagSummary {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (c *Overview) diagSummary() string {
	var parts []string
	for _, k := range c.reasons() {
		parts = append(parts, k+" "+Count(c.rep().DiagSummary[k]))
	}
	return strings.Join(parts, " · ")
}

func (c *Overview) filtered() []model.Diagnostic {
	ds := c.rep().Diagnostics
	if c.Reason == "" {
		return ds
	}
	return slices.DeleteFunc(slices.Clone(ds), func(d model.Diagnostic) bool { return d.Reason != c.Reason })
}

func (c *Overview) pages() int { return max(1, (len(c.filtered())+diagPage-1)/diagPage) }

// page is the page shown: a new run may have fewer pages than the last.
func (c *Overview) page() int { return min(c.Page, c.pages()-1) }

func (c *Overview) diags() []model.Diagnostic {
	ds, p := c.filtered(), c.page()
	return ds[min(p*diagPage, len(ds)):min((p+1)*diagPage, len(ds))]
}

func (c *Overview) goPage(p int) { c.Page = p }
