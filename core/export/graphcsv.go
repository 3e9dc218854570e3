package export

import (
	"io"
	"strconv"
	"strings"

	"imas/core/model"
)

// WriteGraphCSV writes imas_mem_graph.csv: per graph and memory type, one op
// row per [IMAS]Set placement, one reassign row per continuous line, and a
// summary row last (docs/figures.md#csv-graph).
func WriteGraphCSV(w io.Writer, rep *model.Report) error {
	c := newCSV(w)
	for _, g := range rep.Graphs {
		g, err := rep.WithRows(g)
		if err != nil {
			return err
		}
		proc := "Process_" + g.PID
		for i := range g.Rows {
			r := &g.Rows[i]
			c.Cell(proc)
			c.Cell(g.Graph)
			c.KV("optype", r.OpType)
			c.Cell("name_" + r.Node + "_" + r.Kind + "_" + strconv.FormatInt(r.Index, 10) + "_offset to ")
			c.Int(r.Offset)
			c.KV("streamid", streamText(r))
			c.KI("memory_type", r.MemType)
			c.KI("size", r.Size)
			c.KI("realsize", r.RealSize)
			c.KI("noalignsize", r.NoAlign)
			lb, le := r.LifeText()
			if lb == "" {
				lb = strconv.FormatInt(r.LifeBegin, 10)
			}
			if le == "" {
				le = strconv.FormatInt(r.LifeEnd, 10)
			}
			c.KV("life time begin", lb)
			c.KV("life time end", le)
			c.KV("child:r:c:z:s", childText(r))
			c.KI("isref", int64(r.IsRef))
			c.KV("batch", r.Batch)
			c.End()
		}
		for i := range g.Reassign {
			r := &g.Reassign[i]
			c.Cell(proc)
			c.Cell(g.Graph)
			c.KV("optype", r.OpType)
			c.Cell("name_" + r.Node + "_" + r.Kind + "_" + strconv.FormatInt(r.Index, 10) + "_offset to ")
			c.Int(r.Offset)
			c.KI("streamid", r.Stream)
			c.KI("memory_type", r.MemType)
			c.KI("size", r.Size)
			c.KI("realsize", r.RealSize)
			c.Cell("reassign " + r.Dir)
			np := int64(0)
			if r.NoPadding {
				np = 1
			}
			c.KI("nopadding", np)
			c.End()
		}
		SummaryCells(c, g)
		c.End()
	}
	return c.Flush()
}

func streamText(r *model.Row) string {
	if r.StreamDesc != "" {
		return r.StreamDesc
	}
	return strconv.FormatInt(r.Stream, 10)
}

func childText(r *model.Row) string {
	parts := []int64{r.Child, int64(r.Reuse), int64(r.Continuous), int64(r.ZeroCopy), int64(r.SameStream)}
	n := int(r.ChildParts)
	if n <= 0 || n > 5 {
		n = 5
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strconv.FormatInt(parts[i], 10))
	}
	return b.String()
}

// SummaryCells writes the summary row cells of one graph.
func SummaryCells(c *csvWriter, g *model.Graph) {
	c.Cell("Process_" + g.PID)
	c.Cell(g.Graph)
	c.KI("memory_type", g.MemType)
	c.KV("memory_size", Bytes(g.MemorySize))
	c.Cell("reuse rate:" + Rate(g.ReuseRate) + "%")
	c.Cell(Detail(g))
}

// Detail is the "detail[...]" text of a graph summary.
func Detail(g *model.Graph) string {
	mop, _ := g.Logged.Get("mop")
	smp, _ := g.Logged.Get("smp")
	// Written piece by piece into one buffer of about the line's size: a
	// run of many small graphs prints thousands of these.
	var b strings.Builder
	b.Grow(256)
	b.WriteString("detail[reach_theory_rate:")
	b.WriteString(Rate2(g.ReachTheoryRate))
	for _, kv := range []struct {
		k string
		v int64
	}{{"total", g.Total}, {"after_reuse", g.AfterReuse}, {"theory_min", g.TheoryMin}, {"io", g.ZeroCopy},
		{"no_reuse", g.NoReuse}, {"atomic", g.Atomic}, {"continuous", g.Continuous}} {
		b.WriteByte(' ')
		b.WriteString(kv.k)
		b.WriteByte(':')
		b.WriteString(Bytes(kv.v))
	}
	b.WriteString(" streams:")
	b.WriteString(strconv.FormatInt(g.Streams, 10))
	for _, kv := range [...][2]string{{" topo:", g.Topo}, {" mop:", mop}, {" smp:", smp}} {
		b.WriteString(kv[0])
		b.WriteString(kv[1])
	}
	b.WriteByte(']')
	return b.String()
}

// SummaryLine is the summary row as one text line (imas total).
func SummaryLine(g *model.Graph) string {
	var sb strings.Builder
	c := lineCSV(&sb)
	SummaryCells(c, g)
	c.Flush()
	return sb.String()
}
