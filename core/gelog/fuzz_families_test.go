package gelog

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"imas/core/diag"
	"imas/core/plog"
)

// One fuzz target per statement family. The fuzzer varies the text after a
// fixed envelope and marker, so its effort goes into the fields rather than
// into finding the marker again; a form byte picks the statement variant.
// Seeds are the unit-test lines below plus every distinct template of
// testdata/samples. FuzzParse (fuzz_test.go) covers the dispatch as a whole.

// form is the fixed head of a fuzzed line: env + marker + fuzzed body.
type form struct{ env, marker string }

// fuzzFamily describes one target.
type fuzzFamily struct {
	forms []form
	// parse calls the family's own parser on a line built from forms[i].
	parse func(env *plog.Envelope, line []byte, m Meta, i int) Record
	// check asserts the family's invariants on an accepted (non-Reject)
	// record; it fails on record types the family must not produce.
	check func(t *testing.T, r Record, line []byte)
	// body, if set, checks the family's own helpers on every input.
	body func(t *testing.T, body []byte)
}

const (
	fzEnv25    = "[INFO] GE(2617230,python3):2026-08-12-10:21:33.412.907 [block_mem_assigner.cc:2914]2617301 SetOffsetSize:"
	fzEnvEvent = "[INFO] GE(2617230,python3):2026-08-12-10:21:35.004.221 [graph_mem_assigner.cc:1664][EVENT]2617230 SetInputOffset:"
	fzEnvAddr  = "[INFO] GE(2617230,python3):2026-08-12-10:21:35.210.640 [model_utils.cc:875]2617230 GetOutputDataAddrs:"
	fzEnvMem   = "[INFO] GE(2617230,python3):2026-08-12-10:21:35.004.198 [graph_mem_allocator.cc:78]2617230 MallocMemory:"
	fzEnvHP    = "[INFO] GE(2617230,python3):2026-08-12-10:22:05.770.322 [active_memory_allocator.cc:1137]2617402 ge::PhysicalMemoryAllocator::MallocPhysicalPage:"
	fzEnvKT    = "[INFO] GE(2617230,python3):2026-08-12-10:22:01.118.530 [memory_kernel.cc:385]2617402 AllocHbmMem:"
	fzEnvSA    = "[INFO] GE(2617230,python3):2026-08-12-10:22:01.118.497 [scalable_allocator.cc:511]2617402 [allocator_2] Alloc:"
	fzEnvDRV   = "[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.187 [svm_mem_statistics.c:150][ascend][curpid:901649,901649][drv][devmm][_"
)

