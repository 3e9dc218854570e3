package gelog

import (
	"strings"
	"testing"
)

// TestScanExpectedTemplates checks that the word-compare scan reads every
// field of the Set-row templates GE prints, so that the byte-by-byte loop
// is left only the odd line (checkSetScan, run by FuzzSet, checks that
// both read any text alike).
func TestScanExpectedTemplates(t *testing.T) {
	for _, tc := range []struct {
		msg    string
		fields int
	}{
		{" optype[LayerNorm] output[0] offset to [44359168] streamid[0] memtype[2] size[2097664] realsize[606944] noalignsize[606890] life time begin[874] life time end[875] child[0:1:0:0:1] isref[0] batch[], block_type[]", 14},
		{" optype[Conv2D] workspace[1] offset to [1024] streamid[0] memtype[2] size[2048] realsize[1568] noalignsize[1536] life time begin[1-4] life time end[9] child[0:1:0:0:1] isref[0] batch[] scope[-1]", 13},
		{" output[0] offset to [0] streamid[5--2] size[512] realsize[96] noalignsize[64] life time begin[3] life time end[4294967295] child[0:1:1:0] isref[0].", 10},
		{" output[0] offset to [1024] streamid[0] size[2048] realsize[1568].", 5},
	} {
		var x setFields
		i, n := x.scanExpected([]byte(tc.msg))
		if n != tc.fields {
			t.Errorf("%d of %d fields read, stopped at %q", n, tc.fields, tc.msg[i:])
		}
		var slow setFields
		slow.scanFrom([]byte(tc.msg), 0, 0)
		x.scanFrom([]byte(tc.msg), i, n)
		if x.has != slow.has || x.closed != slow.closed || x.kind != slow.kind {
			t.Errorf("%q: fast %+v, slow %+v", tc.msg, x, slow)
		}
	}
	checkSetScan(t, []byte("g name[n]"+strings.Repeat(" size[1]", 40)))
}
