package model

import "imas/core/gelog"

// otherState holds the builder state of the load- and run-time record
// families (variables, device mallocs, regions, addresses, pools, devmm).
type otherState struct{}

// addOther handles records that are not static-graph statements. It
// returns false for record types it does not know.
func (b *Builder) addOther(rec gelog.Record) bool { return false }

// finishOther completes the load- and run-time parts of the report.
func (b *Builder) finishOther() {}