// fzSeeds are unit-test lines of forms that testdata/samples lacks.
var fzSeeds = []string{
	fzEnv25 + "[IMAS]Set ge_default name[conv1] output[0] offset to [1024] streamid[0] size[2048] realsize[1568].",
	fzEnv25 + "[IMAS]Set g name[n] output[0] offset to [0] streamid[0] size[512] realsize[96] noalignsize[64] life time begin[3] life time end[4294967295] child[0:1:1:0] isref[0].",
	fzEnv25 + "[IMAS]Set g name[n] output[0] offset to [0] streamid[5--2] size[512] realsize[96] noalignsize[64] life time begin[1-4] life time end[9--4294967295] child[0:1:0:0:1] isref[1] batch[Batch_1], block_type[data ]",
	fzEnv25 + "[IMAS]Check Continuous input : Set g name[n] output[0] offset to [10] stream_id[0] size[512] real_size[100].",
	fzEnv25 + "[IMAS]Continuous output : Set g name[n] optype[Split] output[2] offset to [0] stream_id[1] memtype[2] size[0] realsize[64] nopadding[1].",
	fzEnv25 + "[IMAS]Virtual node optimize : set g name[n] output[0] offset to [0] stream_id[0] size[64] real_size[64].",
	fzEnv25 + "[IMAS]ReAssignMergeMemory : Set g name[n] output[0] offset to [0] stream_id[0] size[64] real_size[64].",
	fzEnv25 + "[AtomicClean][IMAS]Atomic fusion workspace : Set g_0 name[n] optype[T] workspace[0] offset to [512] stream_id[0] memtype[2] ssize[300] real_size[300] batch[].",
	fzEnv25 + "[AtomicClean][IMAS]AppendAttrsToMemSetOp : Set g atomic_node name[m] optype[MemSet] workspace[0] offset to [1 2 ] streamid[0] size[3 4 ]",
	fzEnv25 + "[IMAS]SetAtomicCleanAttr : Set g atomic_node name[a] optype[AtomicAddrClean] output[0] offset to [0 512 ] streamid[0] memtype[2] size[512 1024 ]",
	fzEnv25 + "[IMAS]SetAtomicCleanAttr : Set graph[g] atomic_node[a] output offset [0 512 ] size[512 1024 ] streamid[1]",
	fzEnvEvent + "[IMAS]AfterAssignMemory : g_1 memoffset[100], memtype[16], theory_min[10], zero_copy[5], total_size[200], no_reuse[0], streams[2] topo_mode[DFS], mop[], io_reuse[1:0], alloc_mode[], smp[4]",
	fzEnvEvent + "[IMAS]AfterAssignMemory : ge_default.",
	fzEnv25 + "[IMAS]after append ws, node conv1 refresh ws from [100, 200] to [300, 400]",
	fzEnv25 + "[IMAS]after append ws, node conv1 refresh output offset from [1024] to [2048]",
	fzEnv25 + "after append ws, origin memory size 100, last memory size 200",
	fzEnv25 + "[IMAS]AssignVarMem Set session_0 name[conv1_weight] output[0] offset to [0] size[74752] realsize[73728].",
	fzEnv25 + "[IMAS]AssignVarMem Set session_0 name[v] output[0] addr to [0x12c500000000] size[4096]",
	fzEnv25 + "[IMAS]AssignVarMem Set session_1 name[fc] output[0] offset to [512] reuse address of node:fc_src.",
	fzEnv25 + "[IMAS]AssignVarMem Set session_1 name[h] output[140737488355328] size[64]",
	fzEnvMem + "MallocMemory, func=aclrtMalloc, size=268470272, purpose=feature map,used for op input and output, ptr=0x12c041600000, device_id=0, module_id=45",
	fzEnvMem + "MallocMemory, func=rtMalloc, size=6141440, purpose=feature map,used for op input and output.",
	fzEnvMem + "MallocMemory, func=new, size=4096, purpose=cce task physical memory.",
	fzEnvMem + "MemoryAllocator::MallocMemory device_id = 0, size= 268470272.",
	fzEnvMem + "MemoryAllocator::FreeMemory memory_key[3] should not be released, reference count 2",
	fzEnvMem + "ActiveMemoryAllocator::MallocMemory device_id = 0, size = 8388608 used_count = 3.",
	fzEnvMem + "ActiveMemoryAllocator::MallocPhysicalMemory memory_size:16777216 device_id = 0 memory_type = 2",
	fzEnvMem + "ActiveMemoryAllocator::FreeMemory used_count = 0 device_id = 0 memory_type = 2",
	fzEnvMem + "[Malloc][Memory] failed, device_id = 0, size= 1073741824",
	fzEnvHP + "rtMallocPhysical success pa_index:6, current physical memory size:58720256 reuse:0, memory_type:2, pg_type:2M.",
	fzEnvHP + "aclrtFreePhysical success pa_index:6, current physical memory size:0",
	fzEnvMem + "RtMemAllocator::free device_id:0 ,size:2097152, mem_addr:0x12c180000000",
	fzEnvMem + "Final StaticMemoryPolicy is set to 4.",
	fzEnvMem + "Total memory size is 65452113920",
	fzEnvAddr + "[IMAS]InitFeatureMapAndP2PMem graph_0 MallocMemory type[F] memaddr[0x12c041600000] mem_size[268470272]Bytes",
	fzEnvAddr + "[IMAS]InitFeatureMap graph_3 MallocMemory type[F] mem_type[16] mem_type_origin[16] mem_addr[0x12c060000000] size[2376704].",
	fzEnvAddr + "InitFeatureMapAndP2PMem graph_0 MallocMemory type[F] mem_type[16] mem_addr[0x12c061000000] mem_size[1324544]",
	fzEnvAddr + "virtual_active_addr_base:0x12c400000000 virtual_memory_size:68719476736(64.00G) device_id:0, memory_type:2, share_phy_allocator:0.",
	fzEnvAddr + "[IMAS]GetInputDataAddrs graph_0 type[C] name[matmul] input[1] size[4096] memaddr[0x12c300001000]",
	fzEnvAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[F] name[conv] workspace[1] offset[0] bytes[0] Null addr",
	fzEnvAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[F] name[cpu] aicpu workspace[0]  offset[64] bytes[128] memaddr[0x12c10d000040]",
	fzEnvAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[L1] name[fused], mem_addr[workspace index 2]:0x1f000",
	fzEnvAddr + "[IMAS]GetInputConstAddrOffset type[C] size[4096] ",
	fzEnvAddr + "[IMAS]GetInputDataAddrs type[C] name[mm] input[1] data_offset[8192]",
	fzEnvAddr + "[IMAS]get failed for graph_0 type[F] name[x] output[0]",
	fzEnvAddr + "[IMAS] conv2d_1 Conv2D get real input data addr 20615843020800",
	fzEnvAddr + "[IMAS]InitConstant memcpy graph_0 type[V] name[const_1] output[0] memaddr[0x12c300000200] mem_size[4096] datasize[4000].",
	fzEnvAddr + "[IMAS]Init FileConstant memcpy graph_0 type[V] name[fc] output[0] memaddr[0x12c310000000] mem_size[1048576]",
	fzEnvAddr + "[IMAS]CopyPlainData memcpy graph_2 type[F] input[0] dst[0x12c500000000] src[0x7f0000001000] mem_size[4096] datasize[4096]",
	fzEnvAddr + "[IMAS]CopyTransData memcpy graph_0 type[F] name[data] output[0] datasize[1024]",
	fzEnvKT + "[KernelTrace][AllocMemHbm_Add_1_325][MEM]Alloc memory at stream 0, block 0x55d1c2a3f0e0, address 0x12c180000800, size 65536, tensor size 544, index 1",
	fzEnvKT + "[KernelTrace][FreeMemHbm_Add_1_326][MEM]Free memory at stream 0, address 0x12c180000800, tensor 0x55d1c2a3f0e0, index 1",
	fzEnvKT + "[KernelTrace][][MEM]Recycle memory at stream 0, address 0x12c180000800",
	fzEnvSA + "Malloc block device_id:0 size:544 allocate_size:65536 mem_addr:0x12c180000800. span addr 0x55d1c29b7a40",
	fzEnvSA + "Free block device_id:0 theory_size_:0 theory_min_size_:65536 allock_size:65536 mem_addr:0x12c180000800.",
	fzEnvSA + "Free block size = 4096",
	fzEnvSA + "Device memory   : [alloc count:1 free count:0 total size:2097152(2.00M) new_va_size:0 real_theory_min:544 theory_min:65536(64.00K) reach theory rate:0.03%]",
	fzEnvSA + "Device memory   : [alloc count:1 free count:0 total size:65536]",
	fzEnvSA + "create caching memory allocator, [allocator_2]",
	fzEnvDRV + "_svm_mem_stats_show]HOST_MEM Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=0; allocated_peak_size=11341824; alloc_cnt=3; free_cnt=3)",
	fzEnvDRV + "_svm_mem_stats_show]HOST_MEM Cached_size:12582912Bytes",
	fzEnvDRV + "_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=44138496; alloced_peak_size=44138496; alloc_cnt=18; free_cnt=0)",
	fzEnvDRV + "**_svm_mem_stats_show** 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=**APP**; module_id=33; current_alloced_size=**2078195712**; alloced_peak_size=2078195712; alloc_cnt=996; free_cnt=0)",
	fzEnvDRV + "svm_mem_stats_show_device_proc_mem 358]DEV_PROC_MEM dev6 Mem stats (Bytes). (module_name=AICPU; module_id=36; total_size=75464704)",
}

