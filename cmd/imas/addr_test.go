package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The addr and var commands print the CSV rows of the report directory.
func TestAddrAndVarCommands(t *testing.T) {
	for _, c := range []struct {
		args      []string
		code      int
		out, errs string
	}{
		{[]string{"addr", "../../testdata/samples/conflicts"}, exitOK,
			"Process_4242,1,check,checked,40,invalid,2,offset mismatch,2,reconciled,40,graph,conflict_graph_1",
			"graph_1: output[0] of relu_67 at 0x12c0602ab200 is outside its region"},
		{[]string{"var", "../../testdata/samples/mixed"}, exitOK,
			"Process_20000,session_0,summary,count,17,size_sum,15947776(15.21M),area_end,15947776(15.21M),reuse_count,0", ""},
		{[]string{"var", "../../testdata/samples/pool"}, exitOK, "", "no [IMAS]AssignVarMem lines"},
		{[]string{"addr"}, exitUsage, "", "no PATH given"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var out, errs bytes.Buffer
			if code := run(context.Background(), c.args, &out, &errs); code != c.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, c.code, errs.String())
			}
			if !strings.Contains(out.String(), c.out) {
				t.Errorf("stdout lacks %q:\n%s", c.out, out.String())
			}
			if !strings.Contains(errs.String(), c.errs) {
				t.Errorf("stderr lacks %q:\n%s", c.errs, errs.String())
			}
		})
	}
}
