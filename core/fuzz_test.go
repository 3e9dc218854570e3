package core_test

import (
	"bytes"
	"context"
	"testing"

	"imas/core"
	"imas/core/input"
)

// FuzzAnalyze runs the whole pipeline on arbitrary logs: no panic, and the
// input accounting always adds up.
func FuzzAnalyze(f *testing.F) {
	f.Add([]byte(setLine(1, "g_1", "a", 0, 512, 480, 1, 2) + "\n" + afterLine(2, "g_1", 512)))
	f.Add([]byte("\x00\xff[IMAS]\r\n[INFO] GE(1,p):2026-01-01-00:00:00.000.000 [a.cc:1]1 F:[IMAS]Set g name[x"))
	f.Add(gzipped([]byte(setLine(1, "g", "b", 0, 512, 100, 1, 4294967295))))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := core.Analyze(context.Background(), []input.Source{input.BytesSource("f", data)}, core.Options{})
		if err != nil {
			t.Fatal(err)
		}
		in := rep.Inputs
		if in.Candidates != in.Records+in.Rejected {
			t.Fatalf("accounting: %+v", in)
		}
		checkReasonsKnown(t, rep)
		_ = bytes.MinRead
	})
}
