package diag

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/diagnostics.md")

func TestDocsFromTable(t *testing.T) {
	const path = "../../docs/diagnostics.md"
	want := Markdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is not the table's rendering: run go test ./core/diag -update", path)
	}
}

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ok    bool
		class Class
	}{
		{Truncated, true, Line},
		{"ignored:" + IgnoreKernelTrace, true, Ignored},
		{IgnoreKernelTrace, true, Ignored},
		{"ignored:" + Truncated, false, 0},
		{BombLimit, true, Input},
		{"no-such-reason", false, 0},
	} {
		r, ok := Lookup(tc.name)
		if ok != tc.ok || (ok && r.Class != tc.class) {
			t.Errorf("Lookup(%q) = %v, %v; want class %v, %v", tc.name, r.Class, ok, tc.class, tc.ok)
		}
	}
	if !IsInput(Unreadable) || IsInput(Truncated) {
		t.Error("IsInput disagrees with the table")
	}
}

// TestIgnoredCounter: an ignored rule is counted as "ignored:NAME", and
// Lookup finds it under that name.
func TestIgnoredCounter(t *testing.T) {
	for _, name := range OfClass(Ignored) {
		c := IgnoredCounter(name)
		if c != "ignored:"+name {
			t.Errorf("IgnoredCounter(%q) = %q", name, c)
		}
		if r, ok := Lookup(c); !ok || r.Name != name {
			t.Errorf("Lookup(%q) = %v, %v", c, r.Name, ok)
		}
		if !IsIgnoredCounter(c) || IsIgnoredCounter(name) {
			t.Errorf("IsIgnoredCounter tells %q and %q apart wrongly", c, name)
		}
	}
	if c := IgnoredCounter("not-a-rule"); c != "ignored:not-a-rule" {
		t.Errorf("IgnoredCounter of an unknown rule = %q", c)
	}
}