// knownReason reports whether a reject's reason is a rejected-line row of
// core/diag: anything else is a typo that users would see.
func knownReason(reason string) bool {
	r, ok := diag.Lookup(reason)
	return ok && r.Class == diag.Line
}

// sampleLines reads every line of testdata/samples once per process.
var sampleLines = sync.OnceValue(func() []string {
	var out []string
	filepath.WalkDir("../../testdata/samples", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".log") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err == nil {
			out = append(out, strings.Split(string(b), "\n")...)
		}
		return nil
	})
	return out
})

// template reduces a body to its shape: bracket contents and numbers
// dropped, so that seeds differ in fields rather than in values.
func template(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '[':
			depth++
			b.WriteByte(c)
		case c == ']':
			depth = max(depth-1, 0)
			b.WriteByte(c)
		case depth > 0, c >= '0' && c <= '9':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// run registers the seeds and the fuzz function of fam.
func (fam fuzzFamily) run(f *testing.F) {
	const maxSeeds = 48
	seen := map[string]bool{}
	for _, l := range append(slices.Clone(fzSeeds), sampleLines()...) {
		for i, fm := range fam.forms {
			j := strings.Index(l, fm.marker)
			if j < 0 {
				continue
			}
			body := strings.TrimRight(l[j+len(fm.marker):], "\r")
			key := string(rune('a'+i)) + template(body)
			if !seen[key] && len(seen) < maxSeeds {
				seen[key] = true
				f.Add(uint8(i), []byte(body))
			}
			break // the first form whose marker matches owns the line
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		if bytes.IndexByte(body, '\n') >= 0 {
			return // the chunker splits lines there: never one line
		}
		if fam.body != nil {
			fam.body(t, body)
		}
		i := int(which) % len(fam.forms)
		fm := fam.forms[i]
		line := []byte(fm.env + fm.marker + string(body))
		m := Meta{File: 3, Line: 42}

		var env plog.Envelope
		if !plog.Parse(line, &env) {
			t.Fatalf("fixed envelope not parsed: %q", line)
		}
		// A nil record: the body made the line no statement of the family;
		// the dispatch below must still give a record for it.
		r := fam.parse(&env, line, m, i)
		if r != nil {
			checkRecord(t, r, line, m)
			if _, rej := r.(*Reject); !rej {
				fam.check(t, r, line)
			}
		}

		// The whole dispatch must agree that this is a candidate and give a
		// record for it (it may pick another family if the body carries
		// another statement's marker).
		if !IsCandidate(line) {
			t.Fatalf("family line is not a candidate: %q", line)
		}
		checkRecord(t, Parse(&env, true, line, m), line, m)

		// Records must own their text: the pipeline reuses a chunk's buffer
		// as soon as it is parsed, so aliasing it would corrupt records.
		buf := slices.Clone(line)
		var env2 plog.Envelope
		plog.Parse(buf, &env2)
		r2 := fam.parse(&env2, buf, m, i)
		for k := range buf {
			buf[k] = '#'
		}
		if !reflect.DeepEqual(r, r2) {
			t.Fatalf("record changed when its line buffer was reused:\n%#v\n%#v", r, r2)
		}
	})
}

// checkRecord asserts what holds for every record of a candidate line.
func checkRecord(t *testing.T, r Record, line []byte, m Meta) {
	t.Helper()
	if r == nil {
		t.Fatalf("nil record for %q", line)
	}
	if got := M(r); got.File != m.File || got.Line != m.Line {
		t.Fatalf("record lost its place: %+v", got)
	}
	if ig, ok := r.(*Ignored); ok && !diag.Known("ignored:"+ig.What) {
		t.Fatalf("ignore rule %q is not in core/diag", ig.What)
	}
	rj, ok := r.(*Reject)
	if !ok {
		return
	}
	if !knownReason(rj.Reason) || rj.Detail == "" {
		t.Fatalf("reject without a known reason and detail: %+v", rj)
	}
	// The excerpt lands in report.json and on terminals: bounded, valid
	// UTF-8, no control bytes (each input byte becomes at most "\xNN").
	if len(rj.Text) > 4*MaxText || !utf8.ValidString(rj.Text) || strings.ContainsAny(rj.Text, "\x00\t\r\n\x1b\x7f") {
		t.Fatalf("unsafe diagnostic text %q", rj.Text)
	}
	if rj.Text == "" && len(line) > 0 {
		t.Fatalf("reject without its text")
	}
}

func nonNegative(t *testing.T, r Record, vals ...int64) {
	t.Helper()
	for _, v := range vals {
		if v < 0 {
			t.Fatalf("negative size or offset accepted: %#v", r)
		}
	}
}

func inLine(t *testing.T, line []byte, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !bytes.Contains(line, []byte(p)) {
			t.Fatalf("field %q is not text of the line %q", p, line)
		}
	}
}

