package model

import (
	"fmt"
	"slices"
	"testing"

	"imas/core/gelog"
)

// TestSetRunsOfInterleavedProcesses feeds the Set rows of several
// processes interleaved row by row, as the merge by time gives them when
// their files overlap, and a process that compiles the same graph name
// twice (a summary between its two runs of rows): every row must land in
// its own process's compilation, whatever the other processes did
// between two of its rows.
func TestSetRunsOfInterleavedProcesses(t *testing.T) {
	for _, procs := range []int{2, 3, maxSetRuns + 5} {
		t.Run(fmt.Sprint(procs), func(t *testing.T) {
			b := NewBuilder([]string{"plog"})
			line := int64(0)
			set := func(pid int64, node string) {
				line++
				b.Add(&gelog.SetRow{Meta: gelog.Meta{PID: pid, Line: line}, Graph: "g", MemType: 2,
					Node: node, Kind: "output", Size: 512, RealSize: 512})
			}
			summary := func(pid int64) {
				line++
				b.Add(&gelog.AfterAssign{Meta: gelog.Meta{PID: pid, Line: line}, Graph: "g", MemType: 2})
			}
			for round := range 2 {
				for i := range 3 {
					for p := range procs {
						set(int64(100+p), fmt.Sprintf("r%d_%d", round, i))
					}
				}
				// Process 100 finishes its compilation first; the others
				// go on with rows of the first one meanwhile.
				summary(100)
				if round == 0 {
					set(100, "r1_x")
					for p := 1; p < procs; p++ {
						set(int64(100+p), "r0_late")
					}
				}
				for p := 1; p < procs; p++ {
					summary(int64(100 + p))
				}
			}
			got := map[string][]string{}
			for g := range b.Finish().AllGraphs() {
				var nodes []string
				for _, r := range g.Rows {
					nodes = append(nodes, r.Node)
				}
				got[g.PID+"/"+g.Graph] = nodes
			}
			for p := range procs {
				pid := fmt.Sprint(100 + p)
				first := []string{"r0_0", "r0_1", "r0_2"}
				second := []string{"r1_0", "r1_1", "r1_2"}
				if p == 0 {
					second = append([]string{"r1_x"}, second...)
				} else {
					first = append(first, "r0_late")
				}
				if g := got[pid+"/g"]; !slices.Equal(g, first) {
					t.Errorf("process %s, first compilation: rows %v, want %v", pid, g, first)
				}
				if g := got[pid+"/g#2"]; !slices.Equal(g, second) {
					t.Errorf("process %s, second compilation: rows %v, want %v", pid, g, second)
				}
			}
		})
	}
}

// BenchmarkInterleavedSetRows builds the Set rows of sixteen processes
// that compile at the same time, merged by time: each row comes from
// another process than the row before.
func BenchmarkInterleavedSetRows(b *testing.B) {
	const procs, rowsPerProc = 16, 20_000
	row := gelog.SetRow{Graph: "g", MemType: 2, Node: "n", Kind: "output", Size: 512, RealSize: 512}
	b.ReportAllocs()
	for range b.N {
		bu := NewBuilder([]string{"plog"})
		hints := map[HintKey]Hint{}
		for p := range procs {
			hints[HintKey{PID: int64(100 + p), Graph: "g", MemType: 2}] = Hint{Rows: rowsPerProc}
		}
		bu.SizeHints(hints) // as the parsers count them
		for i := range rowsPerProc {
			for p := range procs {
				row.PID, row.Line, row.Index = int64(100+p), int64(i*procs+p+1), int64(i)
				bu.Add(&row)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*procs*rowsPerProc), "ns/row")
}
