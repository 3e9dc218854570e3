package analyze

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"imas/core/model"
)

// TestTensorIndexMatchesMap checks the tensor index against a map of every
// tensor's offsets in insertion order, with the real hash and with weak
// ones that make most or all tensors collide, indexing every row or only
// those the filter of the queried tensors lets through, on random graphs
// with tensors printed several times and continuous (reassign) lines.
func TestTensorIndexMatchesMap(t *testing.T) {
	type key struct {
		node, kind string
		index      int64
	}
	hashes := map[string]func(node, kind string, index int64) uint64{
		"real":     hashTensor,
		"constant": func(string, string, int64) uint64 { return 0 },
		"all ones": func(string, string, int64) uint64 { return ^uint64(0) },
		"length":   func(node, kind string, index int64) uint64 { return uint64(len(node) + len(kind)) },
		"index":    func(_, _ string, index int64) uint64 { return uint64(index) << 40 },
	}
	kinds := []string{"output", "workspace", "input", ""}
	rng := rand.New(rand.NewPCG(5, 6))
	randKey := func() key {
		return key{"n" + strconv.Itoa(rng.IntN(12)), kinds[rng.IntN(len(kinds))], int64(rng.IntN(3)) - 1}
	}
	for name, hash := range hashes {
		t.Run(name, func(t *testing.T) {
			for iter := 0; iter < 300; iter++ {
				var graphs []*model.Graph
				want := map[key][]int64{} // offsets in insertion order
				n := 0
				for range 1 + rng.IntN(3) {
					g := &model.Graph{}
					for range rng.IntN(40) {
						k := randKey()
						g.Rows = append(g.Rows, model.Row{Node: k.node, Kind: k.kind, Index: k.index, Offset: int64(rng.IntN(8)) * 512})
					}
					for range rng.IntN(6) {
						k := randKey()
						g.Reassign = append(g.Reassign, model.Reassign{Node: k.node, Kind: k.kind, Index: k.index, Offset: int64(rng.IntN(8)) * 512})
					}
					// The index's order: continuous lines last printed
					// first, then the rows.
					for i := len(g.Reassign) - 1; i >= 0; i-- {
						a := &g.Reassign[i]
						k := key{a.Node, a.Kind, a.Index}
						want[k] = append(want[k], a.Offset)
					}
					for i := range g.Rows {
						a := &g.Rows[i]
						k := key{a.Node, a.Kind, a.Index}
						want[k] = append(want[k], a.Offset)
					}
					graphs = append(graphs, g)
					n += len(g.Rows) + len(g.Reassign)
				}
				type query struct {
					k   key
					off int64
				}
				queries := make([]query, 50)
				for q := range queries {
					queries[q] = query{randKey(), int64(rng.IntN(9)) * 512}
				}
				// Half the indexes have every row, half only the rows the
				// filter of the queried tensors lets through.
				var filter *tensorFilter
				if iter%2 == 1 {
					filter = &tensorFilter{}
					for _, q := range queries {
						filter.add(q.k.node, q.k.kind, q.k.index)
					}
				}
				x := newTensorIndex(graphs, filter, hash)
				if filter == nil && len(x.refs) != n {
					t.Fatalf("iteration %d: %d rows indexed, want %d", iter, len(x.refs), n)
				}
				for _, q := range queries {
					k, off := q.k, q.off
					gotOff, gotOK := x.offset(k.node, k.kind, k.index, off)
					offs := want[k]
					wantOff, wantOK := int64(0), len(offs) > 0
					if wantOK {
						wantOff = offs[0]
						for _, o := range offs {
							if o == off {
								wantOff = off
							}
						}
					}
					if gotOff != wantOff || gotOK != wantOK {
						t.Fatalf("iteration %d: offset(%v, %d) = %d, %v; want %d, %v (offsets %v)",
							iter, k, off, gotOff, gotOK, wantOff, wantOK, offs)
					}
				}
			}
		})
	}
}

