package ui

import (
	"strconv"
	"strings"
)

// The view is kept in the page address' fragment, so that a reload, or a
// link sent to a colleague, shows the same graph, tab and tensor once the
// same logs (or their saved report.json) are opened:
//
//	#graph=<pid>/<graph>/<memtype>&tab=<conflicts|waste|peak|logged>&tensor=<node:kind:index>&sec=<runtime|pools|inputs|diff>

// hashKeys are the fragment's fields, in the order they are written.
var hashKeys = []string{"graph", "tab", "tensor", "sec"}

// hashOf writes the fields of v that are set.
func hashOf(v map[string]string) string {
	var b strings.Builder
	for _, k := range hashKeys {
		if v[k] == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(escapeHash(v[k]))
	}
	return b.String()
}

// parseHash reads a fragment written by hashOf ("#" or not); fields it
// cannot read are left out.
func parseHash(h string) map[string]string {
	v := map[string]string{}
	for _, kv := range strings.Split(strings.TrimPrefix(h, "#"), "&") {
		k, val, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if s, ok := unescapeHash(val); ok {
			v[k] = s
		}
	}
	return v
}

// escapeHash percent-escapes every byte but letters, digits and ._~/:-
// (names are untrusted and may hold anything).
func escapeHash(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("._~/:-", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte("0123456789ABCDEF"[c>>4])
		b.WriteByte("0123456789ABCDEF"[c&15])
	}
	return b.String()
}

func unescapeHash(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", false
		}
		b.WriteByte(byte(n))
		i += 2
	}
	return b.String(), true
}

// Hash is the fragment of the view shown now.
func (s *State) Hash() string {
	v := map[string]string{}
	if s.Run != nil && s.Graph >= 0 && s.Graph < len(s.Run.Report.Graphs) {
		v["graph"] = GraphID(s.Run.Report.Graphs[s.Graph])
		v["tab"] = s.GraphTab
		if s.Detail != nil {
			v["tensor"] = s.Detail.Key
		}
	}
	if s.Run != nil && s.Tab != "runtime" {
		v["sec"] = s.Tab
	}
	return hashOf(v)
}

// syncHash writes the view into the address when it changed. The page
// calls it after each render.
func (s *State) syncHash() {
	if s.want != nil || s.Run == nil { // a view to restore is still waiting for its logs
		return
	}
	if h := s.Hash(); h != s.hash {
		s.hash = h
		s.Eng.SetHash(h)
	}
}

// restore applies the view the address named when the page opened, once,
// to a run just loaded: the graph (when the run has it), its tab, the
// section tab and the tensor. It reports whether it selected a graph.
func (s *State) restore() bool {
	want := s.want
	s.want = nil
	if want == nil {
		return false
	}
	switch want["tab"] {
	case "conflicts", "waste", "peak", "logged":
		s.GraphTab = want["tab"]
	}
	switch want["sec"] {
	case "runtime", "pools", "inputs", "diff":
		s.Tab = want["sec"]
	}
	for i, g := range s.Run.Report.Graphs {
		if GraphID(g) != want["graph"] {
			continue
		}
		s.SelectGraph(i)
		s.wantKey = want["tensor"] // chosen once the graph is shown
		return true
	}
	return false
}
