package model

import "testing"

func TestAlign512(t *testing.T) {
	for _, tt := range []struct{ n, want int64 }{{-5, 0}, {0, 0}, {1, 512}, {511, 512}, {512, 512}, {513, 1024}, {1 << 40, 1 << 40}} {
		if got := Align512(tt.n); got != tt.want {
			t.Errorf("Align512(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

func TestFormatLife(t *testing.T) {
	for _, tt := range []struct {
		b, e int64
		want string
	}{{2, 9, "2→9"}, {2, LifeDefault - 1, "2→4294967293"}, {2, LifeDefault, "2→∞"}, {0, LifeMax, "0→∞"}} {
		if got := FormatLife(tt.b, tt.e); got != tt.want {
			t.Errorf("FormatLife(%d, %d) = %q, want %q", tt.b, tt.e, got, tt.want)
		}
	}
}