// TestTensorFilter checks that the filter holds what was added and rules
// out most other tensors named the way GE names them (the index relies on
// the first, its speed on the second).
func TestTensorFilter(t *testing.T) {
	ops := []string{"relu", "conv2d", "batchmatmul", "transdata", "add"}
	name := func(i int) string { return ops[i%len(ops)] + "_" + strconv.Itoa(i) }
	var f tensorFilter
	for i := 0; i < 4000; i += 20 {
		f.add(name(i), "output", 0)
	}
	passed := 0
	for i := 0; i < 4000; i++ {
		in := f.has(name(i), "output", 0)
		if i%20 == 0 && !in {
			t.Fatalf("%s was added but is not in the filter", name(i))
		}
		if i%20 != 0 && in {
			passed++
		}
		if f.has(name(i), "workspace", 0) && i%20 != 0 {
			passed++
		}
	}
	if rate := float64(passed) / (2 * 3800); rate > 0.15 {
		t.Errorf("%.0f%% of the tensors not added pass the filter", 100*rate)
	}
}

// TestTensorFilterSized: a filter sized for a small graph is small, one
// for a big graph has the full 4096 bits, and neither loses a tensor.
func TestTensorFilterSized(t *testing.T) {
	for _, tc := range []struct{ rows, words int }{{0, 1}, {25, 4}, {1000, 64}, {100000, 64}} {
		f := newTensorFilter(tc.rows)
		if len(f.words) != tc.words {
			t.Errorf("newTensorFilter(%d): %d words, want %d", tc.rows, len(f.words), tc.words)
		}
		for i := range max(tc.rows, 10) {
			f.add("relu_"+strconv.Itoa(i), "output", 0)
		}
		for i := range max(tc.rows, 10) {
			if !f.has("relu_"+strconv.Itoa(i), "output", 0) {
				t.Fatalf("newTensorFilter(%d): relu_%d added, not in the filter", tc.rows, i)
			}
		}
	}
}

// TestCheckAddressesLetsIndexesGo: the address checks of a run of many
// loaded graphs hold one static graph's index at a time, whether each
// graph's addresses are a check of their own or all in one check (a graph
// id reused by every load), and the checks are what they would be with
// every index kept.
func TestCheckAddressesLetsIndexesGo(t *testing.T) {
	const graphs = 50
	for _, oneCheck := range []bool{false, true} {
		rep := &model.Report{}
		for i := range graphs {
			size := int64(1+i) << 20
			rep.Graphs = append(rep.Graphs, &model.Graph{PID: "7", Graph: "net_" + strconv.Itoa(i), MemType: 2,
				Figures: model.Figures{MemorySize: size},
				Rows:    []model.Row{{Node: "relu_" + strconv.Itoa(i), Kind: "output", Offset: 4096, Size: 512}}})
			base := uint64(1+i) << 32
			rep.Regions = append(rep.Regions, model.Region{PID: "7", GraphID: int64(i), Type: "F", Size: size,
				Addr: base, Base: "0x" + strconv.FormatUint(base, 16)})
			// The first address is at its compile-time offset, the second
			// 512 bytes off it.
			rows := []model.AddrRow{}
			for k, off := range []uint64{4096, 4608} {
				addr := base + off
				rows = append(rows, model.AddrRow{Statement: "GetOutputDataAddrs", Type: "F", Name: "relu_" + strconv.Itoa(i),
					Kind: "output", Offset: -1, Size: 512, MemAddr: "0x" + strconv.FormatUint(addr, 16), Addr: addr,
					Line: int64(10*i + k), Region: i + 1})
			}
			if oneCheck && i > 0 {
				rep.AddressChecks[0].Rows = append(rep.AddressChecks[0].Rows, rows...)
				continue
			}
			rep.AddressChecks = append(rep.AddressChecks, model.AddressCheck{PID: "7", GraphID: int64(i), Rows: rows})
		}
		var count indexCount
		diags := checkAddresses(rep, &count)
		if count.most != 1 || count.live != 0 {
			t.Errorf("one check %v: up to %d indexes held at once, %d at the end; want 1 and 0", oneCheck, count.most, count.live)
		}
		reconciled, mismatches := int64(0), 0
		for _, ac := range rep.AddressChecks {
			reconciled += ac.Reconciled
			mismatches += len(ac.Mismatches)
		}
		if reconciled != 2*graphs || mismatches != graphs || len(diags) != graphs {
			t.Errorf("one check %v: %d reconciled, %d mismatches, %d diagnostics; want %d, %d, %d",
				oneCheck, reconciled, mismatches, len(diags), 2*graphs, graphs, graphs)
		}
	}
}
