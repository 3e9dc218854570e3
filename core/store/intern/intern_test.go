package intern

import (
	"strconv"
	"sync"
	"testing"
	"unsafe"
)

// TestInternConcurrent interns overlapping names from several goroutines:
// every name maps to one string and one number, whether it was found in the
// snapshot or under the lock.
func TestInternConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	got := make([][]string, 4)
	for w := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 3000; i++ {
				s, id := Bytes([]byte("intern_test_" + strconv.Itoa(i%700)))
				if id == 0 || ID(s) != id {
					t.Errorf("%q: id %d, internID %d", s, id, ID(s))
				}
				got[w] = append(got[w], s)
			}
		}()
	}
	wg.Wait()
	names := Names()
	for w := range got {
		for i, s := range got[w] {
			want := "intern_test_" + strconv.Itoa(i%700)
			if s != want {
				t.Fatalf("got %q, want %q", s, want)
			}
			id := ID(s)
			if id == 0 || names[id] != want {
				t.Fatalf("%q: id %d", s, id)
			}
			if s2, _ := Bytes([]byte(want)); unsafe.StringData(s2) != unsafe.StringData(s) {
				t.Fatalf("%q interned twice", want)
			}
		}
	}
}
