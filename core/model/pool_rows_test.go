package model_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"imas/core/analyze"
	"imas/core/gelog"
	"imas/core/model"
)

// memRowStore is a model.PoolRowStore in memory: each batch a copy.
type memRowStore struct {
	mu    sync.Mutex
	pools map[*model.Pool][][]model.PoolRow
}

func (s *memRowStore) PutPoolRows(p *model.Pool, rows []model.PoolRow) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pools == nil {
		s.pools = map[*model.Pool][][]model.PoolRow{}
	}
	s.pools[p] = append(s.pools[p], append([]model.PoolRow(nil), rows...))
	return nil
}

func (s *memRowStore) PoolRowBatch(p *model.Pool, i int, buf []model.PoolRow) ([]model.PoolRow, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.pools[p]) {
		return nil, fmt.Errorf("batch %d of %d", i, len(s.pools[p]))
	}
	return append(buf[:0], s.pools[p][i]...), nil
}

// poolEvents is a random run of two tagged pools and an untagged one on
// few addresses shared by them: allocations freed soon or long after (so
// some frees reach rows that moved), never, by the kernel, by the pool or
// both in either order, frees of nothing, and addresses taken over by
// another pool while live.
func poolEvents(seed uint64, allocs int) []gelog.Record {
	rnd := rand.New(rand.NewPCG(seed, 7))
	var recs []gelog.Record
	line := int64(0)
	meta := func(tid int64) gelog.Meta {
		line++
		return gelog.Meta{Line: line, PID: 9, TID: tid, Time: 1000 + line}
	}
	tags := []string{"allocator_1", "allocator_2"}
	recs = append(recs, &gelog.PoolCreate{Meta: meta(3), Allocator: "allocator_3"})
	type pending struct {
		at   int
		addr uint64
		tag  string
		tid  int64
		kind int
	}
	var later []pending
	for i := 0; i < allocs; i++ {
		addr := 0x10000 * uint64(1+rnd.IntN(300))
		tag, tid := tags[rnd.IntN(2)], int64(5)
		if rnd.IntN(8) == 0 {
			tag, tid = "", 3 // the thread's pool (allocator_3)
		}
		if tag != "" {
			recs = append(recs, &gelog.PoolBlock{Meta: meta(tid), Allocator: tag, Device: 0, Size: 100, AllocSize: 65536, Addr: addr})
		}
		recs = append(recs, &gelog.PoolAlloc{Meta: meta(tid), Kernel: fmt.Sprintf("AllocMemHbm_op_%d", i), Node: fmt.Sprintf("op_%d", i%17),
			Stream: int64(i % 3), Addr: addr, Size: 65536 * int64(1+rnd.IntN(4)), TensorSize: int64(rnd.IntN(5000)), Index: -1})
		life := 1 + rnd.IntN(40)
		if rnd.IntN(10) == 0 {
			life = 300 + rnd.IntN(1500) // past a batch or several
		}
		if rnd.IntN(30) > 0 {
			later = append(later, pending{i + life, addr, tag, tid, rnd.IntN(5)})
		}
		keep := later[:0]
		for _, p := range later {
			if p.at > i {
				keep = append(keep, p)
				continue
			}
			kfree := &gelog.PoolFree{Meta: meta(p.tid), Kernel: "FreeMemHbm_x", Addr: p.addr}
			pfree := &gelog.PoolBlock{Meta: meta(p.tid), Allocator: p.tag, Free: true, Device: 0, AllocSize: 65536, Addr: p.addr}
			switch p.kind {
			case 0:
				recs = append(recs, kfree)
			case 1:
				recs = append(recs, kfree, pfree)
			case 2:
				recs = append(recs, pfree, kfree)
			case 3:
				recs = append(recs, pfree)
			default:
				recs = append(recs, kfree, kfree) // the second matches nothing
			}
		}
		later = keep
	}
	// Pool frees of old rows whose address was not handed out again.
	for a := uint64(301); a < 320; a++ {
		recs = append(recs, &gelog.PoolBlock{Meta: meta(5), Allocator: tags[a%2], Free: true, AllocSize: 65536, Addr: 0x10000 * a})
	}
	return recs
}

func buildPools(recs []gelog.Record, store model.PoolRowStore) *model.Report {
	b := model.NewBuilder([]string{"plog-9.log"})
	b.PoolRows = store
	for _, r := range recs {
		b.Add(r)
	}
	rep := b.Finish()
	for _, p := range rep.Pools {
		analyze.PoolFigures(p)
	}
	return rep
}

// TestPoolRowsMovedEqualRetained: a build whose pools move their older
// rows to a store (Builder.PoolRows) and count their figures as they
// stream gives every pool the rows (read back by RowReader) and figures of
// the build that keeps every row, while it holds only the latest rows of
// each pool.
func TestPoolRowsMovedEqualRetained(t *testing.T) {
	for seed := range uint64(4) {
		recs := poolEvents(seed, 6000)
		want := buildPools(recs, nil)
		store := &memRowStore{}
		got := buildPools(recs, store)
		if len(got.Pools) != len(want.Pools) {
			t.Fatalf("seed %d: %d pools, want %d", seed, len(got.Pools), len(want.Pools))
		}
		moved := 0
		for i, wp := range want.Pools {
			gp := got.Pools[i]
			var rows []model.PoolRow
			rd := gp.RowReader()
			for r := rd.Next(); r != nil; r = rd.Next() {
				rows = append(rows, *r)
			}
			if err := rd.Err(); err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(wp.Rows) || gp.RowCount() != len(wp.Rows) {
				t.Fatalf("seed %d pool %s: %d rows (RowCount %d), want %d", seed, wp.Allocator, len(rows), gp.RowCount(), len(wp.Rows))
			}
			for j := range rows {
				if rows[j] != wp.Rows[j] {
					t.Fatalf("seed %d pool %s row %d:\n got %+v\nwant %+v", seed, wp.Allocator, j, rows[j], wp.Rows[j])
				}
			}
			if held := len(gp.Rows); held > 512 {
				t.Errorf("seed %d pool %s: %d of %d rows held in memory", seed, wp.Allocator, held, len(rows))
			}
			moved += len(rows) - len(gp.Rows)
			g, w := *gp, *wp
			g.Rows, w.Rows, g.Streamed = nil, nil, nil
			if !reflect.DeepEqual(g.WithoutRows(), w.WithoutRows()) {
				t.Errorf("seed %d pool %s figures:\n got %+v\nwant %+v", seed, wp.Allocator, g, w)
			}
		}
		if moved < 4000 {
			t.Errorf("seed %d: %d rows moved to the store; the comparison checks little", seed, moved)
		}
	}
}
