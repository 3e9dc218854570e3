package analyze

import (
	"fmt"
	"testing"

	"imas/core/diag"
	"imas/core/model"
)

func poolRow(addr uint64, size, real, begin, end int64) model.PoolRow {
	return model.PoolRow{Address: fmt.Sprintf("%#x", addr), Addr: addr, Size: size, RealSize: real,
		Begin: begin, End: end, KernelFree: end != model.LifeMax}
}

func TestPoolFigures(t *testing.T) {
	const never = model.LifeMax
	p := &model.Pool{Physical: 2 << 20, Unit: 1 << 20, UnmatchedFrees: 1, Rows: []model.PoolRow{
		poolRow(0xa0000, 65536, 544, 0, 2),     // freed before allocation 2
		poolRow(0xb0000, 131072, 100000, 1, 4), // freed after the last allocation
		poolRow(0xa0000, 65536, 1000, 2, never),
		poolRow(0xc0000, 131072, 70000, 3, never),
	}}
	PoolFigures(p)
	got := fmt.Sprintf("allocs=%d frees=%d total=%d requested=%d peak=%d peakreq=%d leaked=%d addrs=%d step=%d reuse=%v reach=%v",
		p.Allocs, p.Frees, p.Total, p.Requested, p.PeakLive, p.PeakRequested, p.Leaked, p.Addresses, p.Step, p.ReuseRate, p.ReachTheoryRate)
	want := "allocs=4 frees=3 total=393216 requested=171544 peak=327680 peakreq=171000 leaked=2 addrs=3 step=1048576 reuse=0 reach=15.63"
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	var theory []int64
	for _, r := range p.Rows {
		theory = append(theory, r.Theory)
	}
	if fmt.Sprint(theory) != "[65536 196608 196608 327680]" {
		t.Errorf("theory sizes %v", theory)
	}
	if len(p.TopAddresses) != 3 || p.TopAddresses[0].Address != "0xa0000" || p.TopAddresses[0].Allocs != 2 {
		t.Errorf("top addresses %+v", p.TopAddresses)
	}
}

func TestPoolFiguresUnknownPhysical(t *testing.T) {
	p := &model.Pool{Rows: []model.PoolRow{poolRow(1, 10, 5, 0, 1)}}
	PoolFigures(p)
	if p.ReuseRate != 0 || p.ReachTheoryRate != 0 || p.Step != 0 || p.PeakLive != 10 {
		t.Errorf("rates must stay 0 without a physical size: %+v", p)
	}
}

func TestVarFigures(t *testing.T) {
	s := &model.VarSession{Rows: []model.VarRow{
		{Kind: "hbm", Offset: 0, Size: 1536},
		{Kind: "hbm", Offset: 1536, Size: 5120},
		{Kind: "reuse", Offset: 1536, ReuseOf: "v_1"},
		{Kind: "reuse", Offset: 0, Size: 1536, ReuseOf: "v_0"},
		{Kind: "rdma", Offset: -1, Size: 65536},
		{Kind: "host", Offset: -1, Size: 4096},
	}}
	VarFigures(s)
	got := fmt.Sprint(s.Count, s.SizeSum, s.AreaEnd, s.ReuseCount, s.RdmaSize, s.HostSize)
	if got != "4 76288 6656 2 65536 4096" {
		t.Errorf("got %s", got)
	}
}

func TestDevmmLeak(t *testing.T) {
	for _, c := range []struct {
		d    model.Devmm
		want bool
	}{
		{model.Devmm{Module: "GE", AllocCnt: 3, FreeCnt: 3}, false},
		{model.Devmm{Module: "GE", Current: 4096, AllocCnt: 3, FreeCnt: 3}, true},
		{model.Devmm{Module: "APP", AllocCnt: 4, FreeCnt: 3}, true},
		{model.Devmm{Module: "APP", AllocCnt: 4, FreeCnt: -1}, false}, // free_cnt cut off
		{model.Devmm{Module: "", Cached: 1 << 20}, false},
		{model.Devmm{Module: "AICPU", Total: 75464704}, false},
	} {
		if got := DevmmLeak(&c.d); got != c.want {
			t.Errorf("DevmmLeak(%+v) = %v, want %v", c.d, got, c.want)
		}
	}
}

func graphOf(name string, memtype, size, zeroCopy int64) *model.Graph {
	return &model.Graph{PID: "1", Graph: name, MemType: memtype, Figures: model.Figures{MemorySize: size, ZeroCopy: zeroCopy}}
}

