package gelog

import "testing"

const envAddr = "[INFO] GE(2617230,python3):2026-08-12-10:21:35.210.640 [model_utils.cc:875]2617230 GetOutputDataAddrs:"
const envEvent = "[INFO] GE(2617230,python3):2026-08-12-10:21:35.004.221 [davinci_model.cc:656][EVENT]2617230 InitFeatureMapAndP2PMem:"
const envOld = "[EVENT] GE(20000,python):2022-10-12-10:00:00.792.761 [davinci_model.cc:472]20023 InitFeatureMapAndP2PMem:"

func TestRegions(t *testing.T) {
	runCases(t, []rtCase{
		// a current feature-map region line (docs/log-formats.md#regions)
		{"HEAD feature map", envEvent + "[IMAS]InitFeatureMapAndP2PMem graph_0 MallocMemory type[F] memaddr[0x12c041600000] mem_size[268470272]Bytes",
			"region InitFeatureMapAndP2PMem g=0 F mt=-1 base=0x12c041600000 size=268470272 rel=false dev=-1 ev=true"},
		{"2021-2023 no unit", envOld + "[IMAS]InitFeatureMapAndP2PMem graph_2 MallocMemory type[F] memaddr[0x12c08a800000] mem_size[21003264]",
			"region InitFeatureMapAndP2PMem g=2 F mt=-1 base=0x12c08a800000 size=21003264 rel=false dev=-1 ev=true"},
		{"2021-02 trailing period", envOld + "[IMAS]InitFeatureMapAndP2PMem graph_1 MallocMemory type[F] memaddr[0x12c000000000] mem_size[1024].",
			"region InitFeatureMapAndP2PMem g=1 F mt=-1 base=0x12c000000000 size=1024 rel=false dev=-1 ev=true"},
		{"HEAD MallocExMem", envEvent + "[IMAS]InitFeatureMap graph_3 MallocMemory type[F] mem_type[16] mem_type_origin[16] mem_addr[0x12c060000000] size[2376704].",
			"region InitFeatureMap g=3 F mt=16 base=0x12c060000000 size=2376704 rel=false dev=-1 ev=true"},
		{"HEAD MallocExMem session scope", envEvent + "[IMAS]InitFeatureMap graph_3 MallocMemory type[F] mem_type[4294967298] mem_type_origin[4294967298] mem_addr[0x12c070000000] size[4096].",
			"region InitFeatureMap g=3 F mt=4294967298 base=0x12c070000000 size=4096 rel=false dev=-1 ev=true"},
		{"2021 MallocExMem without [IMAS]", envOld + "InitFeatureMapAndP2PMem graph_0 MallocMemory type[F] mem_type[16] mem_addr[0x12c061000000] mem_size[1324544]",
			"region MallocExMem g=0 F mt=16 base=0x12c061000000 size=1324544 rel=false dev=-1 ev=true"},
		{"weights", "[INFO] GE(7,python3):2026-08-12-10:21:35.004.100 [davinci_model.cc:562]7 InitWeightMem:[IMAS]InitWeightMem graph_0 MallocMemory type[W] memaddr[0x12c300000000] mem_size[137000000]",
			"region InitWeightMem g=0 W mt=-1 base=0x12c300000000 size=137000000 rel=false dev=-1 ev=true"},
		{"2020 InitModelMem", "[INFO] GE(7,python3):2020-08-12-10:21:35.004.100 [davinci_model.cc:400]InitModelMem:[IMAS]InitModelMem graph_1 MallocMemory type[F] memaddr[0x1000] mem_size[512]",
			"region InitModelMem g=1 F mt=-1 base=0x1000 size=512 rel=false dev=-1 ev=true"},
		{"InitVariableMem", envOld + "[IMAS]InitVariableMem graph_1 MallocMemory type[V] memaddr[0x12c100000000] mem_size[15947776]",
			"region InitVariableMem g=1 V mt=-1 base=0x12c100000000 size=15947776 rel=false dev=-1 ev=true"},
		{"user memory (nil)", envEvent + "[IMAS]InitWeightMem graph_0 MallocMemory type[W] memaddr[(nil)] mem_size[0]",
			"region InitWeightMem g=0 W mt=-1 base=0x0 size=0 rel=false dev=-1 ev=true"},
		{"ReserveVirtualMemory", "[INFO] GE(7,python3):2026-08-12-10:21:30.000.001 [active_memory_allocator.cc:300][EVENT]7 ReserveVirtualMemory:virtual_active_addr_base:0x12c400000000 virtual_memory_size:68719476736(64.00G) device_id:0, memory_type:2, share_phy_allocator:0.",
			"region ReserveVirtualMemory g=-1 V mt=2 base=0x12c400000000 size=68719476736 rel=false dev=0 ev=true"},
		{"virtual release", "[INFO] GE(7,python3):2026-08-12-10:40:00.000.001 [active_memory_allocator.cc:320][EVENT]7 ReleaseVirtualMemory:virtual_active_addr_base:0x12c400000000 virtual_memory_size:68719476736 device_id:0.",
			"region ReserveVirtualMemory g=-1 V mt=-1 base=0x12c400000000 size=68719476736 rel=true dev=0 ev=true"},
		{"cut", envEvent + "[IMAS]InitFeatureMapAndP2PMem graph_0 MallocMemory type[F] memaddr[0x12c04",
			"reject truncated: memaddr[...] missing"},
	})
}

