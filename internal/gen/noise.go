package gen

import "strconv"

// markers are the statement markers of docs/figures.md#candidates and of the imas
// core (gelog.Markers); noise lines never contain any of them.
var markers = []string{
	"[IMAS]", "MallocMemory", "MemoryAllocator::", "[KernelTrace][", "Malloc block ", "Free block ",
	"Device memory   : [", "_svm_mem_stats_show", "create caching memory allocator", "virtual_active_addr_base:",
	"InitFeatureMapAndP2PMem", "rtMallocPhysical success", "aclrtFreePhysical success", "Reuse result:",
	"after append ws, origin memory size", "Final StaticMemoryPolicy", "Total memory size is", "RtMemAllocator::free",
	"svm_mem_stats_show", "_devmm_mem_stats_show", "zero_copy_mem", "PrintDetails:", "DeviceAllocator::",
}

var noiseOps = []string{"Add", "Mul", "Sub", "RealDiv", "Relu", "Gelu", "Softmax", "LayerNorm", "MatMul",
	"BatchMatMul", "ConvND", "Cast", "TransData", "Transpose", "ReduceSum"}

var noiseLower = []string{"add", "mul", "sub", "realdiv", "relu", "gelu", "softmax", "layernorm", "matmul",
	"batchmatmul", "conv2d", "cast", "transdata", "transpose", "reducesum"}

// noise writes the unrelated lines that follow a statement (NoiseRatio on
// average).
func (p *proc) noise() {
	ratio := p.g.p.NoiseRatio
	if ratio <= 0 {
		return
	}
	n := int(ratio)
	if p.r.chance(ratio - float64(n)) {
		n++
	}
	p.noiseN(p.r.intn(2*n + 1))
}

func (p *proc) noiseN(n int) {
	for ; n > 0; n-- {
		p.emitNoise()
	}
}

func (p *proc) geNoiseHead(b []byte, level, file string, lno int64) []byte {
	b = p.header(b, level, "GE", p.tick())
	b = append(b, '[')
	b = append(b, file...)
	b = append(b, ':')
	b = strconv.AppendInt(b, lno, 10)
	b = append(b, ']')
	if p.gen != Gen2020 {
		b = strconv.AppendInt(b, int64(p.tid), 10)
		b = append(b, ' ')
	}
	return b
}

// emitNoise writes one realistic line that is not a statement.
func (p *proc) emitNoise() {
	r := p.r
	b := p.buf[:0]
	k := r.intn(len(noiseOps))
	switch r.intn(11) {
	case 0, 1:
		b = p.geNoiseHead(b, "DEBUG", "tensor_utils.cc", r.between(100, 400))
		b = append(b, "CalcTensorMemSize:memory size ["...)
		b = strconv.AppendInt(b, r.between(1000, 999999), 10)
		b = append(b, "] is not aligned, offset to ["...)
		b = strconv.AppendInt(b, r.between(1, 90), 10)
		b = append(b, "] ignored."...)
	case 2:
		b = p.geNoiseHead(b, "INFO", "model_manager.cc", r.between(300, 3000))
		b = append(b, "LoadModelOnline:Load model "...)
		b = strconv.AppendInt(b, r.between(0, 9), 10)
		b = append(b, " success, memory [offset to] "...)
		b = strconv.AppendInt(b, r.between(1e6, 999999999), 10)
		b = append(b, " bytes."...)
	case 3:
		b = p.geNoiseHead(b, "INFO", "op_desc_utils.cc", r.between(100, 900))
		b = append(b, "GetConstInputs:node "...)
		b = append(b, noiseOps[k]...)
		b = append(b, '_')
		b = strconv.AppendInt(b, r.between(1, 999), 10)
		b = append(b, " has "...)
		b = strconv.AppendInt(b, r.between(0, 3), 10)
		b = append(b, " const inputs."...)
	case 4:
		b = p.geNoiseHead(b, "INFO", "ge_api.cc", 787)
		b = append(b, "RunGraphWithStreamAsync:Session run graph with stream async, session_id: 0, graph_id: "...)
		b = strconv.AppendInt(b, r.between(0, 9), 10)
		b = append(b, ", input size "...)
		b = strconv.AppendInt(b, r.between(1, 300), 10)
		b = append(b, ", output size "...)
		b = strconv.AppendInt(b, r.between(1, 9), 10)
	case 5:
		b = p.geNoiseHead(b, "INFO", "graph_manager.cc", r.between(100, 4000))
		b = append(b, "OptimizeSubgraph:Optimize subgraph "...)
		b = strconv.AppendInt(b, r.between(0, 99), 10)
		b = append(b, " with engine AIcoreEngine success."...)
	case 6:
		b = p.geNoiseHead(b, "INFO", "task_generator.cc", r.between(100, 900))
		b = append(b, "GenerateTask:Call AIcoreEngine to generate node[name:"...)
		b = append(b, noiseLower[r.intn(len(noiseLower))]...)
		b = append(b, '_')
		b = strconv.AppendInt(b, r.between(1, 999), 10)
		b = append(b, '(')
		b = append(b, noiseOps[k]...)
		b = append(b, "), id:"...)
		b = strconv.AppendInt(b, r.between(1, 999), 10)
		b = append(b, ", stream_id:"...)
		b = strconv.AppendInt(b, r.between(0, 3), 10)
		b = append(b, "] task finished."...)
	case 7:
		b = p.geNoiseHead(b, "INFO", "stream_allocator.cc", 598)
		b = append(b, "SetLogicStreamIdAttr:Op ["...)
		b = append(b, noiseLower[r.intn(len(noiseLower))]...)
		b = append(b, '_')
		b = strconv.AppendInt(b, r.between(1, 999), 10)
		b = append(b, "] OpType ["...)
		b = append(b, noiseOps[k]...)
		b = append(b, "] logic stream id is "...)
		b = strconv.AppendInt(b, r.between(0, 3), 10)
		b = append(b, '.')
	case 8:
		// RUNTIME lines put a space between [file:line] and the tid.
		b = p.header(b, "INFO", "RUNTIME", p.tick())
		b = append(b, "[engine.cc:81] "...)
		b = strconv.AppendInt(b, int64(p.tid), 10)
		b = append(b, " Engine:Constructor."...)
	case 9:
		b = p.header(b, "INFO", "FE", p.tick())
		b = append(b, "[fe_graph_optimizer.cc:"...)
		b = strconv.AppendInt(b, r.between(100, 2000), 10)
		b = append(b, ']')
		b = strconv.AppendInt(b, int64(p.tid), 10)
		b = append(b, " OptimizeFusedGraph:Fusion pass "...)
		b = append(b, noiseOps[k]...)
		b = append(b, "FusionPass matched "...)
		b = strconv.AppendInt(b, r.between(0, 30), 10)
		b = append(b, " times, effected "...)
		b = strconv.AppendInt(b, r.between(0, 30), 10)
		b = append(b, " times."...)
	default:
		b = p.geNoiseHead(b, "INFO", "davinci_model.cc", r.between(1000, 9000))
		b = append(b, "InitTaskInfo:Task "...)
		b = strconv.AppendInt(b, r.between(0, 2000), 10)
		b = append(b, " type "...)
		b = strconv.AppendInt(b, r.between(0, 20), 10)
		b = append(b, " init success, stream_id "...)
		b = strconv.AppendInt(b, r.between(0, 3), 10)
		b = append(b, '.')
	}
	p.buf = b
	p.dbg.write(p.clock, b)
}
