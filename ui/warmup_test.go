package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/vugu/vugu"

	"imas/wasm/engine"
)

// The page's warm-up builds the real results page, first graph and table
// page included, from the engine's sample.
func TestWarmUpBuildsResultsPage(t *testing.T) {
	sm, err := engine.WarmUp(context.Background(), 64<<10, PageSize)
	if err != nil {
		t.Fatal(err)
	}
	pauses := 0
	if err := WarmUp(sm, 2, func() { pauses++ }); err != nil {
		t.Fatal(err)
	}
	if pauses != 2 {
		t.Errorf("%d pauses for 2 rounds", pauses)
	}

	s, err := warmState(sm)
	if err != nil {
		t.Fatal(err)
	}
	if s.Graph != 0 || s.Info == nil || s.Page == nil || len(s.Page.Items) != PageSize || s.Phase() != "done" {
		t.Fatalf("warm state: graph %d, info %v, page %v, phase %s", s.Graph, s.Info != nil, s.Page, s.Phase())
	}
	build, err := vugu.NewBuildEnv(&warmEvents{})
	if err != nil {
		t.Fatal(err)
	}
	html := staticHTML(t, build.RunBuild(&Root{S: s}))
	for _, want := range []string{`data-graph="4242/warm_graph_0/2"`, `data-field="memory_size"`, "MatMul_0"} {
		if !strings.Contains(html, want) {
			t.Errorf("the warm-up page lacks %s", want)
		}
	}

	bad := *sm
	bad.Page = []byte(`{"rows": "many"}`)
	if err := WarmUp(&bad, 1, nil); err == nil || !strings.Contains(err.Error(), "table page") {
		t.Errorf("a broken sample: %v", err)
	}
	if err := WarmUp(nil, 1, nil); err == nil {
		t.Error("no sample, no error")
	}
}
