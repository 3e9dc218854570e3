package gelog

import (
	"bytes"

	"imas/core/diag"
	"imas/core/plog"
)

// GE's zero-copy figures, printed while a graph's memory is assigned and
// when its model is built (no graph name: they belong to the graph being
// built):
//
//	ResizeMemoryBlocks:   mem_offset_ exclude zero_copy_memory is <n>.
//	AssignZeroCopyMemory: mem_offset_ include zero_copy_memory is <n>.
//	BuildModelDef:        For model, max_mem_offset_: <n>, zero_copy_mem_size_: <n>            (2020)
//	BuildModelDef:        For model, max_mem_offset: <n>, ..., zero_copy_mem_size: <n>, ...  (2023)
//
// GE lays the zero-copy (graph input/output) blocks out after the reused
// area: include − exclude is their size, which BuildModelDef prints as
// zero_copy_mem_size.

// ZeroCopySize is one of those lines.
type ZeroCopySize struct {
	Meta
	What  string // ZeroCopyExclude, ZeroCopyInclude or ZeroCopyBuild
	Value int64
}

// ZeroCopySize.What values.
const (
	ZeroCopyExclude = "exclude"
	ZeroCopyInclude = "include"
	ZeroCopyBuild   = "build"
)

func init() {
	Register(Family{Name: "zero-copy", Match: matchZeroCopy, Parse: parseZeroCopy})
}

func matchZeroCopy(_ *plog.Envelope, msg []byte) bool {
	return bytes.Contains(msg, []byte("zero_copy_memory is ")) || bytes.Contains(msg, []byte("zero_copy_mem_size"))
}

func parseZeroCopy(_ *plog.Envelope, msg []byte, m Meta, line []byte) Record {
	r := &ZeroCopySize{Meta: m}
	var v []byte
	if i := bytes.Index(msg, []byte("zero_copy_memory is ")); i >= 0 {
		switch {
		case bytes.HasSuffix(bytes.TrimRight(msg[:i], " "), []byte("include")):
			r.What = ZeroCopyInclude
		case bytes.HasSuffix(bytes.TrimRight(msg[:i], " "), []byte("exclude")):
			r.What = ZeroCopyExclude
		default:
			return reject(m, line, diag.Unrecognised, "zero_copy_memory without include/exclude")
		}
		v = leadingDigits(msg[i+len("zero_copy_memory is "):])
	} else {
		i := bytes.Index(msg, []byte("zero_copy_mem_size"))
		s := bytes.TrimLeft(msg[i+len("zero_copy_mem_size"):], "_")
		if !bytes.HasPrefix(s, []byte(":")) {
			return reject(m, line, missingOrCut(m, line, "zero_copy_mem_size"), "zero_copy_mem_size: <n> expected")
		}
		r.What = ZeroCopyBuild
		v = leadingDigits(bytes.TrimLeft(s[1:], " "))
	}
	var e numErr
	if r.Value, e = parseInt(v); e != numOK {
		if e == numEmpty {
			return reject(m, line, missingOrCut(m, line, "zero_copy"), "zero-copy size missing")
		}
		return badNum(m, line, "zero-copy size", e)
	}
	return r
}
