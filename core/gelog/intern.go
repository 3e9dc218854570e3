package gelog

import "sync"

// Graph names, op types and block types repeat on every row; parsers on all
// cores share one table so that each distinct name is allocated once.
var (
	internMu  sync.RWMutex
	internTab = map[string]string{}
)

// internBytes returns a shared string for b. The table is bounded: past
// maxInterned entries new names are simply allocated (hostile input cannot
// grow it without limit).
func internBytes(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	internMu.RLock()
	s, ok := internTab[string(b)]
	internMu.RUnlock()
	if ok {
		return s
	}
	s = string(b)
	internMu.Lock()
	if len(internTab) < maxInterned {
		internTab[s] = s
	}
	internMu.Unlock()
	return s
}

const maxInterned = 1 << 16

func internGraph(b []byte) string { return internBytes(b) }
func internOp(b []byte) string    { return internBytes(b) }
