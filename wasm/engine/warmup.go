package engine

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"imas/core"
	"imas/core/input"
	"imas/core/model"
)

// Browsers compile WebAssembly in two tiers: code first runs as quickly
// compiled baseline code, and a function is recompiled by the optimizing
// compiler once it has been hot for a while, in the background. Until the
// parsers, the model builder and the analyses have been recompiled, an
// analysis runs at about half speed, so the first analysis after the page
// opened paid for the whole warm-up. WarmUp runs those paths once on a small
// synthetic log while the user is still choosing files.

// Sample is a warm-up analysis' answers as the page receives them after a
// real one: the view, its first graph and that graph's first table page.
// The page's thread builds its results view from it once while idle
// (ui.WarmUp), for the same reason as the engine's warm-up.
type Sample struct {
	View  json.RawMessage `json:"view"`
	Graph json.RawMessage `json:"graph"`
	Page  json.RawMessage `json:"page"`
}

// WarmUp analyses a synthetic log of about size bytes in a session of its
// own, and builds and encodes its view, first graph and first table page of
// pageSize rows as an analysis' answers do (so that the view's JSON code is
// compiled before the first real answer); it returns them as a Sample.
func WarmUp(ctx context.Context, size, pageSize int) (*Sample, error) {
	s := NewSession()
	// Every chunk goes through the parse workers' codec, in process, so
	// that the decoding of parsed chunks is optimised code before the
	// first analysis with parse workers (the parsing in the workers shares
	// the module's optimised code).
	s.Parser, s.Parsers, s.alwaysParser = inProcessParser(), 1, true
	if _, err := s.Analyze(ctx, SlotRun, []input.Source{input.BytesSource("warm-up.log", warmUpLog(size))}, nil); err != nil {
		return nil, err
	}
	v, err := s.View(SlotRun)
	if err != nil {
		return nil, err
	}
	var sm Sample
	if sm.View, err = json.Marshal(v); err != nil {
		return nil, err
	}
	g, err := s.Graph(SlotRun, 0)
	if err != nil {
		return nil, err
	}
	if sm.Graph, err = json.Marshal(g); err != nil {
		return nil, err
	}
	p, err := s.Tensors(TensorQuery{Slot: SlotRun, PageSize: pageSize, Focus: -1})
	if err != nil {
		return nil, err
	}
	sm.Page, err = json.Marshal(p)
	return &sm, err
}

// warmUpLog writes graphs of Set rows with their continuous, atomic and
// summary lines, load-time addresses and mallocs, between noise lines, in
// the 2025 templates, until the log has about size bytes.
func warmUpLog(size int) []byte {
	const env = "[INFO] GE(4242,python3):2026-01-01-00:00:00.000.000 [block_mem_assigner.cc:2914]4243 "
	ops := [...]string{"MatMul", "Add", "Relu", "Conv2D", "Cast", "LayerNorm", "Gelu", "Transpose"}
	b := make([]byte, 0, size+4096)
	num := strconv.AppendInt
	for g := 0; len(b) < size; g++ {
		graph := "warm_graph_" + strconv.Itoa(g)
		offset := int64(0)
		for i := 0; i < 400; i++ {
			op := ops[i%len(ops)]
			node := op + "_" + strconv.Itoa(i)
			rsize := int64(512*(1+i%37) + 32)
			bsize := model.Align512(rsize)
			for _, kind := range [...]string{"output", "workspace"} {
				b = append(b, env+"SetOffsetSize:[IMAS]Set "+graph+" name["+node+"] optype["+op+"] "+kind+"[0] offset to ["...)
				b = num(b, offset, 10)
				b = append(b, "] streamid["...)
				b = num(b, int64(i%3), 10)
				b = append(b, "] memtype[2] size["...)
				b = num(b, bsize, 10)
				b = append(b, "] realsize["...)
				b = num(b, rsize, 10)
				b = append(b, "] noalignsize["...)
				b = num(b, rsize-40, 10)
				b = append(b, "] life time begin["...)
				b = num(b, int64(i), 10)
				b = append(b, "] life time end["...)
				b = num(b, int64(i+1+i%5), 10)
				b = append(b, "] child[0:1:0:0:1] isref[0] batch[], block_type[]\n"...)
				offset = (offset + bsize) % (64 << 20)
			}
			b = append(b, env+"OptimizeSubgraph:Optimize subgraph "+strconv.Itoa(i)+" with engine AIcoreEngine success.\n"...)
			if i%50 == 0 {
				b = append(b, env+"AssignContinuousInputMemory:[IMAS]Continuous input : Set "+graph+" name["+node+"] optype["+op+"] output[0] offset to [1024] stream_id[0] memtype[2] size[0] realsize[1408] nopadding[0]\n"...)
				b = append(b, env+"AssignAtomicOutputMemory:[IMAS]Atomic output : Set "+graph+" name["+node+"] optype["+op+"] output[0] offset to [2048] stream_id[0] memtype[2] size[6144] real_size[5880] batch[].\n"...)
			}
		}
		b = append(b, env+"SetInputOffset:[IMAS]AfterAssignMemory : "+graph+" memoffset[67108864], memtype[2], theory_min[1048576], zero_copy[0], total_size[2097152], no_reuse[0], streams[3], topo_mode[RDFS], mop[], io_reuse[0:0], alloc_mode[], smp[0]\n"...)
		b = append(b, env+"MallocMemory:MallocMemory, func=aclrtMalloc, size=67108864, purpose=feature map,used for op input and output, ptr=0x12c1d7800000, device_id=0, module_id=45\n"...)
		id := strconv.Itoa(g)
		b = append(b, env+"InitFeatureMapAndP2PMem:[IMAS]InitFeatureMapAndP2PMem graph_"+id+" MallocMemory type[F] memaddr[0x12c1d7800000] mem_size[67108864]Bytes\n"...)
		for i := 0; i < 40; i++ {
			b = append(b, env+"GetOutputDataAddrs:[IMAS]graph_"+id+" type[F] name["+ops[i%len(ops)]+"_"+strconv.Itoa(i)+"] output[0] offset[2048] size[4128] memaddr[0x12c1d7800800]\n"...)
		}
	}
	return b
}

// inProcessParser parses chunks as a parse worker does, in this instance.
func inProcessParser() core.ChunkParser {
	var mu sync.Mutex
	var w core.ChunkWorker
	return func(_ context.Context, head, data []byte) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		return w.Parse(append(head, data...))
	}
}