func TestOperatorAddresses(t *testing.T) {
	runCases(t, []rtCase{
		// a current operator address (docs/log-formats.md#addresses)
		{"HEAD output", envAddr + "[IMAS]graph_0 type[F] name[allreduce_op] output[0] offset[67109376] size[67108896] memaddr[0x12c045600200]",
			"addr graph g=0 t=F n=allreduce_op op= output/[0] off=67109376 size=67108896 data=-1 addr=0x12c045600200/true null=false failed=false om2=false"},
		{"HEAD P2P input", envAddr + "[IMAS]graph_1 type[P] name[hcom] input[1] offset[512] size[1024] memaddr[0x12c060000200]",
			"addr graph g=1 t=P n=hcom op= input/[1] off=512 size=1024 data=-1 addr=0x12c060000200/true null=false failed=false om2=false"},
		{"HEAD variable output", envAddr + "[IMAS]graph_0 type[V] name[var_0] output[0] memaddr[0x12c100000200]",
			"addr graph g=0 t=V n=var_0 op= output/[0] off=-1 size=-1 data=-1 addr=0x12c100000200/true null=false failed=false om2=false"},
		{"HEAD aicpu workspace", envAddr + "[IMAS]graph_0 type[F] name[aicpu_op] aicpu workspace[0] offset[4096] bytes[512] memaddr[0x12c041601000]",
			"addr graph g=0 t=F n=aicpu_op op= workspace/aicpu[0] off=4096 size=512 data=-1 addr=0x12c041601000/true null=false failed=false om2=false"},
		{"HEAD const input", envAddr + "[IMAS]GetInputDataAddrs graph_0 type[C] name[matmul] input[1] size[4096] memaddr[0x12c300001000]",
			"addr GetInputDataAddrs g=0 t=C n=matmul op= input/[1] off=-1 size=4096 data=-1 addr=0x12c300001000/true null=false failed=false om2=false"},
		{"HEAD var input", envAddr + "[IMAS]GetInputDataAddrs graph_0 type[V] name[matmul] input[0] memaddr[0x12c100000200]",
			"addr GetInputDataAddrs g=0 t=V n=matmul op= input/[0] off=-1 size=-1 data=-1 addr=0x12c100000200/true null=false failed=false om2=false"},
		{"get failed", "[ERROR] GE(7,python3):2026-08-12-10:21:35.210.640 [model_utils.cc:880]7 GetOutputDataAddrs:[IMAS]get failed for graph_0 type[F] name[bad] output[0] offset[999999999] size[4096]",
			"addr get failed g=0 t=F n=bad op= output/[0] off=999999999 size=4096 data=-1 addr=0x0/false null=false failed=true om2=false"},
		{"old output", envAddr + "[IMAS]GetOutputDataAddrs graph_0 type[F] name[gelu_32] output[0] memaddr[0x12c10d232e00]",
			"addr GetOutputDataAddrs g=0 t=F n=gelu_32 op= output/[0] off=-1 size=-1 data=-1 addr=0x12c10d232e00/true null=false failed=false om2=false"},
		{"old input", envAddr + "[IMAS]GetInputDataAddrs graph_0 type[F] name[add] input[1] memaddr[0x12c10d000200]",
			"addr GetInputDataAddrs g=0 t=F n=add op= input/[1] off=-1 size=-1 data=-1 addr=0x12c10d000200/true null=false failed=false om2=false"},
		{"old workspace", envAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[F] name[conv] workspace[0] offset[1024] bytes[2048] memaddr[0x12c10d000400]",
			"addr GetWorkspaceDataAddrs g=0 t=F n=conv op= workspace/[0] off=1024 size=2048 data=-1 addr=0x12c10d000400/true null=false failed=false om2=false"},
		{"old workspace Null addr", envAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[F] name[conv] workspace[1] offset[0] bytes[0] Null addr",
			"addr GetWorkspaceDataAddrs g=0 t=F n=conv op= workspace/[1] off=0 size=0 data=-1 addr=0x0/false null=true failed=false om2=false"},
		{"old aicpu workspace two spaces", envAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[F] name[cpu] aicpu workspace[0]  offset[64] bytes[128] memaddr[0x12c10d000040]",
			"addr GetWorkspaceDataAddrs g=0 t=F n=cpu op= workspace/aicpu[0] off=64 size=128 data=-1 addr=0x12c10d000040/true null=false failed=false om2=false"},
		{"old p2p workspace two spaces", envAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[P] name[hcom] p2p workspace[0]  offset[0] bytes[512] memaddr[0x12c061000000]",
			"addr GetWorkspaceDataAddrs g=0 t=P n=hcom op= workspace/p2p[0] off=0 size=512 data=-1 addr=0x12c061000000/true null=false failed=false om2=false"},
		{"old L1 workspace", envAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[L1] name[fused], mem_addr[workspace index 2]:0x1f000",
			"addr GetWorkspaceDataAddrs g=0 t=L1 n=fused op= workspace/l1[2] off=-1 size=-1 data=-1 addr=0x1f000/true null=false failed=false om2=false"},
		{"2020 workspace as output", envAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[F] name[conv] output[0] offset[0] bytes[512] memaddr[0x1000]",
			"addr GetWorkspaceDataAddrs g=0 t=F n=conv op= output/[0] off=0 size=512 data=-1 addr=0x1000/true null=false failed=false om2=false"},
		{"OM2 copy", envAddr + "[OM2][IMAS]graph_0 type[F] name[add] output[0] offset[0] size[512] memaddr[0x12c041600000]",
			"addr graph g=0 t=F n=add op= output/[0] off=0 size=512 data=-1 addr=0x12c041600000/true null=false failed=false om2=true"},
		{"preload const offset", envAddr + "[IMAS]GetInputConstAddrOffset type[C] size[4096] ",
			"addr GetInputConstAddrOffset g=-1 t=C n= op= input/[-1] off=-1 size=4096 data=-1 addr=0x0/false null=false failed=false om2=false"},
		{"preload data offset", envAddr + "[IMAS]GetInputDataAddrs type[C] name[mm] input[1] data_offset[8192]",
			"addr GetInputDataAddrs g=-1 t=C n=mm op= input/[1] off=8192 size=-1 data=-1 addr=0x0/false null=false failed=false om2=false"},
		{"FFTS decimal", envAddr + "[IMAS] conv2d_1 Conv2D get real input data addr 20615843020800",
			"addr ffts g=-1 t= n=conv2d_1 op=Conv2D input/[-1] off=-1 size=-1 data=-1 addr=0x12c000000000/true null=false failed=false om2=false"},
		{"FFTS workspace", envAddr + "[IMAS] conv2d_1 Conv2D get real workspace addr 20615843021312",
			"addr ffts g=-1 t= n=conv2d_1 op=Conv2D workspace/[-1] off=-1 size=-1 data=-1 addr=0x12c000000200/true null=false failed=false om2=false"},
		{"cut memaddr", envAddr + "[IMAS]graph_0 type[F] name[add] output[0] offset[0] size[512] memaddr[0x12c0",
			"reject truncated: memaddr[...] missing"},
		{"no graph id", envAddr + "[IMAS]graph_x type[F] name[add] output[0] memaddr[0x1]",
			"reject missing-field: graph_<id> missing"},
	})
}

