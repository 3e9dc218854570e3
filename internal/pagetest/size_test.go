package pagetest

import (
	"os"
	"strings"
	"testing"
)

// maxBundle is the bound on the one-file page: under 3 MB.
const maxBundle = 3 << 20

// TestBundleSize keeps imas.html under 3 MiB: a file small enough to mail
// and to open from a share (core/input/inflate.go says what it costs).
func TestBundleSize(t *testing.T) {
	u := pageURL(t, "")
	st, err := os.Stat(strings.TrimPrefix(u, "file://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("imas.html: %d bytes", st.Size())
	if st.Size() >= maxBundle {
		t.Errorf("imas.html is %d bytes, over the %d of the target", st.Size(), maxBundle)
	}
}
