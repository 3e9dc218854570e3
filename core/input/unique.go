package input

// Duplicate inputs are found by a hash of their text (ReadStats.Hash), and
// two leaves can only be duplicates if their texts are the same length.
// When every source is a plain text file (on disk or a browser File:
// RandomAccess), every leaf is a whole file of the size it had when listed, so a file whose size no other file
// has is a duplicate of nothing, and nothing of it: its text need not be
// hashed (the hash is a visible share of the CPU time of "imas total").

// maxUniqueScan bounds the files MarkUnique opens to look at: beyond it
// every text is hashed.
const maxUniqueScan = 4096

// MarkUnique returns srcs with Unique set on the sources that need no
// content hash: when all of srcs are RandomAccess sources of plain text (no archive
// or compressed file among them: one could hold a copy of anything), those
// whose size no other source has. Otherwise it returns srcs unchanged.
// plain(i) reports whether srcs[i] opens and is plain text (its head read,
// see Head); it is asked only when every source is RandomAccess of known
// size, in order, until one is not.
func MarkUnique(srcs []Source, plain func(i int) bool) []Source {
	if len(srcs) == 0 || len(srcs) > maxUniqueScan {
		return srcs
	}
	sizes := map[int64]int{}
	for _, s := range srcs {
		if !s.RandomAccess || s.Size < 0 {
			return srcs
		}
		sizes[s.Size]++
	}
	for i := range srcs {
		if !plain(i) {
			return srcs
		}
	}
	out := make([]Source, len(srcs))
	for i, s := range srcs {
		s.Unique = sizes[s.Size] == 1
		out[i] = s
	}
	return out
}
