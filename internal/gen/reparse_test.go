package gen

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// This file re-reads the generated logs with an independent, minimal
// parser written straight from docs/figures.md and recomputes every
// truth figure. It shares no code with the generator's model (only the
// file list and the injection list of the truth), so a line printed with a
// value the model did not use, or a truth figure computed with a rule that
// differs from docs/figures.md, fails here.

const envRe = `^\[(INFO|DEBUG|EVENT)\] GE\((\d+),[^)]*\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} `

// setRes are the full [IMAS]Set line templates by generation.
var setRes = map[Generation]*regexp.Regexp{
	Gen2025: regexp.MustCompile(envRe + `\[block_mem_assigner\.cc:2914\](\d+) SetOffsetSize:\[IMAS\]Set (\S+) name\[(.+)\] optype\[(\w+)\] (output|workspace)\[(\d+)\] offset to \[(\d+)\] streamid\[(-?\d+(?:--\d+)?)\] memtype\[(\d+)\] size\[(\d+)\] realsize\[(\d+)\] noalignsize\[(\d+)\] life time begin\[(\d+(?:--\d+)?)\] life time end\[(\d+(?:--\d+)*)\] child\[(\d+):([01]):([01]):([01]):([01])\] isref\[([01])\] batch\[\], block_type\[((?:data |concentrate_atomic )*)\]$`),
	Gen2021: regexp.MustCompile(envRe + `\[block_mem_assigner\.cc:2156\](\d+) SetOffsetSize:\[IMAS\]Set (\S+) name\[(.+)\] optype\[(\w+)\] (output|workspace)\[(\d+)\] offset to \[(\d+)\] streamid\[(-?\d+)\] memtype\[(\d+)\] size\[(\d+)\] realsize\[(\d+)\] noalignsize\[(\d+)\] life time begin\[(\d+(?:-\d+)?)\] life time end\[(\d+)\] child\[(\d+):([01]):([01]):([01]):([01])\] isref\[([01])\] batch\[\] scope\[-1\]$`),
	Gen2020: regexp.MustCompile(envRe + `\[block_mem_assigner\.cc:2156\]SetOffsetSize:\[IMAS\]Set (\S+) name\[(.+)\] (output|workspace)\[(\d+)\] offset to \[(\d+)\] streamid\[(-?\d+)\] size\[(\d+)\] realsize\[(\d+)\] noalignsize\[(\d+)\] life time begin\[(\d+)\] life time end\[(\d+)\] child\[(\d+):([01]):([01]):([01]):([01])\] isref\[([01])\] batch\[\]$`),
}

// setField extracts named fields from the generic part of a Set message
// (everything up to and including isref[..]); it works on lines cut after
// isref too.
var (
	reGraphName = regexp.MustCompile(`\[IMAS\]Set (\S+) name\[`)
	reName      = regexp.MustCompile(` name\[(.+?)\] (?:optype\[\w+\] )?(output|workspace)\[(\d+)\] offset to \[`)
	reFieldNum  = map[string]*regexp.Regexp{}
)

