package driver

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"imas/core"
	"imas/core/gelog"
	"imas/core/input"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64 // -1: an error
	}{
		{"4096", 4096},
		{"0", 0},
		{"512b", 512},
		{"4K", 4 << 10},
		{"4k", 4 << 10},
		{"4KiB", 4 << 10},
		{"4KB", 4000},
		{"1.5M", 3 << 19},
		{"256MiB", 256 << 20},
		{"256 mib", 256 << 20},
		{"100MB", 100_000_000},
		{"100mb", 100_000_000},
		{"1g", 1 << 30},
		{"2 GiB", 2 << 30},
		{"2GB", 2_000_000_000},
		{"1T", 1 << 40},
		{"1TB", 1_000_000_000_000},
		{" 3kib ", 3072},
		{"", -1},
		{"MiB", -1},
		{"-5", -1},
		{"+5", -1},
		{"1_000", -1},
		{"1e3", -1},
		{"0x10", -1},
		{"NaN", -1},
		{"Inf", -1},
		{"1Q", -1},
		{"9999999999T", -1},
	} {
		got, err := ParseSize(tc.in)
		if tc.want < 0 {
			if err == nil {
				t.Errorf("ParseSize(%q) = %d, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{
		256 << 20:   "256 MiB (268435456 bytes)",
		100_000_000: "100 MB (100000000 bytes)",
		1 << 30:     "1 GiB (1073741824 bytes)",
		1000:        "1000 bytes",
	} {
		if got := SizeText(n); got != want {
			t.Errorf("SizeText(%d) = %q, want %q", n, got, want)
		}
		// What SizeText prints, ParseSize reads back.
		if back, err := ParseSize(strings.TrimSuffix(strings.Split(SizeText(n), " (")[0], " bytes")); err != nil || back != n {
			t.Errorf("ParseSize(SizeText(%d)) = %d, %v", n, back, err)
		}
	}
}

func TestIsSavedReport(t *testing.T) {
	for head, want := range map[string]bool{
		`{"schema":"imas.report/v1"`:     true,
		"\xef\xbb\xbf  \n{":              true,
		`{"hello":1}`:                    true, // read as a report, and refused as one
		"[INFO] GE(1,python):2026-01-01": false,
		"\x1f\x8b\x08":                   false,
		"":                               false,
	} {
		if got := IsSavedReport([]byte(head)); got != want {
			t.Errorf("IsSavedReport(%q) = %v", head, got)
		}
	}
}

func TestLoadSavedReportByContent(t *testing.T) {
	ctx := context.Background()
	_, _, err := Load(ctx, []input.Source{input.BytesSource("x.log", []byte(`{"hello":1}`))}, Report, core.Options{})
	if err == nil || !strings.Contains(err.Error(), "not an imas report.json") {
		t.Errorf("foreign JSON: %v", err)
	}
	rep, origin, err := Load(ctx, []input.Source{input.BytesSource("saved.txt", []byte(`{"schema":"imas.report/v1","graphs":[]}`))}, Report, core.Options{})
	if err != nil || origin != FromSavedReport || rep == nil {
		t.Errorf("a report named saved.txt: %v, origin %v", err, origin)
	}
	// Two inputs are logs, whatever they hold.
	two := []input.Source{input.BytesSource("a.json", []byte(`{"schema":"imas.report/v1"}`)), input.BytesSource("b.json", []byte("{}"))}
	if _, origin, _ := Load(ctx, two, Report, core.Options{}); origin != FromLogs {
		t.Error("two inputs were read as a saved report")
	}
}

func TestExplain(t *testing.T) {
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	junk := bytes.Repeat([]byte("no marker on this line\n"), 2000)
	for _, tc := range []struct {
		name  string
		data  []byte
		want  Problem
		words []string
	}{
		{"no markers", []byte("a\nb\n"), NoMarkers, []string{"no GE memory records in 2 lines of 1 input", "ASCEND_GLOBAL_LOG_LEVEL=1"}},
		{"empty", nil, Empty, []string{"empty"}},
		{"candidates unusable", []byte("[IMAS]Set g1 name[\n"), NoneUsable, []string{"1 of 1 lines looked like GE memory records", "docs/diagnostics.md"}},
		{"truncated gzip", gz(junk)[:100], Unreadable, []string{"could not be read", "truncated-input"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Load(context.Background(), []input.Source{input.BytesSource("in.log", tc.data)}, Total, core.Options{})
			var u *Unusable
			if !errors.As(err, &u) {
				t.Fatalf("error %v, want an Unusable", err)
			}
			if u.Problem != tc.want {
				t.Errorf("problem %d, want %d: %s", u.Problem, tc.want, u.Text())
			}
			for _, w := range tc.words {
				if !strings.Contains(u.Text(), w) {
					t.Errorf("%q lacks %q", u.Text(), w)
				}
			}
			if tc.want == NoMarkers {
				for _, m := range gelog.Markers {
					if !strings.Contains(u.Text(), strconv.Quote(m)) {
						t.Errorf("the explanation does not name marker %q", m)
					}
				}
			}
		})
	}
}
