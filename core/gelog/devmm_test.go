package gelog

import "testing"

func TestDevmm(t *testing.T) {
	runCases(t, []rtCase{
		// the current driver form (docs/log-formats.md#devmm)
		{"current HOST_MEM", "[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.178 [svm_mem_statistics.c:150][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]HOST_MEM Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=0; allocated_peak_size=11341824; alloc_cnt=3; free_cnt=3)",
			"devmm HOST_MEM dev=-1 mod=RUNTIME/7 cur=0 peak=11341824 cnt=3/3 cached=0/false total=0"},
		{"current HOST_MEM cached", "[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.183 [svm_mem_statistics.c:156][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]HOST_MEM Cached_size:12582912Bytes",
			"devmm HOST_MEM dev=-1 mod=/0 cur=0 peak=0 cnt=0/0 cached=12582912/true total=0"},
		{"current small HBM", "[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.187 [svm_mem_statistics.c:150][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]MEM_DEV_SMALL_HBM dev0 Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=28672; allocated_peak_size=118784; alloc_cnt=14; free_cnt=7)",
			"devmm MEM_DEV_SMALL_HBM dev=0 mod=RUNTIME/7 cur=28672 peak=118784 cnt=14/7 cached=0/false total=0"},
		{"current small HBM cached", "[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.195 [svm_mem_statistics.c:156][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]MEM_DEV_SMALL_HBM dev0 Cached_size:1941504Bytes",
			"devmm MEM_DEV_SMALL_HBM dev=0 mod=/0 cur=0 peak=0 cnt=0/0 cached=1941504/true total=0"},
		{"current P2P", "[INFO] DRV(901649,aiv_aicpu_bench):2026-06-13-17:00:34.718.222 [svm_mem_statistics.c:150][ascend][curpid:901649,901649][drv][devmm][_svm_mem_stats_show]MEM_DEV_HUGE_P2P_HBM dev0 Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=0; allocated_peak_size=6291456; alloc_cnt=2; free_cnt=2)",
			"devmm MEM_DEV_HUGE_P2P_HBM dev=0 mod=RUNTIME/7 cur=0 peak=6291456 cnt=2/2 cached=0/false total=0"},
		// the older driver form (no [file:line], alloced_peak_size)
		{"old DEV_MEM", "[INFO] DRV(4052516,main_aarch64):2024-07-08-22:27:45.354.856 [ascend][curpid: 4052516, 4052516][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=44138496; alloced_peak_size=44138496; alloc_cnt=18; free_cnt=0)",
			"devmm DEV_MEM dev=0 mod=RUNTIME/7 cur=44138496 peak=44138496 cnt=18/0 cached=0/false total=0"},
		{"old SVM_MEM no device", "[INFO] DRV(4176893,python3.7):2024-06-29-16:19:28.436.386 [ascend][curpid: 4176893, 4185695][drv][devmm][_svm_mem_stats_show 148]SVM_MEM Mem stats (Bytes). (module_name=RUNTIME; module_id=7; current_alloced_size=19927040; alloced_peak_size=19927040; alloc_cnt=37; free_cnt=0)",
			"devmm SVM_MEM dev=-1 mod=RUNTIME/7 cur=19927040 peak=19927040 cnt=37/0 cached=0/false total=0"},
		{"old with markdown bold", "[INFO] DRV(4052516,main_aarch64):2024-07-08-22:27:45.354.866 [ascend][curpid: 4052516, 4052516][drv][devmm][**_svm_mem_stats_show** 148]DEV_MEM dev0 Mem stats (Bytes). (module_name=**APP**; module_id=33; current_alloced_size=**2078195712**; alloced_peak_size=2078195712; alloc_cnt=996; free_cnt=0)",
			"devmm DEV_MEM dev=0 mod=APP/33 cur=2078195712 peak=2078195712 cnt=996/0 cached=0/false total=0"},
		{"grep prefix", "run/plog/plog-4176893_20240629161823165.log:461:[INFO] DRV(4176893,python3.7):2024-06-29-16:19:28.436.393 [ascend][curpid: 4176893, 4185695][drv][devmm][_svm_mem_stats_show 148]DEV_MEM dev6 Mem stats (Bytes). (module_name=HCCL; module_id=3; current_alloced_size=419467264; alloced_peak_size=419500032; alloc_cnt=6; free_cnt=2)",
			"devmm DEV_MEM dev=6 mod=HCCL/3 cur=419467264 peak=419500032 cnt=6/2 cached=0/false total=0"},
		// device-process memory
		{"device process memory", "[INFO] DRV(4176893,python3.7):2024-06-29-16:19:29.085.761 [ascend][curpid: 4176893, 4185695][drv][devmm][svm_mem_stats_show_device_proc_mem 358]DEV_PROC_MEM dev6 Mem stats (Bytes). (module_name=AICPU; module_id=36; total_size=75464704)",
			"devmm DEV_PROC_MEM dev=6 mod=AICPU/36 cur=0 peak=0 cnt=-1/-1 cached=0/false total=75464704"},
		// the guide's GE line, re-joined
		{"GE module", "[INFO] DRV(7,python3):2026-06-13-17:00:34.718.209 [svm_mem_statistics.c:150][ascend][curpid:7,7][drv][devmm][_svm_mem_stats_show]MEM_DEV_HUGE_HBM dev0 Mem stats (Bytes). (module_name=GE; module_id=45; current_alloced_size=0; allocated_peak_size=274726912; alloc_cnt=3; free_cnt=3)",
			"devmm MEM_DEV_HUGE_HBM dev=0 mod=GE/45 cur=0 peak=274726912 cnt=3/3 cached=0/false total=0"},
		{"cut in free_cnt", "[INFO] DRV(7,python3):2026-06-13-17:00:34.718.209 [svm_mem_statistics.c:150][ascend][curpid:7,7][drv][devmm][_svm_mem_stats_show]MEM_DEV_HUGE_HBM dev0 Mem stats (Bytes). (module_name=GE; module_id=45; current_alloced_size=0; allocated_peak_size=274726912; alloc_cnt=3; free_cnt=",
			"devmm MEM_DEV_HUGE_HBM dev=0 mod=GE/45 cur=0 peak=274726912 cnt=3/-1 cached=0/false total=0"},
		{"cut in peak", "[INFO] DRV(7,python3):2026-06-13-17:00:34.718.209 [svm_mem_statistics.c:150][ascend][curpid:7,7][drv][devmm][_svm_mem_stats_show]MEM_DEV_HUGE_HBM dev0 Mem stats (Bytes). (module_name=GE; module_id=45; current_alloced_size=0; allocated_peak_size=2747",
			"reject truncated: allocated_peak_size ends the line without its closing '.' or ')': its value may be cut"},
		{"no stats", "[INFO] DRV(7,python3):2026-06-13-17:00:34.718.209 [svm_mem_statistics.c:150][ascend][curpid:7,7][drv][devmm][_svm_mem_stats_show]MEM_DEV_HUGE_HBM dev0 statistics off.",
			"reject missing-field: \"Mem stats (Bytes)\" expected"},
		// the 2023 driver (CANN 6.x): comma form, no counts, period at the end
		{"2023 DEV_MEM GE", "[EVENT] DRV(4100,python):2023-03-02-11:12:13.140.150 [ascend][curpid: 4100, 4100][drv][devmm][_devmm_mem_stats_show 152]DEV_MEM dev3 mem stats(Bytes): module_name=GE, module_id=45 current_alloced_size=1024, alloced_peak_size=73400320.",
			"devmm DEV_MEM dev=3 mod=GE/45 cur=1024 peak=73400320 cnt=-1/-1 cached=0/false total=0"},
		{"2023 HOST_MEM no device", "[EVENT] DRV(4100,python):2023-03-02-11:12:13.140.160 [ascend][curpid: 4100, 4101][drv][devmm][_devmm_mem_stats_show 152]HOST_MEM mem stats(Bytes): module_name=RUNTIME, module_id=7 current_alloced_size=0, alloced_peak_size=8192.",
			"devmm HOST_MEM dev=-1 mod=RUNTIME/7 cur=0 peak=8192 cnt=-1/-1 cached=0/false total=0"},
		{"2023 cached", "[EVENT] DRV(4100,python):2023-03-02-11:12:13.140.170 [ascend][curpid: 4100, 4100][drv][devmm][_devmm_mem_stats_show 158]DEV_MEM dev3 Cached_size:4194304Bytes",
			"devmm DEV_MEM dev=3 mod=/0 cur=0 peak=0 cnt=0/0 cached=4194304/true total=0"},
		{"2023 DVPP cached zero", "[EVENT] DRV(4100,python):2023-03-02-11:12:13.140.180 [ascend][curpid: 4100, 4100][drv][devmm][_devmm_mem_stats_show 158]DVPP_MEM dev1 Cached_size:0Bytes",
			"devmm DVPP_MEM dev=1 mod=/0 cur=0 peak=0 cnt=0/0 cached=0/true total=0"},
		{"2023 form under _svm_mem_stats_show", "[INFO] DRV(77,python):2023-05-06-07:08:09.010.011 [ascend][curpid: 9, 9][drv][devmm][_svm_mem_stats_show 154]DEV_MEM dev1 mem stats(Bytes): module_name=HCCL, module_id=3 current_alloced_size=2097152, alloced_peak_size=6291456.",
			"devmm DEV_MEM dev=1 mod=HCCL/3 cur=2097152 peak=6291456 cnt=-1/-1 cached=0/false total=0"},
		{"2023 cut in peak", "[EVENT] DRV(4100,python):2023-03-02-11:12:13.140.150 [ascend][curpid: 4100, 4100][drv][devmm][_devmm_mem_stats_show 152]DEV_MEM dev3 mem stats(Bytes): module_name=GE, module_id=45 current_alloced_size=1024, alloced_peak_size=734",
			"reject truncated: alloced_peak_size ends the line without its closing '.' or ')': its value may be cut"},
		// A whole line that lost only its period is not called truncated,
		// and the reason names the field whose value may be cut.
		{"2023 without its period", "[EVENT] DRV(4100,python):2023-03-02-11:12:13.140.150 [ascend][curpid: 4100, 4100][drv][devmm][_devmm_mem_stats_show 152]DEV_MEM dev3 mem stats(Bytes): module_name=GE, module_id=45 current_alloced_size=1024, alloced_peak_size=73400320",
			"reject missing-field: alloced_peak_size ends the line without its closing '.' or ')': its value may be cut"},
		{"2023 without peak", "[EVENT] DRV(4100,python):2023-03-02-11:12:13.140.150 [ascend][curpid: 4100, 4100][drv][devmm][_devmm_mem_stats_show 152]DEV_MEM dev3 mem stats(Bytes): module_name=GE, module_id=45 current_alloced_size=1024.",
			"reject missing-field: allocated_peak_size missing"},
	})
}