func TestCopies(t *testing.T) {
	runCases(t, []rtCase{
		{"InitConstant HEAD", envAddr + "[IMAS]InitConstant memcpy graph_0 type[V] name[const_1] output[0] memaddr[0x12c300000200] mem_size[4096] datasize[4000].",
			"addr InitConstant g=0 t=V n=const_1 op= output/[0] off=-1 size=4096 data=4000 addr=0x12c300000200/true null=false failed=false om2=false"},
		{"InitConstant hybrid no space", envAddr + "[IMAS]InitConstant memcpy graph_1 type[V] name[c] output[0] memaddr[0x10]mem_size[64] datasize[60]",
			"addr InitConstant g=1 t=V n=c op= output/[0] off=-1 size=64 data=60 addr=0x10/true null=false failed=false om2=false"},
		{"Init FileConstant", envAddr + "[IMAS]Init FileConstant memcpy graph_0 type[V] name[fc] output[0] memaddr[0x12c310000000] mem_size[1048576]",
			"addr Init FileConstant g=0 t=V n=fc op= output/[0] off=-1 size=1048576 data=-1 addr=0x12c310000000/true null=false failed=false om2=false"},
		{"CopyPlainData HEAD", envAddr + "[IMAS]CopyPlainData memcpy graph_2 type[F] output[1] memaddr[0x12c500000000] mem_size[4096] datasize[4000]",
			"addr CopyPlainData g=2 t=F n= op= output/[1] off=-1 size=4096 data=4000 addr=0x12c500000000/true null=false failed=false om2=false"},
		{"CopyPlainData 2020 dst src", envAddr + "[IMAS]CopyPlainData memcpy graph_2 type[F] input[0] dst[0x12c500000000] src[0x7f0000001000] mem_size[4096] datasize[4096]",
			"addr CopyPlainData g=2 t=F n= op= input/[0] off=-1 size=4096 data=4096 addr=0x12c500000000/true null=false failed=false om2=false"},
		{"CopyPlainData 2020 with name", envAddr + "[IMAS]CopyPlainData memcpy graph_2 type[V] name[x] output[0] memaddr[0x1] mem_size[4] datasize[4]",
			"addr CopyPlainData g=2 t=V n=x op= output/[0] off=-1 size=4 data=4 addr=0x1/true null=false failed=false om2=false"},
		{"CopyTransData 2020 no address", envAddr + "[IMAS]CopyTransData memcpy graph_0 type[F] name[data] output[0] datasize[1024]",
			"addr CopyTransData g=0 t=F n=data op= output/[0] off=-1 size=-1 data=1024 addr=0x0/false null=false failed=false om2=false"},
		// informational [IMAS] lines: understood, no figure
		{"direct copy", envAddr + "[IMAS] Find addr 0x12c0 need direct copy from user malloc input 0x7f00", "ignored direct-copy-addr"},
		{"refresh", envAddr + "[IMAS]refresh in/out addr new:0x2, old:0x1", "ignored refresh-addr"},
		{"io size", envAddr + "[IMAS]GetInputSize op: add, index: 0, size:512", "ignored io-size"},
		{"fixed feature memory", envAddr + "[IMAS]model_name:m hbm fixed_feature_memory size:1024, hbm max size:2048.", "ignored fixed-feature-memory"},
		{"unknown [IMAS]", envAddr + "[IMAS]SomethingNew graph_0", "reject unrecognised: marker present but statement unknown"},
	})
}

// Degenerate lines found by reading the parsers for slice bounds.
func TestAddressEdgeLines(t *testing.T) {
	runCases(t, []rtCase{
		{"FFTS without op", envAddr + "[IMAS]  get real input data addr 1", "reject missing-field: op name missing before \"get real\""},
		{"L1 bracket before index", envAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[L1] name[x], y]: mem_addr[workspace index 2]:0x10",
			"addr GetWorkspaceDataAddrs g=0 t=L1 n=x op= workspace/l1[2] off=-1 size=-1 data=-1 addr=0x10/true null=false failed=false om2=false"},
		{"L1 cut", envAddr + "[IMAS]GetWorkspaceDataAddrs graph_0 type[L1] name[x], mem_addr[workspace index 2", "reject truncated: mem_addr[workspace index ..]:addr missing"},
	})
}
