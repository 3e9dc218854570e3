package gelog

import (
	"bytes"
	"unsafe"

	"imas/core/diag"
	"imas/core/plog"
)

// Variable memory: "[IMAS]AssignVarMem Set session_<sid> name[..] ..."
// (docs/log-formats.md#variables), every variant since 2020-05.

// VarAssign is one AssignVarMem line.
type VarAssign struct {
	Meta
	Session string // the <sid> of session_<sid>
	Name    string
	// Kind is hbm (offset in the session's variable area), rdma (address
	// printed), host (host address printed in output[...]) or reuse (the
	// variable shares the memory of ReuseOf).
	Kind     string
	Index    int64
	Offset   int64 // -1 when the line prints an address instead
	Addr     uint64
	HasAddr  bool
	Size     int64 // consumed bytes (realsize + 1024 for HBM); 0 when not printed
	RealSize int64
	ReuseOf  string
}

const varMarker = "[IMAS]AssignVarMem"

func init() {
	Register(Family{
		Name:  "variables",
		Match: func(_ *plog.Envelope, msg []byte) bool { return bytes.Contains(msg, []byte(varMarker)) },
		Parse: parseVarAssign,
		ParseInto: func(_ *plog.Envelope, msg []byte, m Meta, line []byte, sc *Scratch) Record {
			return parseVarAssignInto(msg, m, line, &sc.Var)
		},
	})
}

func parseVarAssign(_ *plog.Envelope, msg []byte, m Meta, line []byte) Record {
	return parseVarAssignInto(msg, m, line, nil)
}

// parseVarAssignInto parses into dst when it is not nil, the variable's
// name borrowed from line (see Scratch); sessions are interned.
func parseVarAssignInto(msg []byte, m Meta, line []byte, dst *VarAssign) Record {
	s := msg[bytes.Index(msg, []byte(varMarker))+len(varMarker):]
	s = bytes.TrimLeft(s, " ")
	s = bytes.TrimPrefix(s, []byte("Set "))
	r := dst
	if r == nil {
		r = new(VarAssign)
	}
	*r = VarAssign{Meta: m, Offset: -1}
	if !bytes.HasPrefix(s, []byte("session_")) {
		return reject(m, line, missingOrCut(m, line, "session"), "session_<id> missing")
	}
	sp := bytes.IndexByte(s, ' ')
	if sp < 0 {
		return reject(m, line, diag.Truncated, "cut after the session")
	}
	r.Session, _ = internName(s[len("session_"):sp])
	rest := s[sp+1:]
	name, after, ok, closed := nameField(rest)
	if !ok || !closed {
		return reject(m, line, missingOrCut(m, line, "name"), "name[...] missing or cut")
	}
	if dst != nil && len(name) > 0 {
		r.Name = unsafe.String(&name[0], len(name))
	} else {
		r.Name = string(name)
	}
	out, ok, closed := fieldAfter(rest, after, "output")
	if !ok || !closed {
		return reject(m, line, missingOrCut(m, line, "output"), "output[...] missing")
	}
	var e numErr
	tail := rest[after:]
	reuse := bytes.Index(tail, []byte("reuse address of node:"))
	switch {
	case reuse >= 0:
		r.Kind = "reuse"
		r.ReuseOf = string(bytes.TrimRight(bytes.TrimSpace(tail[reuse+len("reuse address of node:"):]), "."))
	case bytes.Contains(tail, []byte("addr to [")):
		r.Kind = "rdma"
	case bytes.Contains(tail, []byte("offset to [")):
		r.Kind = "hbm"
	default:
		r.Kind = "host" // output[<host address as %zu>] size[..]
	}
	if r.Kind == "host" {
		v, e := parseInt(out)
		if e != numOK {
			return badNum(m, line, "output (host address)", e)
		}
		r.Addr, r.HasAddr = uint64(v), true
	} else if r.Index, e = parseInt(out); e != numOK {
		return badNum(m, line, "output", e)
	}
	switch r.Kind {
	case "rdma":
		v, ok, closed := fieldAfter(rest, after, "addr to ")
		if !ok || !closed {
			return reject(m, line, diag.Truncated, "addr to [...] cut")
		}
		if r.Addr, ok = parseAddr(v); !ok {
			return reject(m, line, diag.BadNumber, "addr to [...] is not an address")
		}
		r.HasAddr = true
	case "hbm", "reuse":
		v, ok, closed := fieldAfter(rest, after, "offset to ")
		if !ok || !closed {
			return reject(m, line, missingOrCut(m, line, "offset"), "offset to [...] missing")
		}
		if r.Offset, e = parseInt(v); e != numOK {
			return badNum(m, line, "offset to", e)
		}
	}
	// size is required except on the FileConstant reuse form, which has none.
	if v, ok, closed := fieldAfter(rest, after, "size"); ok && closed {
		if r.Size, e = parseInt(v); e != numOK {
			return badNum(m, line, "size", e)
		}
	} else if r.Kind != "reuse" {
		return reject(m, line, missingOrCut(m, line, "size"), "size[...] missing")
	}
	if v, ok, closed := fieldAfter(rest, after, "realsize"); ok && closed {
		if r.RealSize, e = parseInt(v); e != numOK {
			return badNum(m, line, "realsize", e)
		}
	} else if r.Kind == "hbm" {
		return reject(m, line, missingOrCut(m, line, "realsize"), "realsize[...] missing")
	}
	if r.Offset < -1 || r.Size < 0 || r.RealSize < 0 {
		return reject(m, line, diag.NegativeValue, "negative offset or size")
	}
	return r
}
