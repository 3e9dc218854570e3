package input

// Duplicate inputs are found by a hash of their text (ReadStats.Hash), and
// two leaves can only be duplicates if their texts are the same length.
// When every source is a plain text file (on disk or a browser File:
// RandomAccess), every leaf is a whole file of the size it had when listed, so a file whose size no other file
// has is a duplicate of nothing, and nothing of it: its text need not be
// hashed (the hash is a visible share of the CPU time of "imas total").
// Nor need two files of the same size whose first bytes differ: rotated
// plogs of several processes often share a size, and a leaf that may be a
// duplicate is held whole until its end (core/sidebyside.go).

// maxUniqueScan bounds the files MarkUnique opens to look at: beyond it
// every text is hashed.
const maxUniqueScan = 4096

// MarkUnique returns srcs with Unique set on the sources that need no
// content hash: when all of srcs are RandomAccess sources of plain text (no archive
// or compressed file among them: one could hold a copy of anything), those
// whose size and head no other source has. Otherwise it returns srcs
// unchanged. head(i) reports whether srcs[i] opens and is plain text (its
// head read, see Head) and a hash of its first bytes (the same for two
// copies of a text); it is asked only when every source is RandomAccess
// of known size, in order, until one is not.
func MarkUnique(srcs []Source, head func(i int) (sum uint64, plain bool)) []Source {
	if len(srcs) == 0 || len(srcs) > maxUniqueScan {
		return srcs
	}
	for _, s := range srcs {
		if !s.RandomAccess || s.Size < 0 {
			return srcs
		}
	}
	type key struct {
		size int64
		sum  uint64
	}
	keys := make([]key, len(srcs))
	seen := map[key]int{}
	for i, s := range srcs {
		sum, plain := head(i)
		if !plain {
			return srcs
		}
		keys[i] = key{s.Size, sum}
		seen[keys[i]]++
	}
	out := make([]Source, len(srcs))
	for i, s := range srcs {
		s.Unique = seen[keys[i]] == 1
		out[i] = s
	}
	return out
}
