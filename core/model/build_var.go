package model

import "imas/core/gelog"

type varKey struct {
	pid     int64
	session string
}

// addVar files an AssignVarMem row under its (pid, session). The session
// figures are computed by the analyze package.
func (b *Builder) addVar(r *gelog.VarAssign) {
	o := b.o()
	k := varKey{r.PID, r.Session}
	s := o.vars[k]
	if s == nil {
		s = &VarSession{PID: pidString(r.PID), Session: r.Session, Rows: []VarRow{}}
		o.vars[k] = s
		o.varList = append(o.varList, s)
	}
	row := VarRow{Name: b.Intern(r.Name), Kind: r.Kind, Index: r.Index, Offset: r.Offset,
		Size: r.Size, RealSize: r.RealSize, ReuseOf: b.Intern(r.ReuseOf), Line: r.Line, File: r.File}
	if r.HasAddr {
		row.Addr = hexAddr(r.Addr)
	}
	s.Rows = append(s.Rows, row)
}