func field(msg, name string) string {
	re := reFieldNum[name]
	if re == nil {
		re = regexp.MustCompile(`[ \]]` + regexp.QuoteMeta(name) + `\[([^\]]*)\]`)
		reFieldNum[name] = re
	}
	m := re.FindAllStringSubmatch(msg, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

func nums(s, sep string) []int64 {
	var out []int64
	if sep == "-" {
		s = strings.ReplaceAll(s, "--", "-")
	}
	for _, p := range strings.Split(s, sep) {
		if p == "" {
			continue
		}
		v, err := strconv.ParseInt(p, 10, 64)
		if err == nil {
			out = append(out, v)
		}
	}
	return out
}

func i64(s string) int64 {
	v, _ := strconv.ParseInt(s, 10, 64)
	return v
}

type prow struct {
	key, node, kind             string
	idx                         string
	offset, size, real          int64
	begin, end                  int64
	stream                      int64
	reuse, cont, zc, isref, mem int64
}

type pgraph struct {
	pid, name, inst string
	rows            map[int64][]*prow // by memtype, print order
	cont            map[string]int64  // node:idx -> continuous line offset
	contMembers     map[int64]int64
	atomic          int64
	summary         map[int64]string // memtype -> AfterAssignMemory message
	trunc           map[int64]int64
	zcBuild         int64 // BuildModelDef's zero_copy_mem_size_ (2020)
	hasZCBuild      bool
}

type paddr struct {
	base, size uint64
	checked    int64
	invalid    []BadAddress
	gid        int
}

type reparsed struct {
	graphs []*pgraph
	vars   map[string]*VarTruth
	malloc map[string]int64
	region []string
	addrs  map[string]*paddr
	pools  map[string]*PoolTruth
	devmm  []string
}

var (
	reAfter  = regexp.MustCompile(`\[IMAS\]AfterAssignMemory : (\S+) memoffset\[(\d+)\](?:, memtype\[(\d+)\])?`)
	reCont   = regexp.MustCompile(`\[IMAS\]Continuous input : Set (\S+) name\[(.+?)\] (?:optype\[\w+\] )?output\[(\d+)\] offset to \[(\d+)\](?:.* memtype\[(\d+)\])?`)
	reAtomic = regexp.MustCompile(`\[IMAS\]Atomic (?:output|ordinary workspace|fusion workspace) : Set (\S+) .* real_size\[(\d+)\]`)
	reVar    = regexp.MustCompile(`\[IMAS\]AssignVarMem Set session_(\d+) name\[.*\] output\[0\] ?offset to \[(\d+)\] size\[(\d+)\] realsize\[(\d+)\]\.$`)
	reMalloc = regexp.MustCompile(`MallocMemory, func=(\w+), size=(\d+), purpose=(.*)$`)
	reRegion = regexp.MustCompile(`\[IMAS\]InitFeatureMapAndP2PMem graph_(\d+) MallocMemory type\[F\] memaddr\[(0x[0-9a-f]+)\] mem_size\[(\d+)\]`)
	reAddr   = regexp.MustCompile(`\[IMAS\](?:Get\w+DataAddrs )?graph_(\d+) type\[F\] name\[(.+)\] (output|workspace)\[(\d+)\] .*memaddr\[(0x[0-9a-f]+)\]$`)
	reCreate = regexp.MustCompile(`\](\d+) CachingMemAllocator:create caching memory allocator, \[(allocator_\d+)\]$`)
	reMBlock = regexp.MustCompile(`\](\d+) (?:\[(allocator_\d+)\] )?Alloc:Malloc block device_id:0 size:\d+ allocate_size:\d+ mem_addr:(0x[0-9a-f]+)\.`)
	reKAlloc = regexp.MustCompile(`\](\d+) AllocHbmMem:\[KernelTrace\]\[[^\]]*\]\[MEM\]Alloc memory at stream \d+, block 0x[0-9a-f]+, address (0x[0-9a-f]+), size (\d+),`)
	reKFree  = regexp.MustCompile(`\[KernelTrace\]\[[^\]]*\]\[MEM\]Free memory(?: at stream -?\d+)?, address (0x[0-9a-f]+)$`)
	// 2023: "Alloc memory block <p>, address[ =] <p>, size = <n>[, as model out memory]"
	reKAlloc23 = regexp.MustCompile(`\](\d+) AllocHbmMem:\[KernelTrace\]\[[^\]]*\]\[MEM\]Alloc memory block 0x[0-9a-f]+, address(?: =)? (0x[0-9a-f]+), size = (\d+)(?:, as model out memory)?$`)
	reDevmm23  = regexp.MustCompile(`\[_devmm_mem_stats_show \d+\](\w+)((?: dev\d+)?) mem stats\(Bytes\): module_name=(\w+), module_id=\d+ current_alloced_size=(\d+), alloced_peak_size=(\d+)\.$`)
	// 2020 zero-copy: the offsets before and after the zero-copy blocks, and BuildModelDef's size
	reZeroCopy = regexp.MustCompile(`mem_offset_ (include|exclude) zero_copy_memory is (\d+)\.$|BuildModelDef:For model, max_mem_offset_: \d+, zero_copy_mem_size_: (\d+)$`)
	reDevmm    = regexp.MustCompile(`\[_svm_mem_stats_show(?: \d+)?\](\w+)(?: dev\d+)? Mem stats \(Bytes\)\. \(module_name=(\w+); module_id=\d+; current_alloced_size=(\d+); (?:allocated|alloced)_peak_size=(\d+);`)
	reOffset   = regexp.MustCompile(`offset to \[(\d+)\]`)
	rePidFile  = regexp.MustCompile(`plog-(\d+)_\d{17}\.log$`)
)

var categories = map[string]string{
	"feature map,used for op input and output": "StaticGraph", "feature map,used for op input and output.": "StaticGraph",
	"RT_MEMORY_P2P_HBM": "StaticGraph", "p2p memory, used for some op related to hcom or session scope memory": "StaticGraph",
	"Memory for session scope": "StaticGraph", "Memory for session scope.": "StaticGraph", "RT_MEMORY_HBM fixed feature base": "StaticGraph",
	"fixed_base_expandable_memory": "StaticGraph", "page caching": "MemoryPool", "Memory for caching": "MemoryPool", "Memory for caching.": "MemoryPool",
	"Auto malloc var and constant op memory": "Variable", "variables and constant op memory in training network.": "Variable",
	"Memory for rdma pool": "Variable", "Memory for rdma pool.": "Variable", "weights memory in inference network": "Weights",
	"weights memory in inference network.": "Weights", "fileconstant memory in inference network": "Weights",
	"malloc weights memory on model execute.": "Weights", "davinci_model_load": "davinci_model_load",
}

// reparse reads every generated file of a truth back.
func reparse(t *testing.T, dir string, tr *Truth) *reparsed {
	t.Helper()
	rp := &reparsed{vars: map[string]*VarTruth{}, malloc: map[string]int64{}, addrs: map[string]*paddr{}, pools: map[string]*PoolTruth{}}
	rejected := map[string]bool{}
	for _, in := range tr.Injections {
		if in.Kind == InjTruncRejected {
			rejected[fmt.Sprintf("%s:%d", in.File, in.Line)] = true
		}
	}
	type key struct{ pid, name string }
	current := map[key]*pgraph{}
	done := map[key]int{}
	seenEvent := map[string]bool{}
	// pool state per pid
	threadAlloc := map[string]string{}
	blockAlloc := map[string]string{}
	type live struct {
		alloc string
		size  int64
	}
	lives := map[string]live{}
	poolCur := map[string]int64{}
	devmmSeen := map[string]bool{}
	zcPending := map[string]int64{}
	lastGraph := map[string]*pgraph{}
	files := append([]FileTruth(nil), tr.Files...)
	// Run logs and debug logs of one pid are merged by the order GE wrote
	// them: only GEEVENT lines live in both, and they are de-duplicated.
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Name)))
		if err != nil {
			t.Fatal(err)
		}
		m := rePidFile.FindStringSubmatch(f.Name)
		if m == nil {
			t.Fatalf("file name %s", f.Name)
		}
		pid := m[1]
		lines := bytes.Split(b, []byte("\n"))
		if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		for i, lb := range lines {
			line := strings.TrimSuffix(string(lb), "\r")
			ln := fmt.Sprintf("%s:%d", f.Name, i+1)
			at := strings.Index(line, "[IMAS]")
			if at >= 0 {
				msg := line[at:]
				if strings.Contains(line, "[IMAS]AfterAssignMemory") || strings.Contains(line, "InitFeatureMapAndP2PMem") {
					// GEEVENT: count once per (pid, message).
					if seenEvent[pid+msg] {
						continue
					}
					seenEvent[pid+msg] = true
				}
				switch {
				case strings.HasPrefix(msg, "[IMAS]Set "):
					gm := reGraphName.FindStringSubmatch(msg)
					k := key{pid, gm[1]}
					g := current[k]
					if g == nil || len(g.summary) > 0 {
						inst := gm[1]
						if n := done[k]; n > 0 {
							inst += "#" + strconv.Itoa(n+1)
						}
						g = &pgraph{pid: pid, name: gm[1], inst: inst, rows: map[int64][]*prow{}, cont: map[string]int64{},
							contMembers: map[int64]int64{}, summary: map[int64]string{}, trunc: map[int64]int64{}}
						current[k] = g
						rp.graphs = append(rp.graphs, g)
					}
					mem := int64(2)
					if v := field(msg, "memtype"); v != "" {
						mem = i64(v)
					}
					if rejected[ln] {
						g.trunc[mem]++
						continue
					}
					nm := reName.FindStringSubmatch(msg)
					r := &prow{key: nm[1] + ":" + nm[2] + ":" + nm[3], node: nm[1], kind: nm[2], idx: nm[3], mem: mem,
						offset: i64(reOffset.FindStringSubmatch(msg)[1]), size: i64(field(msg, "size")), real: i64(field(msg, "realsize")),
						isref: i64(field(msg, "isref"))}
					sd := nums(field(msg, "streamid"), "--")
					r.stream = sd[len(sd)-1]
					bs, es := nums(field(msg, "begin"), "-"), nums(field(msg, "end"), "-")
					r.begin, r.end = bs[0], es[0]
					for _, v := range bs {
						r.begin = min(r.begin, v)
					}
					for _, v := range es {
						r.end = max(r.end, v)
					}
					c := nums(field(msg, "child"), ":")
					r.reuse, r.cont, r.zc = c[1], c[2], c[3]
					g.rows[mem] = append(g.rows[mem], r)
					lastGraph[pid] = g
				case strings.HasPrefix(msg, "[IMAS]Continuous input"):
					cm := reCont.FindStringSubmatch(msg)
					g := current[key{pid, cm[1]}]
					g.cont[cm[2]+":"+cm[3]] = i64(cm[4])
					mem := int64(2)
					if cm[5] != "" {
						mem = i64(cm[5])
					}
					g.contMembers[mem]++
				case strings.HasPrefix(msg, "[IMAS]Atomic "):
					am := reAtomic.FindStringSubmatch(msg)
					current[key{pid, am[1]}].atomic += align512(i64(am[2]))
				case strings.HasPrefix(msg, "[IMAS]AfterAssignMemory"):
					sm := reAfter.FindStringSubmatch(msg)
					k := key{pid, sm[1]}
					mem := int64(2)
					if sm[3] != "" {
						mem = i64(sm[3])
					}
					g := current[k]
					if len(g.summary) == 0 {
						done[k]++
					}
					g.summary[mem] = msg
				case strings.HasPrefix(msg, "[IMAS]AssignVarMem"):
					vm := reVar.FindStringSubmatch(msg)
					if vm == nil {
						t.Errorf("%s: bad AssignVarMem %q", ln, msg)
						continue
					}
					vk := pid + "/" + vm[1]
					v := rp.vars[vk]
					if v == nil {
						v = &VarTruth{Session: int(i64(vm[1]))}
						rp.vars[vk] = v
					}
					v.Count++
					v.SizeSum += i64(vm[3])
					v.AreaEnd = max(v.AreaEnd, i64(vm[2])+i64(vm[3]))
				case strings.HasPrefix(msg, "[IMAS]InitFeatureMapAndP2PMem"):
					rm := reRegion.FindStringSubmatch(msg)
					rp.region = append(rp.region, fmt.Sprintf("%s/%s %s %s", pid, rm[1], rm[2], rm[3]))
					base, _ := strconv.ParseUint(rm[2][2:], 16, 64)
					rp.addrs[pid+"/"+rm[1]] = &paddr{gid: int(i64(rm[1])), base: base, size: uint64(i64(rm[3]))}
				default:
					if am := reAddr.FindStringSubmatch(msg); am != nil {
						a := rp.addrs[pid+"/"+am[1]]
						addr, _ := strconv.ParseUint(am[5][2:], 16, 64)
						if addr < a.base || addr >= a.base+a.size {
							a.invalid = append(a.invalid, BadAddress{GraphID: a.gid, Name: am[2], Kind: am[3], Index: int(i64(am[4])), MemAddr: am[5]})
						}
						a.checked++
					}
				}
				continue
			}
			if mm := reMalloc.FindStringSubmatch(line); mm != nil {
				purpose := mm[3]
				if k := strings.Index(purpose, ", ptr="); k >= 0 {
					purpose = purpose[:k]
				}
				if mm[1] == "AllocatorMalloc" || mm[1] == "malloc" || mm[1] == "new" || purpose == "rt2 memory pool" {
					continue
				}
				cat := categories[purpose]
				if cat == "" {
					cat = "Other"
				}
				rp.malloc[pid+"/"+cat] += i64(mm[2])
				continue
			}
			if cm := reCreate.FindStringSubmatch(line); cm != nil {
				threadAlloc[pid+"/"+cm[1]] = cm[2]
				continue
			}
			if bm := reMBlock.FindStringSubmatch(line); bm != nil {
				a := bm[2]
				if a == "" {
					a = threadAlloc[pid+"/"+bm[1]]
				}
				blockAlloc[pid+"/"+bm[3]] = a
				continue
			}
			km := reKAlloc.FindStringSubmatch(line)
			if km == nil {
				km = reKAlloc23.FindStringSubmatch(line)
			}
			if km != nil {
				a := blockAlloc[pid+"/"+km[2]]
				pk := pid + "/" + a
				p := rp.pools[pk]
				if p == nil {
					p = &PoolTruth{Allocator: a}
					rp.pools[pk] = p
				}
				sz := i64(km[3])
				p.Allocs++
				p.Total += sz
				poolCur[pk] += sz
				p.PeakLive = max(p.PeakLive, poolCur[pk])
				lives[pid+"/"+km[2]] = live{a, sz}
				continue
			}
			if fm := reKFree.FindStringSubmatch(line); fm != nil {
				lv, ok := lives[pid+"/"+fm[1]]
				if !ok {
					t.Errorf("%s: free of unknown address", ln)
					continue
				}
				delete(lives, pid+"/"+fm[1])
				pk := pid + "/" + lv.alloc
				rp.pools[pk].Frees++
				poolCur[pk] -= lv.size
				continue
			}
			if dm := reDevmm.FindStringSubmatch(line); dm != nil {
				rp.devmm = append(rp.devmm, fmt.Sprintf("%s/%s/%s peak=%s current=%s", pid, dm[1], dm[2], dm[4], dm[3]))
			}
			if dm := reDevmm23.FindStringSubmatch(line); dm != nil {
				// The dump may be printed twice: each entry once.
				k := pid + "/" + dm[1] + dm[2] + "/" + dm[3]
				if !devmmSeen[k] {
					devmmSeen[k] = true
					rp.devmm = append(rp.devmm, fmt.Sprintf("%s/%s/%s peak=%s current=%s", pid, dm[1], dm[3], dm[5], dm[4]))
				}
			}
			if zm := reZeroCopy.FindStringSubmatch(line); zm != nil {
				// Offsets wait for the graph; BuildModelDef names the last
				// graph of the process, and must agree with them.
				switch {
				case zm[1] != "":
					zcPending[pid+"/"+zm[1]] = i64(zm[2])
				case lastGraph[pid] == nil:
					t.Errorf("%s: BuildModelDef before any graph", ln)
				default:
					g := lastGraph[pid]
					g.zcBuild, g.hasZCBuild = i64(zm[3]), true
					if in, ex := zcPending[pid+"/include"], zcPending[pid+"/exclude"]; in-ex != g.zcBuild {
						t.Errorf("%s: zero_copy_mem_size_ %d, offsets %d - %d", ln, g.zcBuild, in, ex)
					}
					delete(zcPending, pid+"/include")
					delete(zcPending, pid+"/exclude")
				}
			}
		}
	}
	return rp
}

