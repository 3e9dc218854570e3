package gelog

import "sync"

// Graph names, op types and block types repeat on every row; parsers on all
// cores share one table so that each distinct name is allocated once. Each
// interned name also has a small number, which lets the compact row tape
// (tape.go) store a name in a byte or two.
var (
	internMu   sync.RWMutex
	internTab  = map[string]uint32{}
	internList = []string{""} // id 0 is "not interned"
)

// internBytes returns a shared string for b. The table is bounded: past
// maxInterned entries new names are simply allocated (hostile input cannot
// grow it without limit).
func internBytes(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	internMu.RLock()
	id, ok := internTab[string(b)]
	var s string
	if ok {
		s = internList[id]
	}
	internMu.RUnlock()
	if ok {
		return s
	}
	s = string(b)
	internMu.Lock()
	if id, ok := internTab[s]; ok {
		s = internList[id]
	} else if len(internList) <= maxInterned {
		internTab[s] = uint32(len(internList))
		internList = append(internList, s)
	}
	internMu.Unlock()
	return s
}

// internID returns the number of an interned string, or 0.
func internID(s string) uint32 {
	if s == "" {
		return 0
	}
	internMu.RLock()
	id := internTab[s]
	internMu.RUnlock()
	return id
}

// interned returns the table of interned names by number. Names are only
// ever appended, so the slice stays valid for every number handed out
// before the call.
func interned() []string {
	internMu.RLock()
	defer internMu.RUnlock()
	return internList
}

const maxInterned = 1 << 16

func internGraph(b []byte) string { return internBytes(b) }
func internOp(b []byte) string    { return internBytes(b) }
