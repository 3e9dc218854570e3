package pagetest

import (
	"os"
	"strings"
	"testing"
)

// maxBundle is the bound on the one-file page: under 3 MB.
const maxBundle = 3_000_000

// TestBundleSize keeps imas.html under 3 MB (it was 2.99 MB when a second
// inflater in the wasm took it over; see core/input/inflate.go).
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
