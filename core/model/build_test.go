package model

import "testing"

func TestGrowDoublesAndKeeps(t *testing.T) {
	var s []int
	for i := range 100_000 {
		c := cap(s)
		s = append(grow(s), i)
		if c > 0 && len(s) == c+1 && cap(s) != 2*c {
			t.Fatalf("a full slice of cap %d grew to cap %d, want %d", c, cap(s), 2*c)
		}
	}
	for i, v := range s {
		if v != i {
			t.Fatalf("s[%d] = %d after growing", i, v)
		}
	}
}
