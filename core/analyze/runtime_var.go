package analyze

import "imas/core/model"

// VarFigures sets a session's variable figures (docs/figures.md#variables).
// Rows with "reuse address of node" share the memory of another variable:
// they count in ReuseCount only, so that SizeSum equals the bytes GE
// allocated for the session (the "Auto malloc var" / "variables and
// constant op" malloc). AreaEnd is the end of the HBM area.
func VarFigures(s *model.VarSession) {
	s.Count, s.SizeSum, s.AreaEnd, s.ReuseCount, s.RdmaSize, s.HostSize = 0, 0, 0, 0, 0, 0
	for i := range s.Rows {
		r := &s.Rows[i]
		switch r.Kind {
		case "reuse":
			s.ReuseCount++
			continue
		case "rdma":
			s.RdmaSize += r.Size
		case "host":
			s.HostSize += r.Size
		case "hbm":
			s.AreaEnd = max(s.AreaEnd, r.Offset+r.Size)
		}
		s.Count++
		s.SizeSum += r.Size
	}
}
