package diag

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoLooseReasons: outside this package, no Go source of the module
// spells a reason of the table as a string literal; code names it by its
// constant, so a renamed or removed reason cannot leave a stale copy behind.
// Tests may spell reasons: they check what the code emits.
func TestNoLooseReasons(t *testing.T) {
	names := map[string]bool{}
	for _, r := range All() {
		names[r.Name] = true
		if r.Class == Ignored {
			names[IgnoredCounter(r.Name)] = true
		}
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "testdata", ".git", "bench", "dist", "bin":
				return filepath.SkipDir
			}
			if path == filepath.Join(root, "core", "diag") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
				t.Errorf("%s: reason %q spelled as a literal: use its constant in imas/core/diag", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d Go files under %s: not the module's root", files, root)
	}
}
