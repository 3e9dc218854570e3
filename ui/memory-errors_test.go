package ui

import (
	"testing"

	"imas/core/model"
)

func TestMemoryErrorsCells(t *testing.T) {
	exp, act := int64(4<<20), int64(0)
	s := NewState(&fakeEngine{})
	s.Run = &Loaded{}
	s.Run.Report = &model.Report{MemoryErrors: []*model.MemoryError{
		{PID: "7", Process: "python3", Device: 1, Size: 2 << 20, Purpose: "page caching", Func: "halMemCreate", Module: "DRV",
			Caller: "aclrtMallocPhysical", Code: "207001", Reason: "driver error:out of memory", Path: "a.log", Line: 3,
			Before: &model.MemoryPicture{Devmm: []model.PictureDevmm{{}}, DevmmCurrent: 1 << 30, DevmmPeak: 2 << 30, MallocCount: 1, MallocBytes: 1 << 20}},
		{PID: "8", Device: -1, Size: -1, Func: "InitRuntimeParams", Module: "GE", Expect: &exp, Actual: &act, Path: "b.log", Line: 9},
	}}
	c := &MemoryErrors{S: s}
	if n := len(c.errs()); n != 2 {
		t.Fatalf("%d errors", n)
	}
	a, b := c.errs()[0], c.errs()[1]
	for _, tc := range []struct{ got, want string }{
		{c.process(a), "7 (python3)"},
		{c.process(b), "8"},
		{c.device(a), "1"},
		{c.device(b), "?"},
		{c.asked(a), "2.00 MiB for page caching"},
		{c.asked(b), "not logged"},
		{c.by(a), "halMemCreate [DRV] ← aclrtMallocPhysical"},
		{c.failed(a), "207001: driver error:out of memory"},
		{c.failed(b), "expected " + Size(4<<20) + ", found 0 B"},
		{c.before(a), "devmm " + Size(1<<30) + " in use (peak " + Size(2<<30) + "); GE mallocs " + Size(1<<20)},
		{c.before(b), "not logged"},
		{c.where(b), "b.log:9"},
		{c.when(b), "not logged"},
		{c.text(b), "not logged · pid 8 · device ? · asked not logged by InitRuntimeParams [GE] · failed: expected " + Size(4<<20) + ", found 0 B · before: not logged · b.log:9"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
