package gelog

import "testing"

const envVar = "[INFO] GE(2617230,python3):2026-08-12-10:21:32.101.774 [graph_var_manager.cc:765]2617301 AssignVarMem:"

func TestVarAssign(t *testing.T) {
	runCases(t, []rtCase{
		// the current HBM form (docs/log-formats.md#variables)
		{"hbm HEAD", envVar + "[IMAS]AssignVarMem Set session_0 name[conv1_weight] output[0] offset to [0] size[74752] realsize[73728].",
			`var s=0 n=conv1_weight hbm[0] off=0 addr=0x0/false size=74752 real=73728 reuse=""`},
		{"hbm 2020-2023 no space before offset", envVar + "[IMAS]AssignVarMem Set session_3 name[var_1/weight] output[0]offset to [4096] size[2830336] realsize[2829312].",
			`var s=3 n=var_1/weight hbm[0] off=4096 addr=0x0/false size=2830336 real=2829312 reuse=""`},
		{"rdma", envVar + "[IMAS]AssignVarMem Set session_0 name[emb] output[0] addr to [0x12c400000200] size[1048576].",
			`var s=0 n=emb rdma[0] off=-1 addr=0x12c400000200/true size=1048576 real=0 reuse=""`},
		{"host address in output[]", envVar + "[IMAS]AssignVarMem Set session_1 name[host_var] output[94063273443328] size[4096]",
			`var s=1 n=host_var host[0] off=-1 addr=0x558cd0000000/true size=4096 real=0 reuse=""`},
		{"FileConstant reuse", envVar + "[IMAS]AssignVarMem Set session_0 name[fc_1] output[0] offset to [1024] , reuse address of node: fc_0.",
			`var s=0 n=fc_1 reuse[0] off=1024 addr=0x0/false size=0 real=0 reuse="fc_0"`},
		{"const reuse (DEBUG, no space before realsize)", envVar + "[IMAS]AssignVarMem Set session_0 name[c2] output[0] offset to [2048] size[1536]realsize[512], reuse address of node: c1.",
			`var s=0 n=c2 reuse[0] off=2048 addr=0x0/false size=1536 real=512 reuse="c1"`},
		{"name with brackets", envVar + "[IMAS]AssignVarMem Set session_0 name[a[0]] output[0] offset to [0] size[1536] realsize[512].",
			`var s=0 n=a[0] hbm[0] off=0 addr=0x0/false size=1536 real=512 reuse=""`},
		{"cut before size", envVar + "[IMAS]AssignVarMem Set session_0 name[w] output[0] offset to [0] si",
			"reject truncated: size[...] missing"},
		{"no session", envVar + "[IMAS]AssignVarMem Set name[w] output[0] offset to [0] size[1] realsize[1].",
			"reject missing-field: session_<id> missing"},
		{"bad offset", envVar + "[IMAS]AssignVarMem Set session_0 name[w] output[0] offset to [x] size[1] realsize[1].",
			"reject bad-number: offset to is not a number"},
	})
}
