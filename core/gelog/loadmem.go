package gelog

import (
	"bytes"

	"imas/core/diag"
	"imas/core/plog"
)

// A model loaded with memory the user allocated (aclmdlLoadFromFileWithMem,
// aclmdlLoadFromMemWithMem) runs in that memory: GE mallocs no feature-map
// region and prints no base for it, so the operator addresses of the model
// cannot be checked against one. ACL says so when it loads the model:
//
//	aclmdlLoadFromFileWithMem: start to execute aclmdlLoadFromFileWithMem, workSize[<n>], weightSize[<n>]
//	ModelLoadFromFileWithMem: call ge interface executor.LoadModelFromData, workSize[<n>], weightSize[<n>]

// UserMemoryLoad is a model load into user memory.
type UserMemoryLoad struct {
	Meta
	WorkSize   int64 // the feature-map memory the user passed
	WeightSize int64 // the weight memory the user passed; -1 when not printed
}

const userMemMarker = "WithMem"

func init() {
	// ACL's functions carry the marker in their name: their lines are
	// the family's whatever they say.
	Register(Family{Name: "user-memory-load", Match: func(env *plog.Envelope, msg []byte) bool {
		return bytes.Contains(msg, []byte(userMemMarker)) || bytes.Contains(env.Func, []byte(userMemMarker))
	}, Parse: parseUserMemLoad, Rare: true})
}

func parseUserMemLoad(_ *plog.Envelope, msg []byte, m Meta, line []byte) Record {
	v, ok, closed := field(msg, "workSize")
	if !ok {
		return &Ignored{Meta: m, What: diag.IgnoreModelLoadTrace}
	}
	if !closed {
		return Rejectf(m, line, diag.Truncated, "cut inside workSize[...]")
	}
	r := &UserMemoryLoad{Meta: m, WeightSize: -1}
	var e numErr
	if r.WorkSize, e = parseInt(v); e != numOK {
		return badNum(m, line, "workSize", e)
	}
	if w, ok, closed := field(msg, "weightSize"); ok && closed {
		if r.WeightSize, e = parseInt(w); e != numOK {
			return badNum(m, line, "weightSize", e)
		}
	}
	return r
}
