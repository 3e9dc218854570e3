package core_test

import (
	"testing"

	"imas/core/diag"
)

// Every address whose region the logs give is checked; the others are
// counted by reason. The counts are those of the files' lines (grep).
func TestRealAddressChecks(t *testing.T) {
	for _, tc := range []struct {
		file          string
		rows, checked int64
		unchecked     map[string]int64
		userMemory    bool
		byTypeChecked map[string]int64
	}{
		// 797 GetInput/OutputDataAddrs lines of graph_0: 324 type[C], all in
		// the InitWeightMem region [0x108044000000, +51180544); 473 type[F]
		// in the feature map the user allocated (aclmdlLoadFromFileWithMem),
		// whose base GE does not print.
		{"oam-2021-acl-plog10043.log", 797, 324, map[string]int64{diag.UncheckedUserMemory: 473}, true,
			map[string]int64{"C": 324}},
		// 14 address lines: 10 operator addresses of F, 2 of V (the
		// InitVariableMem region), 2 CopyPlainData destinations (F).
		{"oam-2020-tf-host0.log", 14, 14, map[string]int64{}, false, map[string]int64{"F": 12, "V": 2}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			rep := analyzeReal(t, tc.file)
			if len(rep.AddressChecks) != 1 {
				t.Fatalf("%d address checks, want 1", len(rep.AddressChecks))
			}
			ac := rep.AddressChecks[0]
			byType := map[string]int64{}
			for _, r := range ac.Rows {
				if r.Status == "ok" {
					byType[r.Type]++
				}
			}
			if int64(len(ac.Rows)) != tc.rows || ac.Checked != tc.checked || len(ac.Invalid) != 0 || ac.UserMemory != tc.userMemory {
				t.Errorf("rows %d checked %d invalid %d user memory %v; want %d, %d, 0, %v",
					len(ac.Rows), ac.Checked, len(ac.Invalid), ac.UserMemory, tc.rows, tc.checked, tc.userMemory)
			}
			if len(ac.Unchecked) != len(tc.unchecked) {
				t.Errorf("unchecked %v, want %v", ac.Unchecked, tc.unchecked)
			}
			for why, n := range tc.unchecked {
				if ac.Unchecked[why] != n {
					t.Errorf("unchecked %v, want %v", ac.Unchecked, tc.unchecked)
				}
			}
			if len(byType) != len(tc.byTypeChecked) {
				t.Errorf("checked by type %v, want %v", byType, tc.byTypeChecked)
			}
			for typ, n := range tc.byTypeChecked {
				if byType[typ] != n {
					t.Errorf("checked by type %v, want %v", byType, tc.byTypeChecked)
				}
			}
		})
	}
}
