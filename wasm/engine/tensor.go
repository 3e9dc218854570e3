package engine

import (
	"fmt"
	"strings"

	"imas/core/analyze"
	"imas/core/model"
)

// TensorDetail is everything the page shows about one row.
type TensorDetail struct {
	I         int              `json:"i"`
	Key       string           `json:"key"`
	Row       model.Row        `json:"row"`
	Conflicts []model.Conflict `json:"conflicts"` // conflicts this tensor takes part in
	AtPeak    bool             `json:"at_peak"`   // live at the graph's peak step
	Shares    []TensorRow      `json:"shares"`    // other rows at an overlapping address range (first CapShares)
	SharesAll int              `json:"shares_all"`
}

// CapShares bounds the list of rows sharing a tensor's addresses.
const CapShares = 50

// Tensor returns the detail of row i of graph g of slot.
func (s *Session) Tensor(slot string, g, i int) (*TensorDetail, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gr, err := s.rows(slot, g)
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(gr.Rows) {
		return nil, fmt.Errorf("graph %d has no row %d", g, i)
	}
	r := &gr.Rows[i]
	d := &TensorDetail{I: i, Key: r.Key(), Row: *r, Conflicts: []model.Conflict{}, Shares: []TensorRow{}}
	for _, c := range gr.Conflicts {
		if c.A == d.Key || c.B == d.Key {
			d.Conflicts = append(d.Conflicts, c)
		}
	}
	mx := analyze.MaxFinite(gr.Rows)
	if gr.Peak != nil {
		b, e := analyze.Interval(r, max(mx, r.LifeBegin))
		d.AtPeak = b <= gr.Peak.Step && gr.Peak.Step <= e
	}
	marks := s.conflicted(slot, g, gr)
	for k := range gr.Rows {
		o := &gr.Rows[k]
		if k == i || o.Offset >= r.Offset+r.Size || r.Offset >= o.Offset+o.Size {
			continue
		}
		d.SharesAll++
		if len(d.Shares) < CapShares {
			d.Shares = append(d.Shares, TensorRow{I: k, Conflict: marks[o.Key()], Row: *o})
		}
	}
	return d, nil
}

// Find returns the index of the first row of graph g whose tensor key is key.
func (s *Session) Find(slot string, g int, key string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gr, err := s.rows(slot, g)
	if err != nil {
		return 0, err
	}
	for i := range gr.Rows {
		if r := &gr.Rows[i]; strings.HasPrefix(key, r.Node) && r.Key() == key {
			return i, nil
		}
	}
	return 0, fmt.Errorf("graph %d has no tensor %q", g, key)
}
