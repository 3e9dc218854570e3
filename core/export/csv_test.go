package export

import (
	"strings"
	"testing"
)

func TestSafeCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""}, {"abc", "abc"}, {"-1", "-1"}, {"+3.5", "+3.5"}, {"-", "'-"},
		{"=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"}, {"+A1", "'+A1"}, {"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"}, {"\tx", "'\tx"}, {"\rx", "'\rx"}, {"a=b", "a=b"},
		{"-.", "'-."}, {"+.", "'+."}, {"-.5", "-.5"}, {"+", "'+"},
	}
	for _, tc := range tests {
		if got := SafeCell(tc.in); got != tc.want {
			t.Errorf("SafeCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCSVQuoting(t *testing.T) {
	var b strings.Builder
	c := newCSV(&b)
	c.Cell(`a,b`)
	c.Cell(`say "hi"`)
	c.Cell("=1+1")
	c.Int(-5)
	c.End()
	c.Flush()
	if got, want := b.String(), "\"a,b\",\"say \"\"hi\"\"\",'=1+1,-5\r\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHuman(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{{0, "0"}, {512, "512"}, {1024, "1024"}, {6144, "6.00K"}, {268470272, "256.03M"}, {1 << 31, "2.00G"}, {-6144, "-6.00K"}}
	for _, tc := range tests {
		if got := Human(tc.n); got != tc.want {
			t.Errorf("Human(%d) = %s, want %s", tc.n, got, tc.want)
		}
	}
	if got := Bytes(134218752); got != "134218752(128.00M)" {
		t.Errorf("Bytes = %s", got)
	}
}
