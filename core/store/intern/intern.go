// Package intern is the table of graph names, op types and block types
// shared by the parsers of every core and the row tape.
package intern

import (
	"sync"
	"sync/atomic"
)

// Graph names, op types and block types repeat on every row; parsers on all
// cores share one table so that each distinct name is allocated once. Each
// interned name also has a small number, which lets the compact row tape
// (core/store) store a name in a byte or two.
//
// Lookups are on the hot path of every row, several per row, from every
// core: they read an immutable snapshot without locking. The table itself
// is under a mutex and is republished as a new snapshot once enough lookups
// had to take the lock (amortised O(1) per lookup, whatever the input).
var (
	internMu     sync.Mutex
	internTab    = map[string]uint32{}
	internList   = []string{""} // id 0 is "not interned"
	internMisses int            // lookups that took the lock since the last snapshot
	internSnap   atomic.Pointer[internSnapshot]
)

type internSnapshot struct {
	tab  map[string]uint32
	list []string
}

const maxInterned = 1 << 16

// Bytes returns a shared string for b and its number (0 when the
// table is full or b is empty). The table is bounded: past maxInterned
// entries new names are simply allocated (hostile input cannot grow it
// without limit).
func Bytes(b []byte) (string, uint32) {
	if len(b) == 0 {
		return "", 0
	}
	if snap := internSnap.Load(); snap != nil {
		if id, ok := snap.tab[string(b)]; ok {
			return snap.list[id], id
		}
	}
	internMu.Lock()
	defer internMu.Unlock()
	s := string(b)
	id, ok := internTab[s]
	if ok {
		s = internList[id]
	} else if len(internList) <= maxInterned {
		id = uint32(len(internList))
		internTab[s] = id
		internList = append(internList, s)
	}
	internMisses++
	if internMisses > len(internTab)/4+64 || internSnap.Load() == nil {
		publishLocked()
	}
	return s, id
}

// publishLocked makes the table the new snapshot; internMu is held.
func publishLocked() {
	tab := make(map[string]uint32, len(internTab))
	for k, v := range internTab {
		tab[k] = v
	}
	internSnap.Store(&internSnapshot{tab: tab, list: internList})
	internMisses = 0
}

// ID returns the number of an interned string, or 0.
func ID(s string) uint32 {
	if s == "" {
		return 0
	}
	if snap := internSnap.Load(); snap != nil {
		if id, ok := snap.tab[s]; ok {
			return id
		}
	}
	internMu.Lock()
	defer internMu.Unlock()
	return internTab[s]
}

// Names returns the table of interned names by number. Names are only
// ever appended, so the slice stays valid for every number handed out
// before the call.
func Names() []string {
	internMu.Lock()
	defer internMu.Unlock()
	return internList
}
