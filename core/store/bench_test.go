package store

import (
	"testing"

	"imas/core/gelog"
	"imas/core/plog"
)

// benchSetLine is a 2025 "[IMAS]Set" row, the bulk of every log.
const benchSetLine = "[INFO] GE(777001,python3):2026-02-20-10:00:17.396.789 [block_mem_assigner.cc:2914]777061 SetOffsetSize:[IMAS]Set kernel_graph6_7 name[layernorm_874] optype[LayerNorm] output[0] offset to [44359168] streamid[0] memtype[2] size[2097664] realsize[606944] noalignsize[606890] life time begin[874] life time end[875] child[0:1:0:0:1] isref[0] batch[], block_type[]"

// BenchmarkParseSetRow is one Set row: envelope, statement, tape append.
func BenchmarkParseSetRow(b *testing.B) {
	line := []byte(benchSetLine)
	var env plog.Envelope
	var set gelog.SetRow
	tape := NewRowTape(TapeSize{Rows: 1 << 10, Text: 1 << 16})
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ok := plog.Parse(line, &env)
		if gelog.ParseInto(&env, ok, line, gelog.Meta{}, &set) != gelog.Record(&set) {
			b.Fatal("not a set row")
		}
		if tape.Len() == 1<<10 {
			tape.rows, tape.text = tape.rows[:0], tape.text[:0]
		}
		tape.Append(&set)
	}
}

// BenchmarkTapeAppend writes a parsed Set row to the tape: a row without a
// rare entry, and one with a stream description (a fifth of the rows of
// the generated logs have one).
func BenchmarkTapeAppend(b *testing.B) {
	line := []byte(benchSetLine)
	var env plog.Envelope
	var plain gelog.SetRow
	gelog.ParseInto(&env, plog.Parse(line, &env), line, gelog.Meta{}, &plain)
	withDesc := plain
	withDesc.StreamDesc = "1(2)"
	for _, bc := range []struct {
		name string
		row  *gelog.SetRow
	}{{"plain", &plain}, {"rare", &withDesc}} {
		b.Run(bc.name, func(b *testing.B) {
			tape := NewRowTape(TapeSize{Rows: 1 << 10, Text: 1 << 16})
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if tape.Len() == 1<<10 {
					tape.rows, tape.text, tape.rare = tape.rows[:0], tape.text[:0], tape.rare[:0]
				}
				tape.Append(bc.row)
			}
		})
	}
}

// BenchmarkTapeRead decodes a Set row from the tape.
func BenchmarkTapeRead(b *testing.B) {
	line := []byte(benchSetLine)
	var env plog.Envelope
	var set gelog.SetRow
	gelog.ParseInto(&env, plog.Parse(line, &env), line, gelog.Meta{}, &set)
	var tape RowTape
	tape.Append(&set)
	rd := NewTapeReader()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := rd.Read(&tape, 0, &set, gelog.Meta{}); err != nil {
			b.Fatal(err)
		}
	}
}