func TestMapRegions(t *testing.T) {
	for _, c := range []struct {
		name   string
		graphs []*model.Graph
		region model.Region
		want   string
	}{
		{"name suffix (GE 2025+)", []*model.Graph{graphOf("g_0", 2, 1024, 0), graphOf("g_1", 2, 1024, 0)},
			model.Region{GraphID: 1, Size: 1024}, "g_1"},
		{"suffix wins over a fitting hint", []*model.Graph{graphOf("g_0", 2, 1024, 0), graphOf("g_1", 2, 1024, 0)},
			model.Region{GraphID: 1, Size: 1024, Hint: "g_0"}, "g_1"},
		{"hint for old names", []*model.Graph{graphOf("ge_default_20220000", 2, 512, 0), graphOf("ge_default_20220001", 2, 512, 0)},
			model.Region{GraphID: 0, Size: 512, Hint: "ge_default_20220001"}, "ge_default_20220001"},
		{"hint must fit", []*model.Graph{graphOf("a", 2, 512, 0), graphOf("b", 2, 2048, 0)},
			model.Region{GraphID: 0, Size: 2048, Hint: "a"}, "b"},
		{"zero-copy reuse mode", []*model.Graph{graphOf("x", 2, 4096, 1024)},
			model.Region{GraphID: 7, Size: 3072}, "x"},
		{"P2P region maps to the memtype 16 graph", []*model.Graph{graphOf("net_1", 2, 4096, 0), graphOf("net_1", 16, 1024, 0)},
			model.Region{GraphID: 1, Size: 1024, MemType: 16}, "net_1"},
		{"ambiguous", []*model.Graph{graphOf("a", 2, 512, 0), graphOf("b", 2, 512, 0)},
			model.Region{GraphID: 0, Size: 512}, ""},
		{"nothing fits", []*model.Graph{graphOf("a", 2, 512, 0)},
			model.Region{GraphID: 0, Size: 4096}, ""},
		{"suffix without fit", []*model.Graph{graphOf("a_3", 2, 512, 0)},
			model.Region{GraphID: 3, Size: 4096}, "a_3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.region
			r.PID, r.Type = "1", "F"
			rep := &model.Report{Graphs: c.graphs, Regions: []model.Region{r}}
			MapRegions(rep)
			if got := rep.Regions[0].Graph; got != c.want {
				t.Errorf("mapped to %q, want %q", got, c.want)
			}
		})
	}
}

func TestCheckAddresses(t *testing.T) {
	g := graphOf("net_1", 2, 4096, 0)
	g.Rows = []model.Row{
		{Node: "add", Kind: "output", Index: 0, Offset: 1024},
		{Node: "add", Kind: "workspace", Index: 0, Offset: 3072},
	}
	g.Reassign = []model.Reassign{{Node: "add", Kind: "output", Index: 0, Offset: 1536}}
	base := uint64(0x10000)
	row := func(name, kind string, off int64, addr uint64) model.AddrRow {
		return model.AddrRow{Statement: "graph", Type: "F", Name: name, Kind: kind, Offset: off, Size: 16,
			MemAddr: fmt.Sprintf("%#x", addr), Addr: addr, Region: 1}
	}
	rep := &model.Report{
		Graphs:  []*model.Graph{g},
		Regions: []model.Region{{PID: "1", GraphID: 1, Type: "F", Base: "0x10000", Addr: base, Size: 4096}},
		AddressChecks: []model.AddressCheck{{PID: "1", GraphID: 1, Rows: []model.AddrRow{
			row("add", "output", -1, base+1536),    // at its continuous offset
			row("add", "workspace", -1, base+3584), // static says 3072
			row("in", "input", 0, base),            // no static row: printed offset
			row("in", "input", 8, base+16),         // printed 8, really 16
			row("big", "output", 5000, base+5000),  // outside the region
			{Statement: "GetInputDataAddrs", Type: "C", Name: "c", Kind: "input", MemAddr: "0x1", Addr: 1},
			{Statement: "get failed", Type: "F", Name: "f", Kind: "output", Status: "failed", Region: 1},
		}}},
	}
	diags := CheckAddresses(rep)
	ac := rep.AddressChecks[0]
	var st []string
	for _, r := range ac.Rows {
		st = append(st, r.Status)
	}
	if got := fmt.Sprint(st); got != "[ok mismatch ok mismatch invalid unchecked failed]" {
		t.Errorf("statuses %s", got)
	}
	if ac.Checked != 5 || ac.Reconciled != 2 || len(ac.Invalid) != 1 || len(ac.Mismatches) != 2 || ac.Graph != "net_1" {
		t.Errorf("check %+v", ac)
	}
	if len(diags) != 4 || diags[3].Reason != diag.UncheckedNoRegion {
		t.Errorf("%d diagnostics, want 4 (two mismatches, one invalid, the constant without a weight region): %+v", len(diags), diags)
	}
	if ac.Unchecked[diag.UncheckedNoRegion] != 1 || len(ac.Unchecked) != 1 || ac.Rows[5].Why != diag.UncheckedNoRegion {
		t.Errorf("unchecked %v, row %+v; want the constant, no region logged", ac.Unchecked, ac.Rows[5])
	}
	if m := ac.Mismatches[0]; m.Address != 3584 || m.Compiled != 3072 || m.From != "static" {
		t.Errorf("mismatch %+v", m)
	}
}
