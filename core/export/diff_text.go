package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"imas/core/analyze"
)

// WriteDiff writes "imas diff": the summed figures, then per matched graph
// every figure in both runs, the tensors added, removed and resized, and
// the biggest movers; graphs found in one run only come last.
func WriteDiff(w io.Writer, d *analyze.DiffResult) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "imas diff\n  old: %s\n  new: %s\n\n", d.Old, d.New)
	fmt.Fprintf(bw, "all graphs (%d matched, %d only in old, %d only in new)\n", len(d.Graphs), len(d.OnlyOld), len(d.OnlyNew))
	writeDeltas(bw, d.Totals, "", "")
	for _, g := range d.Graphs {
		fmt.Fprintf(bw, "\n%s memtype %d", g.Old.Graph, g.Old.MemType)
		if g.New.Graph != g.Old.Graph {
			fmt.Fprintf(bw, " → %s", g.New.Graph)
		}
		fmt.Fprintf(bw, " (pid %s → %s, matched by %s)\n", g.Old.PID, g.New.PID, g.MatchBy)
		c := g.Counts
		if unchanged(g) {
			fmt.Fprintln(bw, "  no change")
			continue
		}
		writeDeltas(bw, g.Figures, g.TopoOld, g.TopoNew)
		fmt.Fprintf(bw, "tensors: %d added (%s), %d removed (%s), %d resized (%s)\n",
			c.Added, signed(c.AddedBytes), c.Removed, signed(c.RemovedBytes), c.Resized, signed(c.ResizedBytes))
		if len(g.Movers) > 0 {
			fmt.Fprintln(bw, "biggest movers (realsize):")
			tw := tabwriter.NewWriter(bw, 0, 8, 2, ' ', 0)
			for _, m := range g.Movers {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", signed(m.Delta), m.Change, m.Key, m.OpType)
			}
			tw.Flush()
		}
	}
	for _, r := range d.OnlyOld {
		fmt.Fprintf(bw, "\nonly in old: pid %s %s memtype %d\n", r.PID, r.Graph, r.MemType)
	}
	for _, r := range d.OnlyNew {
		fmt.Fprintf(bw, "\nonly in new: pid %s %s memtype %d\n", r.PID, r.Graph, r.MemType)
	}
	return bw.Flush()
}

func unchanged(g *analyze.GraphDiff) bool {
	for _, d := range g.Figures {
		if d.Delta != 0 {
			return false
		}
	}
	return g.TopoOld == g.TopoNew && len(g.Movers) == 0
}

// WriteDiffJSON writes the diff as JSON (what POST /api/diff returns).
func WriteDiffJSON(w io.Writer, d *analyze.DiffResult) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(d)
}

func writeDeltas(w io.Writer, ds []analyze.Delta, topoOld, topoNew string) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "  figure\told\tnew\tdelta")
	for _, d := range ds {
		if analyze.RateFigure(d.Name) {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", d.Name, Rate2(d.Old), Rate2(d.New), signedRate(d.Delta))
			continue
		}
		o, n, dd := int64(d.Old), int64(d.New), int64(d.Delta)
		if d.Name == "streams" || d.Name == "tensors" || d.Name == "conflicts" {
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\n", d.Name, o, n, signedCount(dd))
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", d.Name, Bytes(o), Bytes(n), signed(dd))
	}
	if topoOld != "" || topoNew != "" {
		mark := "="
		if topoOld != topoNew {
			mark = "changed"
		}
		fmt.Fprintf(tw, "  topo\t%s\t%s\t%s\n", topoOld, topoNew, mark)
	}
	tw.Flush()
}

// signed formats a byte delta: "+512", "-1048576(-1.00M)", "=" for none.
func signed(n int64) string {
	if n == 0 {
		return "="
	}
	if n > 0 {
		return "+" + Bytes(n)
	}
	return Bytes(n)
}

func signedCount(n int64) string {
	if n == 0 {
		return "="
	}
	if n > 0 {
		return "+" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

func signedRate(x float64) string {
	if x == 0 {
		return "="
	}
	s := Rate2(x)
	if x > 0 {
		s = "+" + s
	}
	return s
}

// WriteCompare writes "imas compare": the runs ranked best first as the
// tuning summary's markdown table (docs/analyses.md, "4. Run comparison"),
// then the best run, the GE options that select it and where to look
// deeper.
func WriteCompare(w io.Writer, c *analyze.Comparison) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "| # | Total | AfterReuse | TheoryMin | Atomic+Cont | Streams | topo | Policy | Run |")
	fmt.Fprintln(bw, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range c.Runs {
		fmt.Fprintf(bw, "| %d | %s | %s | %s | %s | %d | %s | %s | %s |\n", r.Rank, SizeText(r.Total), SizeText(r.AfterReuse), SizeText(r.TheoryMin),
			SizeText(r.Atomic+r.Continuous), r.Streams, analyze.TopoText(r.Topo), mdCell(r.Policy), mdCell(r.Run))
	}
	if len(c.Runs) == 0 {
		return bw.Flush()
	}
	best, worst := c.Runs[0], c.Runs[len(c.Runs)-1]
	fmt.Fprintf(bw, "\nbest: %s (after_reuse %s", best.Run, SizeText(best.AfterReuse))
	if worst.AfterReuse > best.AfterReuse {
		fmt.Fprintf(bw, ", %s less than the worst", SizeText(worst.AfterReuse-best.AfterReuse))
	}
	fmt.Fprintln(bw, ")")
	if len(c.Options) > 0 {
		fmt.Fprintf(bw, "recommended: %s\n", strings.Join(c.Options, " + "))
	}
	if best.Conflicts > 0 {
		fmt.Fprintf(bw, "warning: the best run has %d reuse %s (imas check)\n", best.Conflicts, plural(best.Conflicts, "conflict", "conflicts"))
	}
	fmt.Fprintf(bw, "deeper analysis: imas report %s\n", best.Run)
	return bw.Flush()
}
