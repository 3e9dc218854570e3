package model

import (
	"testing"

	"imas/core/gelog"
)

// BenchmarkStreamPoolEvents builds one RT2 pool allocation of a summary
// (imas total): the pool's Malloc block, the kernel's allocation and free,
// the pool's Free block, over a few hundred addresses that repeat, as
// after every graph of a pool-heavy log; of one process, and of six whose
// logs are merged (each allocation in another process than the last).
func BenchmarkStreamPoolEvents(b *testing.B) {
	for _, ranks := range []int{1, 6} {
		b.Run(map[int]string{1: "one-process", 6: "six-ranks"}[ranks], func(b *testing.B) {
			bu := NewBuilder([]string{"plog"})
			bu.SummaryOnly = true
			meta := gelog.Meta{PID: 610001, TID: 610061}
			mallocBlock := gelog.PoolBlock{Meta: meta, Allocator: "allocator_2", Device: 0, Size: 5213, AllocSize: 65536}
			alloc := gelog.PoolAlloc{Meta: meta, Kernel: "AllocMemHbm_Add_17_2440", KernelType: "AllocMemHbm", Node: "Add_17",
				Stream: 0, Block: 0x55d1c2a31240, Size: 65536, TensorSize: 5213, Index: 1}
			free := gelog.PoolFree{Meta: meta, Kernel: "FreeMemHbm_Add_2441", KernelType: "FreeMemHbm", Node: "Add", Stream: 0}
			freeBlock := gelog.PoolBlock{Meta: meta, Allocator: "allocator_2", Free: true, Device: 0, AllocSize: 65536, TheoryMin: 65536}
			event := func(i int) {
				addr := 0x12c1a0230000 + uint64(i%512)<<16
				pid, tid := int64(610001+i%ranks*97), int64(610061+i%ranks*97)
				for _, m := range []*gelog.Meta{&mallocBlock.Meta, &alloc.Meta, &free.Meta, &freeBlock.Meta} {
					m.PID, m.TID = pid, tid
				}
				mallocBlock.Addr, alloc.Addr, free.Addr, freeBlock.Addr = addr, addr, addr, addr
				mallocBlock.Line, alloc.Line, free.Line, freeBlock.Line = int64(4*i+1), int64(4*i+2), int64(4*i+3), int64(4*i+4)
				bu.Add(&mallocBlock)
				bu.Add(&alloc)
				bu.Add(&free)
				bu.Add(&freeBlock)
			}
			for i := range 3072 { // every (process, address) once
				event(i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				event(i)
			}
		})
	}
}
