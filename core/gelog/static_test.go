package gelog

import (
	"fmt"
	"strings"
	"testing"

	"imas/core/plog"
)

const env25 = "[INFO] GE(2617230,python3):2026-08-12-10:21:33.412.907 [block_mem_assigner.cc:2914]2617301 SetOffsetSize:"
const env20 = "[INFO] GE(11394,python3):2020-07-20-09:10:11.123.456 [block_mem_assigner.cc:1156]SetOffsetSize:"

func parseLine(t *testing.T, line string) Record {
	t.Helper()
	return parseLineAt(t, line, Meta{File: 0, Line: 1})
}

// caseMeta is the Meta a table case is parsed with: cases named "cut" are
// the last line of a file that stops mid-line (copied while written).
func caseMeta(name string) Meta {
	return Meta{File: 0, Line: 1, Unterminated: strings.Contains(name, "cut")}
}

func parseLineAt(t *testing.T, line string, m Meta) Record {
	t.Helper()
	var e plog.Envelope
	ok := plog.Parse([]byte(line), &e)
	if !IsCandidate([]byte(line)) {
		t.Fatalf("not a candidate: %q", line)
	}
	return Parse(&e, ok, []byte(line), m)
}

// describe renders the fields a test cares about.
func describe(r Record) string {
	switch x := r.(type) {
	case *SetRow:
		return fmt.Sprintf("set g=%s n=%s op=%s %s[%d] off=%d st=%d mt=%d size=%d real=%d na=%d life=%d..%d child=%v/%d ref=%v batch=%q bt=%q",
			x.Graph, x.Node, x.OpType, x.Kind, x.Index, x.Offset, x.Stream, x.MemType, x.Size, x.RealSize, x.NoAlign,
			x.LifeBegin, x.LifeEnd, x.Child[:x.ChildParts], x.ChildParts, x.IsRef, x.Batch, x.BlockType)
	case *ContRow:
		return fmt.Sprintf("cont %s/%s g=%s n=%s op=%s %s[%d] off=%d st=%d mt=%d size=%d real=%d nopad=%v",
			x.Dir, x.Variant, x.Graph, x.Node, x.OpType, x.Kind, x.Index, x.Offset, x.Stream, x.MemType, x.Size, x.RealSize, x.NoPadding)
	case *AtomicPiece:
		return fmt.Sprintf("atomic %s g=%s n=%s op=%s %s[%d] off=%d st=%d mt=%d size=%d real=%d",
			x.What, x.Graph, x.Node, x.OpType, x.Kind, x.Index, x.Offset, x.Stream, x.MemType, x.Size, x.RealSize)
	case *AtomicClean:
		return fmt.Sprintf("clean g=%s n=%s op=%s offs=%v sizes=%v st=%d", x.Graph, x.Node, x.OpType, x.Offsets, x.Sizes, x.Stream)
	case *AfterAssign:
		return fmt.Sprintf("after g=%s off=%d/%v mt=%d fail=%v logged=%v", x.Graph, x.MemOffset, x.HasOffset, x.MemType, x.Failure, x.Logged)
	case *AppendWs:
		return fmt.Sprintf("appendws n=%s what=%s %v->%v", x.Node, x.What, x.From, x.To)
	case *AppendWsSize:
		return fmt.Sprintf("appendsize %d->%d", x.Origin, x.Last)
	case *Ignored:
		return "ignored " + x.What
	case *Reject:
		return "reject " + x.Reason + ": " + x.Detail
	}
	return fmt.Sprintf("%T", r)
}

