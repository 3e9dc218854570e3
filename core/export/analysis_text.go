package export

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"imas/core/model"
)

// SizeText formats bytes as the GE memory guide shows them: "1049088 (1.00M)",
// plain digits up to 1 KiB.
func SizeText(n int64) string {
	if n >= -1024 && n <= 1024 {
		return strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10) + " (" + Human(n) + ")"
}

// writeGraphFindings writes what "imas total" adds under a graph's summary
// line: its reuse conflicts, if any. The line must not match the tuning
// script's grep for "reuse_rate|reuse rate".
func writeGraphFindings(w io.Writer, g *model.Graph) {
	if len(g.Conflicts) == 0 {
		return
	}
	const show = 3
	var pairs []string
	for i, c := range g.Conflicts {
		if i == show {
			pairs = append(pairs, "...")
			break
		}
		pairs = append(pairs, c.A+" × "+c.B)
	}
	fmt.Fprintf(w, "  reuse conflicts: %d (data corruption risk, see imas check): %s\n", len(g.Conflicts), strings.Join(pairs, ", "))
}

// WriteCheck writes "imas check": every reuse conflict and every operator
// address outside its region. It returns how many findings it wrote.
func WriteCheck(w io.Writer, rep *model.Report) (int, error) {
	bw := bufio.NewWriter(w)
	memErrs := writeMemoryErrors(bw, rep)
	conflicts, cgraphs := 0, 0
	for _, g := range rep.Graphs {
		if len(g.Conflicts) == 0 {
			continue
		}
		if cgraphs == 0 {
			fmt.Fprintln(bw, "reuse conflicts (address ranges and lifetimes overlap: data corruption risk)")
		}
		cgraphs++
		conflicts += len(g.Conflicts)
		fmt.Fprintf(bw, "pid %s %s memtype %d: %d\n", g.PID, g.Graph, g.MemType, len(g.Conflicts))
		for _, c := range g.Conflicts {
			fmt.Fprintf(bw, "  %s × %s  offset %d size %s  lifetime %s  stream %s\n",
				c.A, c.B, c.Offset, Bytes(c.Size), model.FormatLife(c.Lifetime[0], c.Lifetime[1]), c.Stream)
		}
	}
	invalid, agraphs, checked := 0, 0, int64(0)
	unchecked := map[string]int64{}
	for _, a := range rep.AddressChecks {
		checked += a.Checked
		for why, n := range a.Unchecked {
			unchecked[why] += n
		}
		if len(a.Invalid) == 0 {
			continue
		}
		if agraphs == 0 {
			fmt.Fprintln(bw, "invalid addresses (outside the region of their graph)")
		}
		agraphs++
		invalid += len(a.Invalid)
		fmt.Fprintf(bw, "pid %s graph_%d: %d of %d checked\n", a.PID, a.GraphID, len(a.Invalid), a.Checked)
		for _, b := range a.Invalid {
			fmt.Fprintf(bw, "  %s %s[%d] %s\n", b.Name, b.Kind, b.Index, b.MemAddr)
		}
	}
	fmt.Fprint(bw, "check: ")
	if conflicts == 0 {
		fmt.Fprintf(bw, "no reuse conflicts in %d graphs", len(rep.Graphs))
	} else {
		fmt.Fprintf(bw, "%d reuse %s in %d of %d graphs", conflicts, plural(conflicts, "conflict", "conflicts"), cgraphs, len(rep.Graphs))
	}
	if invalid == 0 {
		fmt.Fprintf(bw, ", no invalid addresses (%d checked%s)\n", checked, UncheckedText(unchecked))
	} else {
		fmt.Fprintf(bw, ", %d invalid %s of %d checked%s\n", invalid, plural(invalid, "address", "addresses"), checked, UncheckedText(unchecked))
	}
	if memErrs > 0 {
		fmt.Fprintf(bw, "check: %d memory %s (see above)\n", memErrs, plural(memErrs, "error", "errors"))
	}
	return memErrs + conflicts + invalid, bw.Flush()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// WritePeak writes "imas peak": per graph, the top blocks live at the peak
// step as a markdown table (docs/analyses.md, "3. Peak breakdown"), then where
// after_reuse − theory_min goes.
func WritePeak(w io.Writer, rep *model.Report, top int) error {
	bw := bufio.NewWriter(w)
	for i, g := range rep.Graphs {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "## pid %s %s memtype %d\n\n", g.PID, g.Graph, g.MemType)
		p := g.Peak
		if p == nil {
			fmt.Fprintln(bw, "no [IMAS]Set rows: only GE's summary line is known")
			continue
		}
		fmt.Fprintf(bw, "peak at step %d: %s in %d live blocks; theory_min counts %s live there\n\n", p.Step, SizeText(p.Live), p.Blocks, SizeText(p.Theory))
		fmt.Fprintln(bw, "| # | name | tensor | offset | size | lt | r:c:z:s | optype | notes |")
		fmt.Fprintln(bw, "|---|---|---|---|---|---|---|---|---|")
		n := 0
		for k, it := range p.Tensors {
			// An alias listed under its block gets no rank of its own.
			rank := ""
			if it.AliasOf == "" || k == 0 || p.Tensors[k-1].Offset != it.Offset {
				if n == top {
					break
				}
				n++
				rank = strconv.Itoa(n)
			}
			node, tensor := splitKey(it.Key)
			var notes []string
			if it.AliasOf != "" {
				notes = append(notes, "isref → "+it.AliasOf)
			}
			if it.Shared > 1 {
				notes = append(notes, fmt.Sprintf("block of %d rows", it.Shared))
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", rank, mdCell(node), tensor, it.Offset, SizeText(it.Size),
				it.Life, it.Flags, mdCell(it.OpType), mdCell(strings.Join(notes, "; ")))
		}
		fmt.Fprintln(bw)
		writeWaste(bw, g)
	}
	if len(rep.Graphs) > 0 {
		fmt.Fprintln(bw, "\nlt = lifetime, first→last step (∞ = to the end of the graph); r:c:z:s = reuse:continuous:zero-copy:same-stream.")
	}
	return bw.Flush()
}

