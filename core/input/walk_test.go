package input

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"imas/core/diag"
)

// tree builds:
//
//	real/a.log
//	real/sub/b.log
//	real/sub/up -> ..            (a loop)
//	real/again -> sub            (a folder already read)
//	real/c.log -> ../other/c.log (a file elsewhere)
//	real/gone -> ../nothing      (a broken link)
//	other/c.log
//	logs -> real                 (a link named on the command line)
//	file.log -> real/a.log
func tree(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	for _, f := range []string{"real/a.log", "real/sub/b.log", "other/c.log"} {
		p := filepath.Join(d, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"real/sub/up": "..", "real/again": "sub", "real/c.log": "../other/c.log", "real/gone": "../nothing",
		"logs": "real", "file.log": "real/a.log",
	} {
		if err := os.Symlink(target, filepath.Join(d, link)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	return d
}

func names(root string, srcs []Source) []string {
	var out []string
	for _, s := range srcs {
		out = append(out, strings.TrimPrefix(filepath.ToSlash(s.Name), filepath.ToSlash(root)+"/"))
	}
	return out
}

func TestFromPathsFollowsLinks(t *testing.T) {
	d := tree(t)
	for _, tc := range []struct {
		arg   string
		files []string
	}{
		{"logs", []string{"logs/a.log", "logs/c.log", "logs/sub/b.log"}},
		{"real", []string{"real/a.log", "real/c.log", "real/sub/b.log"}},
		{"file.log", []string{"file.log"}},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			srcs, diags := FromPaths([]string{filepath.Join(d, tc.arg)})
			if got := names(d, srcs); !slices.Equal(got, tc.files) {
				t.Errorf("files %v, want %v", got, tc.files)
			}
			if tc.arg == "file.log" {
				if len(diags) != 0 {
					t.Errorf("diagnostics %v", diags)
				}
				return
			}
			reasons := map[string]string{}
			for _, g := range diags {
				reasons[strings.TrimPrefix(filepath.ToSlash(g.Path), filepath.ToSlash(d)+"/")] = g.Reason
			}
			want := map[string]string{
				tc.arg + "/sub/up": diag.LinkSkipped, // the loop
				tc.arg + "/again":  diag.LinkSkipped, // sub, read already
				tc.arg + "/gone":   diag.BrokenLink,
			}
			if len(reasons) != len(want) {
				t.Errorf("diagnostics %v, want %v", diags, want)
			}
			for p, r := range want {
				if reasons[p] != r {
					t.Errorf("%s: %q, want %q (all: %v)", p, reasons[p], r, diags)
				}
			}
		})
	}
}

// A folder whose only entry is a link to the folder itself ends.
func TestFromPathsSelfLoop(t *testing.T) {
	d := t.TempDir()
	if err := os.Symlink(".", filepath.Join(d, "self")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	srcs, diags := FromPaths([]string{d})
	if len(srcs) != 0 || len(diags) != 1 || diags[0].Reason != diag.LinkSkipped || !strings.Contains(diags[0].Detail, "loop") {
		t.Errorf("sources %v, diagnostics %v; want none and one link loop", srcs, diags)
	}
}