// figures recomputes the figures of one reparsed graph memtype.
func (g *pgraph) figures(mem int64, gen Generation) GraphTruth {
	rows := g.rows[mem]
	gt := GraphTruth{Graph: g.inst, MemType: int(mem), Atomic: 0, ContinuousMembers: g.contMembers[mem], TruncatedRows: g.trunc[mem]}
	if mem == 2 {
		gt.Atomic = g.atomic
	}
	seen := map[string]bool{}
	var counted []*prow
	for _, r := range rows {
		if r.isref == 1 {
			gt.IsrefTensors++
		}
		if r.isref != 0 || r.real <= 0 || seen[r.key] {
			continue
		}
		seen[r.key] = true
		counted = append(counted, r)
		gt.TensorKeys = append(gt.TensorKeys, r.key)
		gt.Total += r.real
		gt.GETotal += align512(r.real)
		if r.reuse == 0 {
			gt.NoReuse += align512(r.real)
		}
	}
	sort.Strings(gt.TensorKeys)
	gt.Tensors = int64(len(counted))
	// theory_min by brute force over every time step.
	var tmax int64
	streams := map[int64]bool{}
	for _, r := range counted {
		if r.reuse == 1 {
			streams[r.stream] = true
			if r.end < 4294967294 {
				tmax = max(tmax, r.end)
			}
		}
	}
	var peak int64
	for tt := int64(0); tt <= tmax; tt++ {
		var s int64
		for _, r := range counted {
			e := r.end
			if e >= 4294967294 {
				e = tmax
			}
			if r.reuse == 1 && r.begin <= tt && tt <= e {
				s += align512(r.real)
			}
		}
		peak = max(peak, s)
	}
	gt.TheoryMin = peak + gt.NoReuse + gt.Atomic
	gt.Streams = int64(len(streams))
	zb := map[int64]bool{}
	for _, r := range rows {
		if r.zc == 1 && !zb[r.offset] {
			zb[r.offset] = true
			gt.ZeroCopy += r.size
		}
	}
	if g.hasZCBuild {
		gt.ZeroCopy = g.zcBuild
	}
	if s, ok := g.summary[mem]; ok {
		gt.MemorySize = i64(reAfter.FindStringSubmatch(s)[2])
		gt.Logged = []string{"memory_size"}
		if zc := field(s, "zero_copy"); zc != "" {
			gt.ZeroCopy = i64(zc)
			gt.Logged = append(gt.Logged, "theory_min", "ge_total", "no_reuse", "zero_copy", "streams")
			gt.Topo = field(s, "topo_mode")
			if i64(field(s, "theory_min")) != gt.TheoryMin || i64(field(s, "total_size")) != gt.GETotal ||
				i64(field(s, "no_reuse")) != gt.NoReuse || i64(field(s, "streams")) != gt.Streams {
				gt.Topo = "logged-mismatch"
			}
		}
	} else {
		for _, r := range rows {
			gt.MemorySize = max(gt.MemorySize, r.offset+r.size)
		}
	}
	if mem != 2 {
		gt.ZeroCopy = 0
	}
	gt.AfterReuse = gt.MemorySize
	if gt.Total > 0 {
		gt.ReuseRate = Rate(round2(max(0, float64(gt.Total-gt.AfterReuse)/float64(gt.Total)) * 100))
	}
	if gt.AfterReuse > 0 {
		gt.ReachTheoryRate = Rate(round2(min(100, float64(gt.TheoryMin)/float64(gt.AfterReuse)*100)))
	}
	// conflicts, brute force over all pairs.
	target := map[int]int{}
	last := map[int64]int{}
	for i, r := range rows {
		if r.isref == 1 {
			if j, ok := last[r.offset]; ok {
				target[i] = j
			} else {
				target[i] = -1
			}
			continue
		}
		last[r.offset] = i
	}
	occ := func(r *prow) (int64, int64) {
		if o, ok := g.cont[r.node+":"+r.idx]; ok && r.cont == 1 && r.kind == "output" {
			return o, o + align512(r.real)
		}
		return r.offset, r.offset + r.size
	}
	set := map[[2]string]bool{}
	for i, a := range rows {
		for j := i + 1; j < len(rows); j++ {
			b := rows[j]
			if a.zc == 1 || b.zc == 1 {
				continue
			}
			alo, ahi := occ(a)
			blo, bhi := occ(b)
			if !(alo < bhi && blo < ahi) || a.begin > b.end || b.begin > a.end {
				continue
			}
			ta, oka := target[i]
			tb, okb := target[j]
			if (oka && ta == j) || (okb && tb == i) || (oka && okb && ta == tb && ta >= 0) {
				continue
			}
			p := [2]string{a.key, b.key}
			if p[1] < p[0] {
				p[0], p[1] = p[1], p[0]
			}
			set[p] = true
		}
	}
	for p := range set {
		gt.Conflicts = append(gt.Conflicts, p)
	}
	sort.Slice(gt.Conflicts, func(i, j int) bool {
		return gt.Conflicts[i][0] < gt.Conflicts[j][0] || gt.Conflicts[i][0] == gt.Conflicts[j][0] && gt.Conflicts[i][1] < gt.Conflicts[j][1]
	})
	return gt
}

