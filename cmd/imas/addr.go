package main

import (
	"context"
	"fmt"
	"io"

	"imas/core/export"
)

func init() {
	register(&command{
		name:    "addr",
		usage:   "addr PATH...",
		summary: "print region bases and operator addresses with the validity check (imas_mem_addr.csv)",
		run:     runAddr,
	})
}

// runAddr prints the rows of imas_mem_addr.csv: per graph its region base
// rows, its address rows and a check row. Invalid addresses are also listed
// on stderr so that they are seen when stdout goes to a file.
func runAddr(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(commands["addr"], stderr)
	if code := parseFlags(fs, args, true); code >= 0 {
		return code
	}
	rep, code := analyzePaths(ctx, fs.Args(), stderr)
	if rep == nil || code != exitOK {
		return code
	}
	if err := export.WriteAddrCSV(stdout, rep); err != nil {
		fmt.Fprintln(stderr, "imas:", err)
		return exitNoInput
	}
	if len(rep.Regions) == 0 && len(rep.AddressChecks) == 0 {
		fmt.Fprintln(stderr, "imas: no [IMAS]InitFeatureMapAndP2PMem or operator address lines: they are INFO lines of the model load stage")
	}
	for _, ac := range rep.AddressChecks {
		for _, b := range ac.Invalid {
			fmt.Fprintf(stderr, "imas: Process_%s graph_%d: %s[%d] of %s at %s is outside its region\n", ac.PID, ac.GraphID, b.Kind, b.Index, b.Name, b.MemAddr)
		}
	}
	return exitOK
}