func unexpected(t *testing.T, r Record) {
	t.Helper()
	t.Fatalf("unexpected record type %T: %#v", r, r)
}

// imasAt calls the static-graph dispatch on the line's first [IMAS].
func imasAt(env *plog.Envelope, line []byte, m Meta) Record {
	msg := env.Msg
	i := bytes.Index(msg, []byte("[IMAS]"))
	if i < 0 {
		return nil
	}
	return parseIMAS(env, msg, i, m, line, nil)
}

func FuzzSet(f *testing.F) {
	fuzzFamily{
		forms: []form{{fzEnv25, "[IMAS]Set "}},
		parse: func(env *plog.Envelope, line []byte, m Meta, _ int) Record { return imasAt(env, line, m) },
		check: func(t *testing.T, r Record, line []byte) {
			s, ok := r.(*SetRow)
			if !ok {
				unexpected(t, r)
			}
			nonNegative(t, r, s.Offset, s.Size, s.RealSize)
			if s.Graph == "" || s.ChildParts > len(s.Child) || !slices.Contains(tensorKinds, s.Kind) {
				t.Fatalf("bad set row %#v", s)
			}
			inLine(t, line, s.Graph, s.Node, s.OpType, s.Batch, s.BlockType)
		},
		body: checkSetScan,
	}.run(f)
}