var seeds = flag.Int("seeds", 0, "also check this many extra seeds per profile")

func TestReparseMatchesTruth(t *testing.T) {
	for _, name := range smallProfiles {
		for s := 0; s <= *seeds; s++ {
			t.Run(fmt.Sprintf("%s/%d", name, s), func(t *testing.T) { checkReparse(t, name, int64(s)) })
		}
	}
}

func checkReparse(t *testing.T, name string, seed int64) { checkReparseSized(t, name, seed, 0) }

// checkReparseSized generates the profile (size: the sized profiles'
// target), reads its lines back and compares them with the truth.
func checkReparseSized(t *testing.T, name string, seed, size int64) {
	dir := t.TempDir()
	p, err := ProfileByName(name, seed, size)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Generate(p, dir)
	if err != nil {
		t.Fatal(err)
	}
	if name != "conflicts" {
		for _, g := range tr.Graphs {
			if len(g.Conflicts) > 0 {
				t.Errorf("seed %d: %d/%s/%d has conflicts %v", seed, g.PID, g.Graph, g.MemType, g.Conflicts)
			}
		}
	}
	rp := reparse(t, dir, tr)
	// graphs
	want := map[string]GraphTruth{}
	for _, g := range tr.Graphs {
		want[fmt.Sprintf("%d/%s/%d", g.PID, g.Graph, g.MemType)] = g
	}
	got := 0
	for _, g := range rp.graphs {
		for mem := range g.rows {
			k := fmt.Sprintf("%s/%s/%d", g.pid, g.inst, mem)
			w, ok := want[k]
			if !ok {
				t.Errorf("reparsed graph %s not in truth", k)
				continue
			}
			got++
			r := g.figures(mem, tr.Generations[w.PID])
			if r.Topo == "logged-mismatch" {
				t.Errorf("%s: AfterAssignMemory figures differ from the rows", k)
			}
			r.PID = w.PID
			cmp := func(what string, a, b any) {
				if fmt.Sprint(a) != fmt.Sprint(b) {
					t.Errorf("%s %s: reparsed %v, truth %v", k, what, a, b)
				}
			}
			cmp("memory_size", r.MemorySize, w.MemorySize)
			cmp("after_reuse", r.AfterReuse, w.AfterReuse)
			cmp("total", r.Total, w.Total)
			cmp("ge_total", r.GETotal, w.GETotal)
			cmp("no_reuse", r.NoReuse, w.NoReuse)
			cmp("atomic", r.Atomic, w.Atomic)
			cmp("theory_min", r.TheoryMin, w.TheoryMin)
			cmp("zero_copy", r.ZeroCopy, w.ZeroCopy)
			cmp("streams", r.Streams, w.Streams)
			cmp("tensors", r.Tensors, w.Tensors)
			cmp("reuse_rate", r.ReuseRate, w.ReuseRate)
			cmp("reach_theory_rate", r.ReachTheoryRate, w.ReachTheoryRate)
			cmp("conflicts", r.Conflicts, w.Conflicts)
			cmp("continuous_members", r.ContinuousMembers, w.ContinuousMembers)
			cmp("isref_tensors", r.IsrefTensors, w.IsrefTensors)
			cmp("tensor_keys", r.TensorKeys, w.TensorKeys)
			cmp("truncated_rows", r.TruncatedRows, w.TruncatedRows)
			cmp("logged", r.Logged, w.Logged)
			cmp("topo", r.Topo, w.Topo)
		}
	}
	if got != len(tr.Graphs) {
		t.Errorf("reparsed %d graph memtypes, truth has %d", got, len(tr.Graphs))
	}
	// variables
	var gv, wv []string
	for k, v := range rp.vars {
		gv = append(gv, fmt.Sprintf("%s %d %d %d", k, v.Count, v.SizeSum, v.AreaEnd))
	}
	for _, v := range tr.Variables {
		wv = append(wv, fmt.Sprintf("%d/%d %d %d %d", v.PID, v.Session, v.Count, v.SizeSum, v.AreaEnd))
	}
	sameSet(t, "variables", gv, wv)
	// mallocs per pid and category
	wm := map[string]int64{}
	for _, m := range tr.Malloc {
		wm[fmt.Sprintf("%d/%s", m.PID, m.Category)] += m.Bytes
	}
	sameSet(t, "malloc", mapSet(rp.malloc), mapSet(wm))
	// regions and addresses
	var wr []string
	for _, r := range tr.Regions {
		wr = append(wr, fmt.Sprintf("%d/%d %s %d", r.PID, r.GraphID, r.Base, r.Size))
	}
	sameSet(t, "regions", rp.region, wr)
	var ga, wa []string
	for k, a := range rp.addrs {
		ga = append(ga, fmt.Sprintf("%s checked=%d invalid=%v", k, a.checked, a.invalid))
	}
	for _, a := range tr.Addresses {
		wa = append(wa, fmt.Sprintf("%d/%d checked=%d invalid=%v", a.PID, a.GraphID, a.Checked, nilIfEmpty(a.Invalid)))
	}
	sameSet(t, "addresses", ga, wa)
	// pools
	var gp, wp []string
	for k, p := range rp.pools {
		gp = append(gp, fmt.Sprintf("%s %d %d %d %d %d", k, p.Allocs, p.Frees, p.Total, p.PeakLive, p.Allocs-p.Frees))
	}
	for _, p := range tr.Pools {
		wp = append(wp, fmt.Sprintf("%d/%s %d %d %d %d %d", p.PID, p.Allocator, p.Allocs, p.Frees, p.Total, p.PeakLive, p.Leaked))
	}
	sameSet(t, "pools", gp, wp)
	var wd []string
	for _, d := range tr.Devmm {
		wd = append(wd, fmt.Sprintf("%d/%s/%s peak=%d current=%d", d.PID, d.MemType, d.Module, d.Peak, d.Current))
	}
	sameSet(t, "devmm", rp.devmm, wd)
}

func nilIfEmpty(b []BadAddress) []BadAddress {
	if len(b) == 0 {
		return nil
	}
	return b
}

func mapSet(m map[string]int64) []string {
	var s []string
	for k, v := range m {
		s = append(s, k+"="+strconv.FormatInt(v, 10))
	}
	return s
}

func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}
