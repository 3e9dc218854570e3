package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log holding only an out-of-memory chain is a finding: "imas total"
// opens with it (exit 0, no INFO-level advice), "imas check" exits 3.
func TestMemoryErrorsFirst(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "oom.log")
	lines := strings.Join([]string{
		"[ERROR] DRV(77,train):2025-03-04-05:06:07.000.100 [ascend][curpid: 77, 77][drv][devmm][halMemCreate 3000]<errno:12, 6> Mem create failed. (ret=6; size=6291456; side=1; devid=2)",
		"[ERROR] RUNTIME(77,train):2025-03-04-05:06:07.000.900 [api_c.cc:4700]77 rtMallocPhysical:[INIT][DEFAULT]ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016",
	}, "\n") + "\n"
	if err := os.WriteFile(log, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"total", log}, &out, &errs); code != exitOK {
		t.Fatalf("total: exit %d, stderr %s", code, errs.String())
	}
	if !strings.HasPrefix(out.String(), "Memory errors (1)\n") || !strings.Contains(out.String(), "asked 6291456(6.00M) by halMemCreate [DRV], called from rtMallocPhysical") {
		t.Errorf("total does not open with the error:\n%s", out.String())
	}
	if strings.Contains(errs.String(), "nothing recognised") {
		t.Errorf("stderr: %s", errs.String())
	}
	out.Reset()
	errs.Reset()
	if code := run(context.Background(), []string{"check", log}, &out, &errs); code != exitFinding {
		t.Errorf("check: exit %d, want %d\n%s", code, exitFinding, out.String())
	}
	if !strings.Contains(out.String(), "check: 1 memory error (see above)") {
		t.Errorf("check output:\n%s", out.String())
	}
}