// checkSetScan fails when the fast scan of a Set row's fields (expected
// keys compared as words) reads a message differently from reading every
// field byte by byte: on the message, and on it after its first ']'.
func checkSetScan(t *testing.T, body []byte) {
	for _, msg := range [][]byte{body, body[bytes.IndexByte(body, ']')+1:]} {
		var fast, slow setFields
		fast.scan(msg)
		slow.scanFrom(msg, 0, 0)
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fields of %q:\nfast %+v\nslow %+v", msg, fast, slow)
		}
	}
}

func FuzzContinuous(f *testing.F) {
	fuzzFamily{
		forms: []form{
			{fzEnv25, "[IMAS]Continuous input : "},
			{fzEnv25, "[IMAS]Continuous output : "},
			{fzEnv25, "[IMAS]Check Continuous input : "},
			{fzEnv25, "[IMAS]Virtual node optimize"},
			{fzEnv25, "[IMAS]ReAssignMergeMemory : "},
			{fzEnv25 + "[ContinuousMem]", "[IMAS]Continuous input : "},
		},
		parse: func(env *plog.Envelope, line []byte, m Meta, _ int) Record { return imasAt(env, line, m) },
		check: func(t *testing.T, r Record, line []byte) {
			c, ok := r.(*ContRow)
			if !ok {
				unexpected(t, r)
			}
			nonNegative(t, r, c.Offset, c.Size, c.RealSize)
			if c.Dir != "input" && c.Dir != "output" {
				t.Fatalf("bad direction %#v", c)
			}
			inLine(t, line, c.Graph, c.Node, c.OpType)
		},
	}.run(f)
}

func FuzzAtomic(f *testing.F) {
	fuzzFamily{
		forms: []form{
			{fzEnv25 + "[AtomicClean]", "[IMAS]Atomic output : "},
			{fzEnv25 + "[AtomicClean]", "[IMAS]Atomic ordinary workspace : "},
			{fzEnv25 + "[AtomicClean]", "[IMAS]Atomic fusion workspace : "},
			{fzEnv25, "[IMAS]SetAtomicCleanAttr : "},
			{fzEnv25 + "[AtomicClean]", "[IMAS]AppendAttrsToMemSetOp : "},
		},
		parse: func(env *plog.Envelope, line []byte, m Meta, _ int) Record { return imasAt(env, line, m) },
		check: func(t *testing.T, r Record, line []byte) {
			switch a := r.(type) {
			case *AtomicPiece:
				nonNegative(t, r, a.Offset, a.Size, a.RealSize)
				inLine(t, line, a.Graph, a.Node, a.OpType, a.Batch)
			case *AtomicClean:
				inLine(t, line, a.Graph, a.Node, a.OpType)
			case *Ignored: // "Atomic output : we have assigned ..."
			default:
				unexpected(t, r)
			}
		},
	}.run(f)
}

