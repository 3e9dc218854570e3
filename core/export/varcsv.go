package export

import (
	"io"
	"strconv"

	"imas/core/model"
)

// WriteVarCSV writes imas_mem_variable.csv: per (pid, session) one row per
// [IMAS]AssignVarMem line, in the key/value style of the other imas CSVs,
//
//	Process_<pid>,session_<sid>,name_<var>_output_<i>_offset to ,<offset>,size,<n>,realsize,<n>,type,hbm
//
// (rdma and host variables print "addr to" and the address; reuse rows add
// "reuse address of node,<node>"), then a summary row
//
//	Process_<pid>,session_<sid>,summary,count,<n>,size_sum,<bytes>,area_end,<bytes>,reuse_count,<n>
func WriteVarCSV(w io.Writer, rep *model.Report) error {
	c := newCSV(w)
	for _, s := range rep.Variables {
		proc, sess := "Process_"+s.PID, "session_"+s.Session
		for i := range s.Rows {
			r := &s.Rows[i]
			c.Cell(proc)
			c.Cell(sess)
			name := "name_" + r.Name + "_output_" + strconv.FormatInt(r.Index, 10)
			if r.Offset >= 0 {
				c.Cell(name + "_offset to ")
				c.Int(r.Offset)
			} else {
				c.Cell(name + "_addr to ")
				c.Cell(r.Addr)
			}
			c.KI("size", r.Size)
			c.KI("realsize", r.RealSize)
			c.KV("type", r.Kind)
			if r.ReuseOf != "" {
				c.KV("reuse address of node", r.ReuseOf)
			}
			c.End()
		}
		c.Cell(proc)
		c.Cell(sess)
		c.Cell("summary")
		c.KI("count", s.Count)
		c.KV("size_sum", Bytes(s.SizeSum))
		c.KV("area_end", Bytes(s.AreaEnd))
		c.KI("reuse_count", s.ReuseCount)
		if s.RdmaSize > 0 {
			c.KV("rdma_size", Bytes(s.RdmaSize))
		}
		if s.HostSize > 0 {
			c.KV("host_size", Bytes(s.HostSize))
		}
		c.End()
	}
	return c.Flush()
}
