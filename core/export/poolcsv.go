package export

import (
	"io"
	"strconv"
	"strings"

	"imas/core/model"
)

// WritePoolCSV writes imas_mem_pool.csv in the old key/value layout
// (docs/figures.md#csv-pool): one row per RT2 pool allocation,
//
//	Process_<pid>,allocator_id,<id>,name,<node>,size,<block>,realsize,<requested>,address,<addr>,life time begin,<b>,life time end,<e>,cached_size,<page>,theory_size,<live>,kernel_free,<0|1>,pool_free,<0|1>,stream,<s>,kernel,<kernel>
//
// then per allocator a summary row and its most reused addresses. Field
// positions 2, 8, 12 and 14 are what GE's replay test reads; life times are
// the pool's allocation clock (see model.PoolRow), 4294967295 = never freed.
func WritePoolCSV(w io.Writer, rep *model.Report) error {
	c := newCSV(w)
	for _, p := range rep.Pools {
		proc, id := "Process_"+p.PID, AllocatorID(p.Allocator)
		rd := p.RowReader()
		for r := rd.Next(); r != nil; r = rd.Next() {
			c.Cell(proc)
			c.KV("allocator_id", id)
			c.KV("name", r.Node)
			c.KI("size", r.Size)
			c.KI("realsize", r.RealSize)
			c.KV("address", r.Address)
			c.KI("life time begin", r.Begin)
			c.KI("life time end", r.End)
			c.KI("cached_size", r.Cached)
			c.KI("theory_size", r.Theory)
			c.KI("kernel_free", b2i(r.KernelFree))
			c.KI("pool_free", b2i(r.PoolFree))
			c.KI("stream", r.Stream)
			c.KV("kernel", r.Kernel)
			c.End()
		}
		if err := rd.Err(); err != nil {
			return err
		}
		PoolSummaryCells(c, p)
		c.End()
		for _, a := range p.TopAddresses {
			c.Cell(proc)
			c.Cell(id)
			c.KV("address", a.Address)
			c.KI("allocs", a.Allocs)
			c.KI("max_size", a.MaxSize)
			c.KV("bytes", Bytes(a.Bytes))
			c.End()
		}
	}
	return c.Flush()
}

// AllocatorID is the old imas name of a pool: ge_<N> for [allocator_N],
// rts_<N> for [rts_allocator_N] (ffts_<N> likewise).
func AllocatorID(alloc string) string {
	for _, p := range []struct{ from, to string }{{"rts_allocator_", "rts_"}, {"ffts_allocator_", "ffts_"}, {"allocator_", "ge_"}} {
		if n, ok := strings.CutPrefix(alloc, p.from); ok {
			return p.to + n
		}
	}
	return alloc
}

// PoolSummaryCells writes an allocator's summary row:
//
//	Process_<pid>,<id>,allocator,<name>,reuse_rate:<r>%,detail[reach_theory_rate:.. total:.. after_reuse:.. theory_min:.. ...]
//
// after_reuse is what the pool held from the device, theory_min its peak of
// live blocks, real_theory_min the peak of live requested bytes.
func PoolSummaryCells(c *csvWriter, p *model.Pool) {
	c.Cell("Process_" + p.PID)
	c.Cell(AllocatorID(p.Allocator))
	c.KV("allocator", p.Allocator)
	known := p.Physical > 0
	if known {
		c.Cell("reuse_rate:" + Rate2(p.ReuseRate) + "%")
	} else {
		c.Cell("reuse_rate:unknown")
	}
	var b strings.Builder
	b.WriteString("detail[reach_theory_rate:")
	if known {
		b.WriteString(Rate2(p.ReachTheoryRate))
	} else {
		b.WriteString("unknown")
	}
	b.WriteString(" total:" + Bytes(p.Total))
	if known {
		b.WriteString(" after_reuse:" + Bytes(p.Physical) + " physical_from:" + p.PhysicalFrom)
	} else {
		b.WriteString(" after_reuse:unknown")
	}
	b.WriteString(" theory_min:" + Bytes(p.PeakLive) + " real_theory_min:" + Bytes(p.PeakRequested))
	if p.Unit > 0 {
		b.WriteString(" granularity_step:" + Bytes(p.Step) + " unit:" + Bytes(p.Unit))
	}
	for _, kv := range []struct {
		k string
		v int64
	}{{"allocs", p.Allocs}, {"frees", p.Frees}, {"leaked", p.Leaked}, {"addresses", p.Addresses}, {"unmatched_frees", p.UnmatchedFrees}} {
		b.WriteString(" " + kv.k + ":" + strconv.FormatInt(kv.v, 10))
	}
	b.WriteString("]")
	c.Cell(b.String())
}

// PoolSummaryLine is the summary row as one text line (imas total).
func PoolSummaryLine(p *model.Pool) string {
	var sb strings.Builder
	c := lineCSV(&sb)
	PoolSummaryCells(c, p)
	c.Flush()
	return sb.String()
}

func b2i(v bool) int64 {
	if v {
		return 1
	}
	return 0
}