func FuzzAfterAssign(f *testing.F) {
	fuzzFamily{
		forms: []form{
			{fzEnvEvent, "[IMAS]AfterAssignMemory : "},
			{fzEnv25, "[IMAS]after append ws, "},
			{fzEnv25, "after append ws, origin memory size"},
		},
		parse: func(env *plog.Envelope, line []byte, m Meta, i int) Record {
			if i == 2 {
				return parseAppendWsSize(env.Msg, m, line)
			}
			return imasAt(env, line, m)
		},
		check: func(t *testing.T, r Record, line []byte) {
			switch a := r.(type) {
			case *AfterAssign:
				if a.EventKey == 0 {
					t.Fatalf("AfterAssignMemory without its event key (run/debug log duplicates would count twice)")
				}
				if a.HasOffset {
					nonNegative(t, r, a.MemOffset)
				}
				inLine(t, line, a.Graph)
				for _, kv := range a.Logged {
					inLine(t, line, kv[1])
				}
			case *AppendWs:
				// To replaces row offsets, which must stay non-negative.
				nonNegative(t, r, a.From...)
				nonNegative(t, r, a.To...)
			case *AppendWsSize:
				nonNegative(t, r, a.Origin, a.Last)
			default:
				unexpected(t, r)
			}
		},
	}.run(f)
}

func FuzzVarMem(f *testing.F) {
	fuzzFamily{
		forms: []form{{fzEnv25, "[IMAS]AssignVarMem "}},
		parse: func(env *plog.Envelope, line []byte, m Meta, _ int) Record {
			return parseVarAssign(env, env.Msg, m, line)
		},
		check: func(t *testing.T, r Record, line []byte) {
			v, ok := r.(*VarAssign)
			if !ok {
				unexpected(t, r)
			}
			nonNegative(t, r, v.Size, v.RealSize, v.Offset+1)
			if !slices.Contains([]string{"hbm", "rdma", "host", "reuse"}, v.Kind) {
				t.Fatalf("bad kind %#v", v)
			}
			inLine(t, line, v.Session, v.Name)
		},
	}.run(f)
}

func FuzzMalloc(f *testing.F) {
	fuzzFamily{
		forms: []form{
			{fzEnvMem, "MallocMemory, func="},
			{fzEnvMem, "ActiveMemoryAllocator::"},
			{fzEnvMem, "MemoryAllocator::"},
			{fzEnvMem, "[Malloc][Memory] failed"},
			{fzEnvHP, "rtMallocPhysical success"},
			{fzEnvHP, "aclrtFreePhysical success"},
			{fzEnvMem, "RtMemAllocator::free"},
			{fzEnvMem, "Final StaticMemoryPolicy is set to"},
			{fzEnvMem, "Total memory size is"},
		},
		parse: func(env *plog.Envelope, line []byte, m Meta, _ int) Record {
			return parseMalloc(env, env.Msg, m, line)
		},
		check: func(t *testing.T, r Record, line []byte) {
			switch d := r.(type) {
			case *DeviceMalloc:
				nonNegative(t, r, d.Size)
				if c, counted := MallocCategory(d.Func, d.Purpose); c != d.Category || counted != d.Counted {
					t.Fatalf("category %q/%v, want %q/%v", d.Category, d.Counted, c, counted)
				}
				inLine(t, line, d.Func, d.Purpose)
			case *AllocatorCall:
				nonNegative(t, r, d.Size)
			case *PhysicalPage:
				nonNegative(t, r, d.Current)
			case *DeviceFree:
				nonNegative(t, r, d.Size)
			case *ProcessFact:
				nonNegative(t, r, d.Value)
			default:
				unexpected(t, r)
			}
		},
	}.run(f)
}