func TestStaticStatements(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		// [IMAS]Set, every template generation (docs/log-formats.md#set-generations)
		{"set 2020-05 output", env20 + "[IMAS]Set ge_default name[conv1] output[0] offset to [1024] streamid[0] size[2048] realsize[1568].",
			"set g=ge_default n=conv1 op= output[0] off=1024 st=0 mt=2 size=2048 real=1568 na=0 life=0..0 child=[]/0 ref=false batch=\"\" bt=\"\""},
		{"set 2020-05 workspace", env20 + "[IMAS]Set ge_default name[conv1] workspace[1] offset to [0] streamid[3] size[512] realsize[100].",
			"set g=ge_default n=conv1 op= workspace[1] off=0 st=3 mt=2 size=512 real=100 na=0 life=0..0 child=[]/0 ref=false batch=\"\" bt=\"\""},
		{"set 2020-06-17 one child", env20 + "[IMAS]Set g name[n] output[0] offset to [0] streamid[0] size[512] realsize[96] noalignsize[64] life time begin[3] life time end[5]  child[0].",
			"set g=g n=n op= output[0] off=0 st=0 mt=2 size=512 real=96 na=64 life=3..5 child=[0]/1 ref=false batch=\"\" bt=\"\""},
		{"set 2020-06-28 isref", env20 + "[IMAS]Set g name[n] output[0] offset to [0] streamid[0] size[512] realsize[96] noalignsize[64] life time begin[3] life time end[5] child[0] isref[1].",
			"set g=g n=n op= output[0] off=0 st=0 mt=2 size=512 real=96 na=64 life=3..5 child=[0]/1 ref=true batch=\"\" bt=\"\""},
		{"set 2020-07 four child", env20 + "[IMAS]Set g name[n] output[0] offset to [0] streamid[0] size[512] realsize[96] noalignsize[64] life time begin[3] life time end[4294967295] child[0:1:1:0] isref[0].",
			"set g=g n=n op= output[0] off=0 st=0 mt=2 size=512 real=96 na=64 life=3..4294967295 child=[0 1 1 0]/4 ref=false batch=\"\" bt=\"\""},
		{"set 2020-12 batch", env20 + "[IMAS]Set g name[n] output[0] offset to [0] streamid[0] size[512] realsize[96] noalignsize[64] life time begin[3] life time end[5] child[0:1:0:0:1] isref[0] batch[Batch_1]",
			"set g=g n=n op= output[0] off=0 st=0 mt=2 size=512 real=96 na=64 life=3..5 child=[0 1 0 0 1]/5 ref=false batch=\"Batch_1\" bt=\"\""},
		{"set 2021-01 optype memtype", env25 + "[IMAS]Set g name[n] optype[Add] output[1] offset to [512] streamid[2] memtype[16] size[512] realsize[96] noalignsize[64] life time begin[3] life time end[5] child[0:1:0:0:1] isref[0] batch[]",
			"set g=g n=n op=Add output[1] off=512 st=2 mt=16 size=512 real=96 na=64 life=3..5 child=[0 1 0 0 1]/5 ref=false batch=\"\" bt=\"\""},
		{"set 2020-09 graph name ending _1", "[INFO] GE(31,python3):2020-10-11-12:13:14.150.160 [graph/build/memory/block_mem_assigner.cc:1541]32 SetOffsetSize:[IMAS]Set my_graph_7_1 name[Relu_3] output[0] offset to [1024] streamid[0] size[1536] realsize[1040] noalignsize[1024] life time begin[1] life time end[2] child[0:1:0:0] isref[0].",
			"set g=my_graph_7_1 n=Relu_3 op= output[0] off=1024 st=0 mt=2 size=1536 real=1040 na=1024 life=1..2 child=[0 1 0 0]/4 ref=false batch=\"\" bt=\"\""},
		{"set 2023 trailing space after scope", "[INFO] GE(31,python3):2023-04-05-06:07:08.090.100 [block_mem_assigner.cc:4069]33 SetOffsetSize:[IMAS]Set my_graph_9_1 name[Mul_2] optype[Mul] output[0] offset to [512] streamid[0] memtype[2] size[1024] realsize[544] noalignsize[512] life time begin[2] life time end[3] child[0:1:0:0:1] isref[0] batch[] scope[-1] ",
			"set g=my_graph_9_1 n=Mul_2 op=Mul output[0] off=512 st=0 mt=2 size=1024 real=544 na=512 life=2..3 child=[0 1 0 0 1]/5 ref=false batch=\"\" bt=\"\""},
		{"set 2021-05 scope single dash", "[INFO] GE(11394,python3):2021-07-20-09:10:11.123.456 [block_mem_assigner.cc:2156]11402 SetOffsetSize:[IMAS]Set ge_default_20210720 name[conv1] optype[Conv2D] output[0] offset to [1024] streamid[0] memtype[2] size[2048] realsize[1568] noalignsize[1536] life time begin[1-4] life time end[9] child[0:1:0:0:1] isref[0] batch[] scope[-1]",
			"set g=ge_default_20210720 n=conv1 op=Conv2D output[0] off=1024 st=0 mt=2 size=2048 real=1568 na=1536 life=1..9 child=[0 1 0 0 1]/5 ref=false batch=\"\" bt=\"\""},
		{"set HEAD", env25 + "[IMAS]Set allreduce_graph_0 name[allreduce_op] optype[HcomAllReduce] output[0] offset to [67109376] streamid[1] memtype[2] size[67109376] realsize[67108896] noalignsize[67108864] life time begin[3] life time end[4294967294] child[0:1:0:0:1] isref[0] batch[], block_type[]",
			"set g=allreduce_graph_0 n=allreduce_op op=HcomAllReduce output[0] off=67109376 st=1 mt=2 size=67109376 real=67108896 na=67108864 life=3..4294967294 child=[0 1 0 0 1]/5 ref=false batch=\"\" bt=\"\""},
		{"set HEAD multi-value lifetimes and stream desc", env25 + "[IMAS]Set g_1 name[x] optype[Cast] workspace[0] offset to [0] streamid[5--2] memtype[2] size[512] realsize[96] noalignsize[64] life time begin[12--13] life time end[9--4294967295] child[0:1:0:0:1] isref[0] batch[], block_type[data concentrate_atomic ]",
			"set g=g_1 n=x op=Cast workspace[0] off=0 st=2 mt=2 size=512 real=96 na=64 life=12..4294967295 child=[0 1 0 0 1]/5 ref=false batch=\"\" bt=\"data concentrate_atomic \""},
		{"set stream -1--0", env25 + "[IMAS]Set g_1 name[x] optype[Cast] output[0] offset to [0] streamid[-1--0] memtype[2] size[512] realsize[96] noalignsize[64] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]",
			"set g=g_1 n=x op=Cast output[0] off=0 st=0 mt=2 size=512 real=96 na=64 life=1..2 child=[0 1 0 0 1]/5 ref=false batch=\"\" bt=\"\""},
		{"set session scope memtype", env25 + "[IMAS]Set g_1 name[x] optype[Cast] workspace[0] offset to [0] streamid[0] memtype[4294967298] size[512] realsize[96] noalignsize[64] life time begin[1] life time end[2] child[0:0:0:0:1] isref[0] batch[], block_type[]",
			"set g=g_1 n=x op=Cast workspace[0] off=0 st=0 mt=4294967298 size=512 real=96 na=64 life=1..2 child=[0 0 0 0 1]/5 ref=false batch=\"\" bt=\"\""},
		{"set buffer pool", env25 + "[IMAS]Set g_1 name[bp] optype[Identity] output[0] offset to [4096] streamid[0] memtype[2] size[1000] realsize[1000] noalignsize[1000] life time begin[0] life time end[0] child[0:0:0:0:0] isref[0] batch[]",
			"set g=g_1 n=bp op=Identity output[0] off=4096 st=0 mt=2 size=1000 real=1000 na=1000 life=0..0 child=[0 0 0 0 0]/5 ref=false batch=\"\" bt=\"\""},
		{"set name with bracket", env25 + "[IMAS]Set g_1 name[a]b[0] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512] realsize[96] noalignsize[64] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]",
			"set g=g_1 n=a]b[0 op=X output[0] off=0 st=0 mt=2 size=512 real=96 na=64 life=1..2 child=[0 1 0 0 1]/5 ref=false batch=\"\" bt=\"\""},
		{"set cut in optional tail is used", env25 + "[IMAS]Set g_1 name[x] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512] realsize[96] noalignsize[64] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[Bat",
			"set g=g_1 n=x op=X output[0] off=0 st=0 mt=2 size=512 real=96 na=64 life=1..2 child=[0 1 0 0 1]/5 ref=false batch=\"Bat\" bt=\"\""},
		{"set cut before isref", env25 + "[IMAS]Set g_1 name[x] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512] realsize[96] noalignsize[64] life time begin[1] life time end[2] child[0:1:0",
			"reject truncated: isref[...] missing"},
		{"set cut in isref", env25 + "[IMAS]Set g_1 name[x] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512] realsize[96] noalignsize[64] life time begin[1] life time end[2] child[0:1:0:0:1] isref[",
			"reject truncated: cut inside isref[...]"},
		{"set cut in name", env25 + "[IMAS]Set g_1 name[xxxxxxxxxxx",
			"reject truncated: cut inside name[...]"},
		// Cut before a needed field (docs/figures.md#truncated-lines: anything up to
		// isref[..]) is truncated, at any length; a row that reaches isref
		// without one is another form: missing-field.
		{"set cut before realsize", env25 + "[IMAS]Set g_1 name[x] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512] rea",
			"reject truncated: realsize[...] missing"},
		{"set cut after size", env25 + "[IMAS]Set g_1 name[x] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512]",
			"reject truncated: realsize[...] missing"},
		{"set cut before the tensor kind", env25 + "[IMAS]Set g_1 name[x] optype[X] outp",
			"reject truncated: tensor kind[index] missing"},
		{"set cut before name", env25 + "[IMAS]Set g_1 na",
			"reject truncated: name[...] missing"},
		{"set without realsize", env25 + "[IMAS]Set g_1 name[x] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512] noalignsize[64] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]",
			"reject missing-field: realsize[...] missing"},
		{"set negative size", env25 + "[IMAS]Set g_1 name[x] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[-512] realsize[96] noalignsize[64] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]",
			"reject negative-value: negative offset or size"},
		{"set overflow", env25 + "[IMAS]Set g_1 name[x] optype[X] output[0] offset to [99999999999999999999999] streamid[0] memtype[2] size[512] realsize[96] noalignsize[64] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]",
			"reject number-overflow: offset to does not fit in int64"},
		{"set garbage number", env25 + "[IMAS]Set g_1 name[x] optype[X] output[0] offset to [12ab] streamid[0] memtype[2] size[512] realsize[96] noalignsize[64] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]",
			"reject bad-number: offset to is not a number"},
		{"set bad lifetime", env25 + "[IMAS]Set g_1 name[x] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512] realsize[96] noalignsize[64] life time begin[a] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]",
			"reject bad-number: life time begin is not a number"},

		// continuous (docs/log-formats.md#continuous)
		{"cont HEAD graph", env25 + "[IMAS]Continuous input : Set allreduce_graph_0 name[add_1] optype[Add] output[0] offset to [134251520] stream_id[0] memtype[2] size[0] realsize[1024] nopadding[0]",
			"cont input/graph g=allreduce_graph_0 n=add_1 op=Add output[0] off=134251520 st=0 mt=2 size=0 real=1024 nopad=false"},
		{"cont HEAD block assigner", env25 + "[ContinuousMem][IMAS]Continuous input : Set g_1 name[n] optype[T] output[1] offset to [512] stream_id[0] memtype[2] size[0] realsize[512] nopadding[0], block_type[]",
			"cont input/block g=g_1 n=n op=T output[1] off=512 st=0 mt=2 size=0 real=512 nopad=false"},
		{"cont 2020", env20 + "[IMAS]Continuous input : Set g name[n] output[0] offset to [10] stream_id[0] size[512] real_size[100].",
			"cont input/graph g=g n=n op= output[0] off=10 st=0 mt=2 size=512 real=100 nopad=false"},
		{"cont 2020 check", env20 + "[IMAS]Check Continuous input : Set g name[n] output[0] offset to [10] stream_id[0] size[512] real_size[100].",
			"cont input/check g=g n=n op= output[0] off=10 st=0 mt=2 size=512 real=100 nopad=false"},
		{"cont 2021 nopadding size", env25 + "[IMAS]Continuous input : Set g name[n] optype[ConcatD] output[0] offset to [10] stream_id[0] memtype[2] size[512] realsize[100] nopadding size[1]",
			"cont input/graph g=g n=n op=ConcatD output[0] off=10 st=0 mt=2 size=512 real=100 nopad=true"},
		{"cont output", env25 + "[IMAS]Continuous output : Set g name[n] optype[Split] output[2] offset to [0] stream_id[1] memtype[2] size[0] realsize[64] nopadding[1].",
			"cont output/graph g=g n=n op=Split output[2] off=0 st=1 mt=2 size=0 real=64 nopad=true"},
		{"cont virtual node", env20 + "[IMAS]Virtual node optimize : set g name[n] output[0] offset to [0] stream_id[0] size[64] real_size[64].",
			"cont output/virtual g=g n=n op= output[0] off=0 st=0 mt=2 size=64 real=64 nopad=false"},
		{"cont virtual node comma form", env20 + "[IMAS]Virtual node optimize: set g name[n] output[0] offset to [0] stream_id[0], size[64], real_size[64].",
			"cont output/virtual g=g n=n op= output[0] off=0 st=0 mt=2 size=64 real=64 nopad=false"},
		{"cont merge", env20 + "[IMAS]ReAssignMergeMemory : Set g name[n] output[0] offset to [0] stream_id[0] size[64] real_size[64].",
			"cont output/merge g=g n=n op= output[0] off=0 st=0 mt=2 size=64 real=64 nopad=false"},
		{"cont truncated", env25 + "[IMAS]Continuous input : Set g name[n] optype[T] output[0] offset to [10] stream_id[0] memtype[2] size[0] realsi",
			"reject truncated: realsize[...] missing"},

		// atomic (docs/log-formats.md#atomic)
		{"atomic HEAD ordinary", env25 + "[IMAS]Atomic ordinary workspace : Set allreduce_graph_0 name[reduce_sum_1] optype[ReduceSum] workspace[0] offset to [134252544] stream_id[0] memtype[2] size[1024] real_size[1000] batch[].",
			"atomic ordinary workspace g=allreduce_graph_0 n=reduce_sum_1 op=ReduceSum workspace[0] off=134252544 st=0 mt=2 size=1024 real=1000"},
		{"atomic HEAD output", env25 + "[IMAS]Atomic output : Set g_0 name[n] optype[T] output[1] offset to [512] stream_id[0] memtype[2] size[1024] real_size[700] batch[].",
			"atomic output g=g_0 n=n op=T output[1] off=512 st=0 mt=2 size=1024 real=700"},
		{"atomic HEAD fusion ssize", env25 + "[AtomicClean][IMAS]Atomic fusion workspace : Set g_0 name[n] optype[T] workspace[0] offset to [512] stream_id[0] memtype[2] ssize[300] real_size[300] batch[].",
			"atomic fusion workspace g=g_0 n=n op=T workspace[0] off=512 st=0 mt=2 size=0 real=300"},
		{"atomic 2020", env20 + "[IMAS]Atomic output : Set g name[n] output[0] offset to [512] stream_id[0] size[700] real_size[700].",
			"atomic output g=g n=n op= output[0] off=512 st=0 mt=2 size=700 real=700"},
		{"atomic 2021 fusion old prefix", env25 + "[IMAS]Atomic fusion workspace : Set g name[n] optype[T] workspace[0] offset to [512] stream_id[0] memtype[2] ssize[300] real_size[300] batch[].",
			"atomic fusion workspace g=g n=n op=T workspace[0] off=512 st=0 mt=2 size=0 real=300"},
		{"atomic cut", env25 + "[IMAS]Atomic output : Set g_0 name[n] optype[T] output[1] offset to [512] stream_id[0] memtype[2] size[10",
			"reject truncated: real_size[...] missing"},
		{"atomic note ignored", env20 + "[IMAS]Atomic output : we have assigned atomic memory as the input of next node in ReAssignContinuousMemory function.",
			"ignored atomic-note"},
		{"atomic no assign ignored", env20 + "[IMAS]Atomic no assign g name[n] output[0] streamid[0].", "ignored atomic-no-assign"},

		// atomic clean attributes
		{"append attrs HEAD", env25 + "[AtomicClean][IMAS]AppendAttrsToMemSetOp : Set allreduce_graph_0 atomic_node name[atomic_memset0_01] optype[MemSet] workspace[0] offset to [134251520 ] streamid[0] size[1024 ]",
			"clean g=allreduce_graph_0 n=atomic_memset0_01 op=MemSet offs=[134251520] sizes=[1024] st=0"},
		{"clean attr 2021", env25 + "[IMAS]SetAtomicCleanAttr : Set g atomic_node name[a] optype[AtomicAddrClean] output[0] offset to [0 512 ] streamid[0] memtype[2] size[512 1024 ]",
			"clean g=g n=a op=AtomicAddrClean offs=[0 512] sizes=[512 1024] st=0"},
		{"clean attr 2020-12", env20 + "[IMAS]SetAtomicCleanAttr : Set g atomic_node name[a] output[0] offset to [0 512 ] streamid[0] size[512 1024 ]",
			"clean g=g n=a op= offs=[0 512] sizes=[512 1024] st=0"},
		{"clean attr 2020-08", env20 + "[IMAS]SetAtomicCleanAttr : Set graph[g] atomic_node[a] output offset [0 512 ] size[512 1024 ] streamid[1]",
			"clean g=g n=a op= offs=[0 512] sizes=[512 1024] st=1"},

		// AfterAssignMemory (docs/log-formats.md#summary)
		{"after HEAD", env25 + "[IMAS]AfterAssignMemory : allreduce_graph_0 memoffset[268470272], memtype[2], theory_min[268470272], zero_copy[134218752], total_size[268470272], no_reuse[134218752], streams[3], topo_mode[BFS], mop[], io_reuse[0:0], alloc_mode[], smp[0]",
			"after g=allreduce_graph_0 off=268470272/true mt=2 fail=false logged=[[theory_min 268470272] [zero_copy 134218752] [ge_total 268470272] [no_reuse 134218752] [streams 3] [topo BFS] [mop ] [io_reuse 0:0] [alloc_mode ] [smp 0]]"},
		{"after HEAD failure path", env25 + "[IMAS]AfterAssignMemory : g_1 memoffset[100], memtype[16], theory_min[10], zero_copy[5], total_size[200], no_reuse[0], streams[2] topo_mode[DFS], mop[MemoryPriority], io_reuse[1:0], alloc_mode[], smp[4]",
			"after g=g_1 off=100/true mt=16 fail=true logged=[[theory_min 10] [zero_copy 5] [ge_total 200] [no_reuse 0] [streams 2] [topo DFS] [mop MemoryPriority] [io_reuse 1:0] [alloc_mode ] [smp 4]]"},
		{"after gap form without alloc_mode", env25 + "[IMAS]AfterAssignMemory : g_1 memoffset[100], memtype[2], theory_min[10], zero_copy[5], total_size[200], no_reuse[0], streams[1], topo_mode[BFS], mop[], io_reuse[0:0], smp[0]",
			"after g=g_1 off=100/true mt=2 fail=false logged=[[theory_min 10] [zero_copy 5] [ge_total 200] [no_reuse 0] [streams 1] [topo BFS] [mop ] [io_reuse 0:0] [smp 0]]"},
		{"after 2021", env25 + "[IMAS]AfterAssignMemory : ge_default memoffset[6141440], memtype[16]",
			"after g=ge_default off=6141440/true mt=16 fail=false logged=[]"},
		{"after 2020-10 memory type", env20 + "[IMAS]AfterAssignMemory : ge_default memoffset[4096], memory type[2]",
			"after g=ge_default off=4096/true mt=2 fail=false logged=[]"},
		{"after 2020-05", env20 + "[IMAS]AfterAssignMemory : ge_default memoffset[4096]",
			"after g=ge_default off=4096/true mt=2 fail=false logged=[]"},
		{"after 2020-03 bare", env20 + "[IMAS]AfterAssignMemory : ge_default",
			"after g=ge_default off=0/false mt=2 fail=false logged=[]"},
		{"after cut", env25 + "[IMAS]AfterAssignMemory : g_1 memoffset[12",
			"reject truncated: cut inside memoffset[...]"},
		// A cut before the memory type is known must not make a graph of
		// the default type 2.
		{"after cut in memtype", env25 + "[IMAS]AfterAssignMemory : g_1 memoffset[9999], memtype[1",
			"reject truncated: cut inside memtype[...]"},
		{"after cut in memtype key", env25 + "[IMAS]AfterAssignMemory : g_1 memoffset[9999], mem",
			"reject truncated: cut before memtype[...]"},
		{"after cut after comma", env25 + "[IMAS]AfterAssignMemory : g_1 memoffset[9999],",
			"reject truncated: cut before memtype[...]"},
		{"after cut in 2020-10 memory type", env20 + "[IMAS]AfterAssignMemory : ge_default memoffset[4096], memory type[1",
			"reject truncated: cut inside memory type[...]"},
		{"after cut before memoffset", env25 + "[IMAS]AfterAssignMemory : g_1 memoff",
			"reject truncated: memoffset[...] missing"},
		{"after cut in GE's figures is used", env25 + "[IMAS]AfterAssignMemory : g_1 memoffset[100], memtype[1], theory_min[1",
			"after g=g_1 off=100/true mt=1 fail=false logged=[]"},

		// workspace appended after task generation (docs/log-formats.md#append-ws)
		{"append ws", env25 + "[IMAS]after append ws, node conv1 refresh ws from [100, 200] to [300, 400]",
			"appendws n=conv1 what=ws [100 200]->[300 400]"},
		{"append output", env25 + "[IMAS]after append ws, node conv1 refresh output offset from [1024] to [2048]",
			"appendws n=conv1 what=output offset [1024]->[2048]"},
		{"append input", env25 + "[IMAS]after append ws, node conv1 refresh input offset from [1, 2] to [3, 4]",
			"appendws n=conv1 what=input offset [1 2]->[3 4]"},
		{"append size", env25 + "after append ws, origin memory size 100, last memory size 200",
			"appendsize 100->200"},

		// reuse summaries are understood and not summed
		{"reuse result", env25 + "Reuse result:allreduce_graph memory type:2 mem_offset exclude zero_copy_memory:1024.", "ignored reuse-result"},

		// unknown [IMAS] statement and lines without envelope
		{"unknown imas", env25 + "[IMAS]SomethingNew x[1]", "reject unrecognised: marker present but statement unknown"},
		{"no envelope", "garbage [IMAS]Set g name[x]", "reject bad-envelope: no plog header ([LEVEL] MODULE(pid,name):time)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := describe(parseLineAt(t, tc.line, caseMeta(tc.name)))
			if got != tc.want {
				t.Errorf("\ngot  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestTruncatedAt1024(t *testing.T) {
	long := strings.Repeat("n", 900)
	line := env25 + "[IMAS]Set g_1 name[" + long + "] optype[X] output[0] offset to [0] streamid[0] memtype[2] size[512] realsize[96] noalignsize[64] life time begin[1] life time end[2] child[0:1:0:0:1] isref[0] batch[], block_type[]"
	cut := line[:strings.Index(line, "[block_mem")+1024]
	r := parseLine(t, cut)
	rj, ok := r.(*Reject)
	if !ok || rj.Reason != "truncated" || rj.Graph != "g_1" {
		t.Fatalf("got %s (graph %q)", describe(r), rj.Graph)
	}
}

func TestLifeRange(t *testing.T) {
	tests := []struct {
		in     string
		lo, hi int64
		err    numErr
	}{
		{"12", 12, 12, numOK}, {"1-4", 1, 4, numOK}, {"12--13", 12, 13, numOK}, {"9--4294967295", 9, 4294967295, numOK},
		{"7--15--3", 3, 15, numOK}, {"", 0, 0, numEmpty}, {"x", 0, 0, numBad}, {"1--", 1, 1, numOK},
	}
	for _, tc := range tests {
		lo, hi, err := lifeRange([]byte(tc.in))
		if lo != tc.lo || hi != tc.hi || err != tc.err {
			t.Errorf("%q: got %d %d %v, want %d %d %v", tc.in, lo, hi, err, tc.lo, tc.hi, tc.err)
		}
	}
}

func TestParseInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  numErr
	}{
		{"0", 0, numOK}, {" 42 ", 42, numOK}, {"-1", -1, numOK}, {"9223372036854775807", 9223372036854775807, numOK},
		{"9223372036854775808", 0, numOverflow}, {"18446744073709551615", -1, numOK}, {"99999999999999999999", 0, numOverflow},
		{"", 0, numEmpty}, {"-", 0, numBad}, {"1e3", 0, numBad},
	}
	for _, tc := range tests {
		got, err := parseInt([]byte(tc.in))
		if got != tc.want || err != tc.err {
			t.Errorf("%q: got %d %v, want %d %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestExcerpt(t *testing.T) {
	got := Excerpt([]byte("a\x00b\xffc\td"))
	if got != `a\x00b\xffc\x09d` {
		t.Errorf("got %q", got)
	}
	if n := len(Excerpt([]byte(strings.Repeat("x", 5000)))); n != MaxText {
		t.Errorf("excerpt len %d", n)
	}
}
