package analyze

import (
	"cmp"
	"slices"

	"imas/core/model"
)

// TopAddresses is how many addresses Pool.TopAddresses keeps.
const TopAddresses = 10

// PoolFigures computes a pool's figures from its rows (docs/figures.md#pools):
// allocs and frees are the KernelTrace Alloc and Free lines (a "Free block"
// line frees an allocation no Free line did), total the sum
// of block sizes, peak_live the largest sum of live block sizes in event
// order, leaked the allocations never freed. It also fills each row's
// theory_size (live bytes after it), the per-address aggregation and the
// granularity step that tells page rounding from fragmentation.
func PoolFigures(p *model.Pool) {
	if st := p.Streamed; st != nil {
		// Counted while streaming (model.PoolStream): the same figures.
		p.Frees = p.UnmatchedFrees + st.KernelFrees
		p.Leaked = p.Allocs - st.KernelFrees
		p.TopAddresses, p.Addresses = topAddresses(slices.Clone(st.Addresses)), int64(len(st.Addresses))
		for i := range p.TopAddresses {
			p.TopAddresses[i].Address = model.HexAddr(p.TopAddresses[i].Addr)
		}
		poolRates(p)
		return
	}
	p.Allocs, p.Frees, p.Total, p.Requested, p.Leaked = int64(len(p.Rows)), p.UnmatchedFrees, 0, 0, 0
	type free struct{ at, size, real int64 }
	var frees []free
	for i := range p.Rows {
		r := &p.Rows[i]
		p.Total += r.Size
		p.Requested += r.RealSize
		if r.KernelFree || r.PoolFree && r.End != model.LifeMax {
			p.Frees++
			frees = append(frees, free{r.End, r.Size, r.RealSize})
		} else {
			p.Leaked++
		}
	}
	// Rows are in Begin order; a free with End == t happened before
	// allocation t.
	slices.SortStableFunc(frees, func(a, b free) int { return cmp.Compare(a.at, b.at) })
	var live, liveReal int64
	p.PeakLive, p.PeakRequested = 0, 0
	f := 0
	for i := range p.Rows {
		r := &p.Rows[i]
		for ; f < len(frees) && frees[f].at <= r.Begin; f++ {
			live -= frees[f].size
			liveReal -= frees[f].real
		}
		live += r.Size
		liveReal += r.RealSize
		r.Theory = live
		p.PeakLive = max(p.PeakLive, live)
		p.PeakRequested = max(p.PeakRequested, liveReal)
	}
	p.TopAddresses, p.Addresses = byAddress(p.Rows)
	poolRates(p)
}

// poolRates sets the figures derived from the peak and the physical size.
func poolRates(p *model.Pool) {
	p.Step, p.ReuseRate, p.ReachTheoryRate = 0, 0, 0
	if p.Unit > 0 {
		p.Step = (p.PeakLive + p.Unit - 1) / p.Unit * p.Unit
	}
	if p.Physical > 0 && p.Total > 0 {
		p.ReuseRate = Round2(max(0, float64(p.Total-p.Physical)/float64(p.Total)*100))
		p.ReachTheoryRate = Round2(min(100, float64(p.PeakLive)/float64(p.Physical)*100))
	}
}

// byAddress aggregates rows per block address: many allocations on few
// addresses is reuse working; the top entries are the real footprint.
func byAddress(rows []model.PoolRow) (top []model.PoolAddr, distinct int64) {
	idx := map[uint64]int{}
	var all []model.PoolAddr
	for i := range rows {
		r := &rows[i]
		j, ok := idx[r.Addr]
		if !ok {
			j = len(all)
			idx[r.Addr] = j
			all = append(all, model.PoolAddr{Address: r.Address, Addr: r.Addr})
		}
		a := &all[j]
		a.Allocs++
		a.Bytes += r.Size
		a.MaxSize = max(a.MaxSize, r.Size)
	}
	return topAddresses(all), int64(len(idx))
}

// topAddresses orders per-address sums (in first-allocation order) by
// allocations, then largest block, and keeps the first TopAddresses.
func topAddresses(all []model.PoolAddr) []model.PoolAddr {
	slices.SortStableFunc(all, func(a, b model.PoolAddr) int {
		return cmp.Or(cmp.Compare(b.Allocs, a.Allocs), cmp.Compare(b.MaxSize, a.MaxSize))
	})
	if len(all) > TopAddresses {
		all = all[:TopAddresses]
	}
	if all == nil {
		all = []model.PoolAddr{}
	}
	return all
}