func FuzzAddress(f *testing.F) {
	fuzzFamily{
		forms: []form{
			{fzEnvAddr, "[IMAS]InitFeatureMapAndP2PMem "},
			{fzEnvAddr, "[IMAS]InitFeatureMap "},
			{fzEnvAddr, "[IMAS]InitWeightMem "},
			{fzEnvAddr, "[IMAS]graph_"},
			{fzEnvAddr, "[IMAS]GetInputDataAddrs "},
			{fzEnvAddr, "[IMAS]GetOutputDataAddrs "},
			{fzEnvAddr, "[IMAS]GetWorkspaceDataAddrs "},
			{fzEnvAddr, "[IMAS]GetInputConstAddrOffset "},
			{fzEnvAddr, "[IMAS]get failed for "},
			{fzEnvAddr, "[IMAS]InitConstant memcpy "},
			{fzEnvAddr, "[IMAS]Init FileConstant memcpy "},
			{fzEnvAddr, "[IMAS]CopyPlainData memcpy "},
			{fzEnvAddr, "[IMAS]CopyTransData memcpy "},
			{fzEnvAddr, "[IMAS] "},
			{fzEnvAddr, "InitFeatureMapAndP2PMem graph_"},
			{fzEnvAddr, "virtual_active_addr_base:"},
		},
		parse: func(env *plog.Envelope, line []byte, m Meta, _ int) Record {
			if !matchAddress(env, env.Msg) {
				return nil // not a statement of the family, e.g. "[IMAS] " without "get real"
			}
			return parseAddress(env, env.Msg, m, line)
		},
		check: func(t *testing.T, r Record, line []byte) {
			switch a := r.(type) {
			case *Region:
				nonNegative(t, r, a.Size)
			case *OpAddress:
				// -1 stands for "not printed".
				nonNegative(t, r, a.Size+1, a.DataSize+1, a.Offset+1)
				inLine(t, line, a.Name, a.OpType, a.Type)
			case *Ignored:
			default:
				unexpected(t, r)
			}
		},
	}.run(f)
}

func FuzzPool(f *testing.F) {
	fuzzFamily{
		forms: []form{
			{fzEnvKT, "[KernelTrace]["},
			{fzEnvSA, "Malloc block "},
			{fzEnvSA, "Free block "},
			{fzEnvSA, "Device memory   : ["},
			{fzEnvSA, "create caching memory allocator"},
		},
		parse: func(env *plog.Envelope, line []byte, m Meta, _ int) Record {
			return parsePool(env, env.Msg, m, line)
		},
		body: func(t *testing.T, body []byte) {
			for _, marker := range []string{"Malloc block ", "Free block "} {
				checkBlockWords(t, []byte(fzEnvSA+marker+string(body)))
			}
		},
		check: func(t *testing.T, r Record, line []byte) {
			switch p := r.(type) {
			case *PoolAlloc:
				nonNegative(t, r, p.Size, p.TensorSize+1) // -1: not printed
				inLine(t, line, p.Kernel)
			case *PoolFree:
				inLine(t, line, p.Kernel)
			case *PoolBlock:
				nonNegative(t, r, p.Size, p.AllocSize)
				if p.Allocator != "allocator_2" {
					t.Fatalf("allocator tag lost: %#v", p)
				}
			case *PoolDetails:
				// The 2023 form stops after total size: -1 is "not printed".
				nonNegative(t, r, p.AllocCount, p.FreeCount, p.TotalSize,
					p.NewVASize+1, p.RealTheoryMin+1, p.TheoryMin+1)
			case *PoolCreate:
				inLine(t, line, p.Allocator)
			case *Ignored:
			default:
				unexpected(t, r)
			}
		},
	}.run(f)
}

func FuzzDevmm(f *testing.F) {
	fuzzFamily{
		forms: []form{{fzEnvDRV, "svm_mem_stats_show"}},
		parse: func(env *plog.Envelope, line []byte, m Meta, _ int) Record {
			return parseDevmm(env, env.Msg, m, line)
		},
		check: func(t *testing.T, r Record, line []byte) {
			d, ok := r.(*DevmmStat)
			if !ok {
				unexpected(t, r)
			}
			nonNegative(t, r, d.Current, d.Peak, d.Cached, d.Total)
			if !d.IsCached && d.Module == "" {
				t.Fatalf("statistics without a module: %#v", d)
			}
		},
	}.run(f)
}
