package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"

	"imas/wasm/engine"
)

func TestTextNodesHandMade(t *testing.T) {
	ptr := func(s string) *string { return &s }
	tests := []struct {
		name      string
		inner     string
		wantText  string // the text child's content
		keepInner bool   // markup stays inner HTML
	}{
		{"escaped text", "a &lt; b &amp; &#34;c&#34;", `a < b & "c"`, false},
		{"plain number", "1 048 576", "1 048 576", false},
		{"empty", "", "", false},
		{"markup", "<b>bold</b>", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			el := &vugu.VGNode{Type: vugu.ElementNode, Data: "td", InnerHTML: ptr(tc.inner)}
			root := &vugu.VGNode{Type: vugu.ElementNode, Data: "tr", FirstChild: el, LastChild: el}
			el.Parent = root
			br := &vugu.BuildResults{Out: &vugu.BuildOut{Out: []*vugu.VGNode{root}}}
			for range 2 { // the second pass must change nothing
				TextNodes(br)
				if tc.keepInner {
					if el.InnerHTML == nil || *el.InnerHTML != tc.inner || el.FirstChild != nil {
						t.Fatalf("markup was touched: inner %v, child %v", el.InnerHTML, el.FirstChild)
					}
					continue
				}
				c := el.FirstChild
				if el.InnerHTML != nil || c == nil || c != el.LastChild || c.Type != vugu.TextNode || c.Parent != el {
					t.Fatalf("not one text child: inner %v, first %v, last %v", el.InnerHTML, c, el.LastChild)
				}
				if c.Data != tc.wantText {
					t.Errorf("text %q, want %q", c.Data, tc.wantText)
				}
			}
		})
	}
	TextNodes(nil) // no build output: nothing to do, no panic
	TextNodes(&vugu.BuildResults{})
}

// staticHTML renders the build output the way a browser would see it.
func staticHTML(t *testing.T, br *vugu.BuildResults) string {
	t.Helper()
	var b bytes.Buffer
	if err := staticrender.New(&b).Render(br); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// innerTextCount counts elements whose inner HTML is plain text, through
// components.
func innerTextCount(br *vugu.BuildResults, n *vugu.VGNode) int {
	if n.Component != nil {
		k := 0
		if bo := br.ResultFor(n.Component); bo != nil {
			for _, c := range bo.Out {
				k += innerTextCount(br, c)
			}
		}
		return k
	}
	k := 0
	if n.InnerHTML != nil && !strings.Contains(*n.InnerHTML, "<") {
		k++
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		k += innerTextCount(br, c)
	}
	return k
}

// On the real results page the conversion leaves the document as it was:
// the same HTML, with no text left to be parsed as HTML.
func TestTextNodesKeepsResultsPage(t *testing.T) {
	env := &countingEnv{}
	s := NewState(&fakeEngine{graphs: 3})
	s.env = env
	env.Lock()
	s.Load(engine.SlotRun, fakeFiles(1))
	env.Unlock()
	settle(t, s, env)
	s.Run.Report.Graphs[1].Graph = `g<&>"1` // text the HTML parser would read otherwise

	build, err := vugu.NewBuildEnv(env)
	if err != nil {
		t.Fatal(err)
	}
	root := &Root{S: s}
	count := func(br *vugu.BuildResults) (k int) {
		for _, n := range br.Out.Out {
			k += innerTextCount(br, n)
		}
		return k
	}

	br := build.RunBuild(root)
	before := staticHTML(t, br)
	if k := count(br); k < 10 {
		t.Fatalf("only %d text cells set as inner HTML before the conversion; the test page is too small to say anything", k)
	}
	TextNodes(br)
	if k := count(br); k != 0 {
		t.Errorf("%d cells still set as inner HTML", k)
	}
	if !strings.Contains(before, `g&lt;&amp;&gt;&#34;1`) {
		t.Fatalf("the escaped graph name is not on the page: %.2000s", before)
	}
	if after := staticHTML(t, br); after != before {
		t.Errorf("the page changed:\nbefore %.400s\nafter  %.400s", before, after)
	}

	// A second build reuses unchanged components' output, already converted.
	br = build.RunBuild(root)
	TextNodes(br)
	if after := staticHTML(t, br); after != before {
		t.Errorf("the rebuilt page changed:\nbefore %.400s\nafter  %.400s", before, after)
	}
}
