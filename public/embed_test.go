package public

import (
	"io/fs"
	"testing"
)

func TestFS(t *testing.T) {
	if _, err := fs.ReadFile(FS(), "README.md"); err != nil {
		t.Errorf("README.md: %v", err)
	}
	for _, name := range []string{"embed.go", "embed_test.go"} {
		if _, err := fs.Stat(FS(), name); err == nil {
			t.Errorf("%s is served: Go sources are not part of the page", name)
		}
	}
	_, err := fs.Stat(FS(), "index.html")
	if Built() != (err == nil) {
		t.Errorf("Built() = %v, but index.html: %v", Built(), err)
	}
}
