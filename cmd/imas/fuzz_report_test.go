package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"imas/core"
	"imas/core/analyze"
	"imas/core/export"
	"imas/core/gelog"
	"imas/core/input"
	"imas/core/reportjson"
)

// FuzzReport runs the pipeline and every writer of every command on an
// arbitrary log, given twice (as is and gzipped): no panic; the accounting
// adds up; the gzipped copy is a duplicate; each CSV parses and holds no
// live formula; each JSON output is valid, and report.json loads back for
// imas diff.
func FuzzReport(f *testing.F) {
	var inject logBuilder
	writeInjectionLog(&inject, 4321)
	f.Add(inject.b.Bytes())
	f.Add(extremeLog())
	f.Add([]byte("\x00\xff[IMAS]\r\n[INFO] GE(1,p):2026-01-01-00:00:00.000.000 [a.cc:1]1 F:[IMAS]Set g name[x"))
	logs, _ := filepath.Glob("../../testdata/samples/*/*.log")
	for _, name := range logs {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(candidateExcerpt(b, 8<<10))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		srcs := []input.Source{input.BytesSource("a.log", data), input.BytesSource("b.log.gz", gzipOf(data))}
		rep, err := core.Analyze(context.Background(), srcs, core.Options{Workers: 1, Limits: input.Limits{MaxExpanded: 64 << 20}})
		if err != nil {
			t.Fatal(err)
		}
		in := rep.Inputs
		var lines, cands, recs, rejected, listed int64
		for _, fi := range in.Files {
			lines, cands, recs, rejected = lines+fi.Lines, cands+fi.Candidates, recs+fi.Records, rejected+fi.Rejected
		}
		capped := false
		for _, d := range rep.Diagnostics {
			if d.Rejected {
				listed++
			}
			capped = capped || d.Reason == "diagnostics-truncated"
		}
		if lines != in.Lines || cands != in.Candidates || recs != in.Records || rejected != in.Rejected ||
			in.Candidates != in.Records+in.Rejected || (!capped && listed != in.Rejected) {
			t.Fatalf("inputs do not add up: %+v; %d rejected lines listed", in, listed)
		}
		if isPlainText(data) && len(in.Duplicates) != 1 {
			t.Fatalf("the gzipped copy is not a duplicate: %v", in.Duplicates)
		}

		for _, o := range export.Outputs() {
			var buf bytes.Buffer
			if err := o.Write(&buf, rep); err != nil {
				t.Fatalf("%s: %v", o.Name, err)
			}
			switch {
			case strings.HasSuffix(o.Name, ".csv"):
				parseCSV(t, o.Name, buf.Bytes())
			case !json.Valid(buf.Bytes()):
				t.Fatalf("%s is not valid JSON: %.300q", o.Name, buf.String())
			case o.Name == "report.json":
				run, err := reportjson.Load(o.Name, buf.Bytes())
				if err != nil {
					t.Fatalf("report.json does not load back: %v", err)
				}
				d := analyze.Diff(analyze.RunOf("log", rep), run)
				if err := export.WriteDiff(io.Discard, d); err != nil {
					t.Fatal(err)
				}
				var j bytes.Buffer
				if err := export.WriteDiffJSON(&j, d); err != nil || !json.Valid(j.Bytes()) {
					t.Fatalf("diff JSON (%v): %.300q", err, j.String())
				}
			}
		}
		for _, write := range []func(io.Writer) error{
			func(w io.Writer) error { return export.WriteTotal(w, rep) },
			func(w io.Writer) error { _, err := export.WriteCheck(w, rep); return err },
			func(w io.Writer) error { return export.WritePeak(w, rep, 10) },
			func(w io.Writer) error {
				return export.WriteCompare(w, analyze.Compare([]*analyze.Run{analyze.RunOf("a", rep), analyze.RunOf("b", rep)}))
			},
		} {
			if err := write(io.Discard); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// isPlainText reports whether b is not an archive imas would open (an
// archive's copy may nest one level too deep to be read the same way).
func isPlainText(b []byte) bool {
	return len(b) > 0 && !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) && !bytes.HasPrefix(b, []byte("PK\x03\x04")) &&
		!(len(b) >= 262 && string(b[257:262]) == "ustar")
}

// candidateExcerpt is the candidate lines of a log, each with the line
// before it, up to max bytes: a small seed with every statement kind.
func candidateExcerpt(b []byte, max int) []byte {
	var out bytes.Buffer
	prev := ""
	for l := range strings.Lines(string(b)) {
		if !gelog.IsCandidate([]byte(l)) {
			prev = l
			continue
		}
		if out.Len()+len(prev)+len(l) > max {
			break
		}
		out.WriteString(prev + l)
		prev = ""
	}
	return out.Bytes()
}
