package store

// TapeSizer sizes a parsing worker's next tape from what its last one
// needed (Set rows per candidate line, name text and rare entries per
// row). A tape that outgrows a buffer copies it into memory touched for the
// first time, and one sized too big touches memory for nothing (prefault).
// The zero value sizes a first tape.
type TapeSizer struct {
	sized       bool // the fields below describe a previous chunk
	rowsPer1024 int  // Set rows per 1024 candidate lines, rounded up
	textPerRow  int  // bytes, rounded up
	rarePer1024 int  // rare entries per 1024 rows, rounded up
}

// Size returns the size of a chunk's tape. Rows: one per candidate line
// (each gives at most one) when the last chunk had at least half rows, so
// that rows are never copied; there the mix moves from chunk to chunk, and
// rows backed past a guess cost more page faults than the guess saves. A
// chunk of few rows (pool lines, allocator statements) gets room for the
// rows its mix predicts and an eighth, and grows to one per candidate if it
// needs more (MaxRows): a row per candidate there would be most of what
// imas total holds, touched for nothing. Text and rare entries: an eighth
// more than the last chunk's proportions give for that many rows, so that
// a chunk with a little more seldom grows, while text sized for every
// candidate would be several times too big.
func (s *TapeSizer) Size(cand int) TapeSize {
	if !s.sized {
		return TapeSize{Rows: cand, Text: cand * 32, MaxRows: cand}
	}
	likely := min(cand, (cand*s.rowsPer1024+1023)/1024*9/8+16)
	rows := cand
	if s.rowsPer1024 < 512 {
		rows = likely
	}
	return TapeSize{Rows: rows, Text: likely * s.textPerRow, Rare: likely * s.rarePer1024 / 1024, MaxRows: cand}
}

// Learn records what a finished chunk's tape needed.
func (s *TapeSizer) Learn(cand int, t *RowTape) {
	if cand == 0 {
		return
	}
	rows := t.Len()
	s.sized = true
	s.rowsPer1024 = (rows*1024 + cand - 1) / cand
	if rows > 0 {
		text, rare := t.Sizes()
		s.textPerRow = (text + rows - 1) / rows
		s.rarePer1024 = (rare*1024 + rows - 1) / rows
	}
}

// Sized reports whether s has learned from a chunk with candidates.
func (s *TapeSizer) Sized() bool { return s.sized }
