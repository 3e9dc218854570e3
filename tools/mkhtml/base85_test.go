package main

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestBase85(t *testing.T) {
	if len(Base85) != 85 {
		t.Fatalf("alphabet of %d characters", len(Base85))
	}
	for _, c := range `"&'<\` + "`" {
		if strings.ContainsRune(Base85, c) {
			t.Errorf("alphabet holds %q", c)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		for range 20 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			if n%7 == 0 {
				for i := range b {
					b[i] = 0xff
				}
			}
			s := EncodeBase85(b)
			if len(s) != n/4*5+map[bool]int{true: n%4 + 1, false: 0}[n%4 != 0] {
				t.Errorf("%d bytes give %d characters", n, len(s))
			}
			if got, ok := DecodeBase85(s); !ok || !bytes.Equal(got, b) {
				t.Fatalf("%x: encoded %q, decoded %x", b, s, got)
			}
		}
	}
}
