package export

import (
	"cmp"
	"io"
	"slices"
	"strconv"

	"imas/core/model"
)

// WriteAddrCSV writes imas_mem_addr.csv (and "imas addr"): per process and
// graph id, its region base rows in the old layout (docs/figures.md#csv-addr)
//
//	Process_<pid>,<graph id>,baseaddr,memaddr,<base>,mem_size,<n>,type,<F|W|V>,valid memaddr range[<base>~<end>]
//
// then its address rows
//
//	name_<node>_<kind>_<i>,type,F,size,<n>,memaddr,<addr>[,offset,<addr − base>][,status,invalid|mismatch][,compiled offset,<n>]
//
// then a check row "Process_<pid>,<graph id>,check,checked,<n>,invalid,<n>,...".
// Old lines without size leave the size cell empty. Ranges that belong to
// no graph (ReserveVirtualMemory) come first with graph id -1.
func WriteAddrCSV(w io.Writer, rep *model.Report) error {
	c := newCSV(w)
	type key struct {
		pid string
		gid int64
	}
	regions := map[key][]int{}
	checks := map[key]*model.AddressCheck{}
	var keys []key
	add := func(k key) {
		if _, ok := regions[k]; !ok {
			if _, ok := checks[k]; !ok {
				keys = append(keys, k)
			}
		}
	}
	for i := range rep.Regions {
		k := key{rep.Regions[i].PID, rep.Regions[i].GraphID}
		add(k)
		regions[k] = append(regions[k], i)
	}
	for i := range rep.AddressChecks {
		k := key{rep.AddressChecks[i].PID, rep.AddressChecks[i].GraphID}
		add(k)
		checks[k] = &rep.AddressChecks[i]
	}
	slices.SortStableFunc(keys, func(a, b key) int {
		if a.pid != b.pid {
			if len(a.pid) != len(b.pid) {
				return cmp.Compare(len(a.pid), len(b.pid))
			}
			return cmp.Compare(a.pid, b.pid)
		}
		return cmp.Compare(a.gid, b.gid)
	})
	for _, k := range keys {
		for _, i := range regions[k] {
			regionRow(c, &rep.Regions[i])
		}
		ac := checks[k]
		if ac == nil {
			continue
		}
		compiled := map[int64]int64{}
		for _, m := range ac.Mismatches {
			compiled[m.Line] = m.Compiled
		}
		rows, err := rep.AddrRows(ac)
		if err != nil {
			return err
		}
		for i := range rows {
			addrRow(c, rep, &rows[i], compiled)
		}
		c.Cell("Process_" + ac.PID)
		c.Int(ac.GraphID)
		c.Cell("check")
		c.KI("checked", ac.Checked)
		c.KI("invalid", int64(len(ac.Invalid)))
		c.KI("offset mismatch", int64(len(ac.Mismatches)))
		c.KI("reconciled", ac.Reconciled)
		if ac.Graph != "" {
			c.KV("graph", ac.Graph)
		}
		for _, why := range sortedKeys(ac.Unchecked) {
			c.KI("unchecked "+why, ac.Unchecked[why])
		}
		c.End()
	}
	return c.Flush()
}

func regionRow(c *csvWriter, r *model.Region) {
	c.Cell("Process_" + r.PID)
	c.Int(r.GraphID)
	c.Cell("baseaddr")
	c.KV("memaddr", r.Base)
	c.KI("mem_size", r.Size)
	c.KV("type", r.Type)
	c.Cell("valid memaddr range[" + r.Base + "~" + "0x" + strconv.FormatUint(r.Addr+uint64(r.Size), 16) + "]")
	if r.MemType != 0 {
		c.KI("mem_type", r.MemType)
	}
	if r.Graph != "" {
		c.KV("graph", r.Graph)
	}
	if r.Released {
		c.KV("released", "1")
	}
	c.End()
}

func addrRow(c *csvWriter, rep *model.Report, r *model.AddrRow, compiled map[int64]int64) {
	name := "name_" + r.Name + "_" + r.Kind
	if r.Index >= 0 {
		name += "_" + strconv.FormatInt(r.Index, 10)
	}
	c.Cell(name)
	c.KV("type", r.Type)
	if r.Size >= 0 {
		c.KI("size", r.Size)
	} else {
		c.KV("size", "")
	}
	switch {
	case r.Status == "null":
		c.KV("memaddr", "Null addr")
	case r.Status == "failed":
		c.KV("memaddr", "get failed")
	default:
		c.KV("memaddr", r.MemAddr)
	}
	if r.Region > 0 && r.MemAddr != "" {
		c.KI("offset", int64(r.Addr)-int64(rep.Regions[r.Region-1].Addr))
	}
	if r.Why != "" {
		c.KV("unchecked", r.Why)
	}
	if r.Status == "invalid" || r.Status == "mismatch" {
		c.KV("status", r.Status)
		if off, ok := compiled[r.Line]; ok {
			c.KI("compiled offset", off)
		}
	}
	if r.Variant != "" {
		c.KV("variant", r.Variant)
	}
	if r.OpType != "" {
		c.KV("optype", r.OpType)
	}
	switch r.Statement {
	case "InitConstant", "Init FileConstant", "CopyPlainData", "CopyTransData", "ffts", "GetInputConstAddrOffset":
		c.KV("statement", r.Statement)
	}
	if r.DataSize > 0 {
		c.KI("datasize", r.DataSize)
	}
	c.End()
}
