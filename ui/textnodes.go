package ui

import (
	"html"
	"strings"

	"github.com/vugu/vugu"
)

// TextNodes turns the content vg-content sets as inner HTML into text
// nodes, wherever that content is text: vugu's renderer assigns innerHTML
// on every render, and each assignment runs the browser's HTML parser. The
// results page has about a thousand such cells (a trace of showing the
// results of a 200 MB log: 1 053 parser runs in one render); a text node is
// set with textContent instead, or left alone when it did not change.
// Content with markup (vugu.HTML holding a '<') keeps its inner HTML;
// vg-content escapes strings, so text never holds one.
//
// It walks the build output in place, components included, and is
// idempotent: vugu reuses the output of components that did not change.
func TextNodes(br *vugu.BuildResults) {
	if br == nil || br.Out == nil {
		return
	}
	for _, n := range br.Out.Out {
		textNodes(br, n)
	}
}

func textNodes(br *vugu.BuildResults, n *vugu.VGNode) {
	if n.Component != nil {
		if bo := br.ResultFor(n.Component); bo != nil {
			for _, c := range bo.Out {
				textNodes(br, c)
			}
		}
		return
	}
	if n.Type == vugu.ElementNode && n.InnerHTML != nil && n.FirstChild == nil && !strings.Contains(*n.InnerHTML, "<") {
		// An empty text node, not none: an element without children has
		// its old children left in place by the renderer.
		t := &vugu.VGNode{Type: vugu.TextNode, Data: html.UnescapeString(*n.InnerHTML), Parent: n}
		n.InnerHTML, n.FirstChild, n.LastChild = nil, t, t
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		textNodes(br, c)
	}
}
