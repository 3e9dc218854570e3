package input

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"runtime"
)

// blockSum hashes one block of content for duplicate detection. Natively
// that is maphash (AES instructions, ~10 GB/s). In WebAssembly maphash
// falls back to a hash built on 64×64→128-bit multiplications, which wasm
// does not have, and that is slow enough to show in the page's analysis.
// wordSum uses only 64-bit multiplies and rotations, which wasm has.
var blockSum = func() func([]byte) uint64 {
	if runtime.GOARCH == "wasm" {
		return wordSum
	}
	return func(b []byte) uint64 { return maphash.Bytes(hashSeed, b) }
}()

// wordSeed is per process, like hashSeed: equal content hashes equal within
// one run, and nobody can aim for a collision without knowing the seed.
var wordSeed = maphash.Bytes(hashSeed, []byte("imas block hash"))

// Multipliers of the xxHash64 design: four lanes of 8-byte words (a
// multiply, a rotation, a multiply each), merged and mixed at the end.
const (
	prime1 = 0x9E3779B185EBCA87
	prime2 = 0xC2B2AE3D27D4EB4F
	prime3 = 0x165667B19E3779F9
	prime4 = 0x85EBCA77C2B2AE63
	prime5 = 0x27D4EB2F165667C5
)

func lane(acc, w uint64) uint64 { return bits.RotateLeft64(acc+w*prime2, 31) * prime1 }

func merge(h, acc uint64) uint64 { return (h^lane(0, acc))*prime1 + prime4 }

// wordSum is a 64-bit hash of b with the xxHash64 structure, seeded per
// process.
func wordSum(b []byte) uint64 {
	n := uint64(len(b))
	var h uint64
	if len(b) >= 32 {
		v1, v2, v3, v4 := wordSeed+prime1+prime2, wordSeed+prime2, wordSeed, wordSeed-prime1
		for ; len(b) >= 32; b = b[32:] {
			v1 = lane(v1, binary.LittleEndian.Uint64(b[0:8]))
			v2 = lane(v2, binary.LittleEndian.Uint64(b[8:16]))
			v3 = lane(v3, binary.LittleEndian.Uint64(b[16:24]))
			v4 = lane(v4, binary.LittleEndian.Uint64(b[24:32]))
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) + bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		h = merge(merge(merge(merge(h, v1), v2), v3), v4)
	} else {
		h = wordSeed + prime5
	}
	h += n
	for ; len(b) >= 8; b = b[8:] {
		h = bits.RotateLeft64(h^lane(0, binary.LittleEndian.Uint64(b)), 27)*prime1 + prime4
	}
	if len(b) >= 4 {
		h = bits.RotateLeft64(h^uint64(binary.LittleEndian.Uint32(b))*prime1, 23)*prime2 + prime3
		b = b[4:]
	}
	for _, c := range b {
		h = bits.RotateLeft64(h^uint64(c)*prime5, 11) * prime1
	}
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	return h ^ h>>32
}