func writeWaste(w io.Writer, g *model.Graph) {
	ws := g.Waste
	if ws == nil {
		return
	}
	var parts []string
	for _, p := range ws.Parts {
		if p.Bytes != 0 {
			parts = append(parts, p.Cause+" "+SizeText(p.Bytes))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing to explain")
	}
	fmt.Fprintf(w, "after_reuse − theory_min = %s: %s\n", SizeText(ws.Gap), strings.Join(parts, ", "))
	if len(ws.Holes) > 0 {
		var holes []string
		for _, h := range ws.Holes {
			holes = append(holes, fmt.Sprintf("%s at %d", SizeText(h.Size), h.Offset))
		}
		fmt.Fprintf(w, "largest holes below the reuse-region top %d at step %d: %s\n", ws.ReuseTop, ws.Step, strings.Join(holes, ", "))
	}
}

// splitKey splits "node:kind:index" into the node and "kind_index", the
// way the guide's tables show tensors (node names may hold ':').
func splitKey(key string) (node, tensor string) {
	i := strings.LastIndexByte(key, ':')
	if i < 0 {
		return key, ""
	}
	j := strings.LastIndexByte(key[:i], ':')
	if j < 0 {
		return key[:i], key[i+1:]
	}
	return key[:j], key[j+1:i] + "_" + key[i+1:]
}

// mdCell escapes a markdown table cell.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// UncheckedText is ", N not checked: R1 n1, R2 n2" for the addresses that
// had no region to be checked against, by reason; "" when there are none.
func UncheckedText(unchecked map[string]int64) string {
	var total int64
	var parts []string
	for _, why := range sortedKeys(unchecked) {
		total += unchecked[why]
		parts = append(parts, fmt.Sprintf("%s %d", why, unchecked[why]))
	}
	if total == 0 {
		return ""
	}
	return fmt.Sprintf(", %d not checked: %s", total, strings.Join(parts, ", "))
}

func sortedKeys(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k, n := range m {
		if n > 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
