package gen

import "fmt"

// MemErrTruth is one memory error the generator wrote: a refused request,
// logged by one or more layers within a millisecond.
type MemErrTruth struct {
	PID        int    `json:"pid"`
	Size       int64  `json:"size"`   // bytes asked
	Device     int    `json:"device"` // -1 when no line names it
	Code       string `json:"code"`
	Statements int    `json:"statements"` // lines that belong to it
}

// memErrors writes n failed requests, each in one of the forms the layers
// print, 50 ms apart (so that each is an error of its own). The forms come
// in turn; a fourth error and beyond adds the driver's failed PCIe mapping.
func (p *proc) memErrors(n int) {
	tid := p.tid
	for i := 0; i < n; i++ {
		p.clock += 50_000
		size := p.r.between(1, 4096) * 2 << 20
		t := MemErrTruth{PID: p.pid, Size: size}
		step := func() int64 { p.clock += p.r.between(5, 200); return p.clock }
		switch i % 4 {
		case 0: // the physical-malloc chain: driver, runtime (twice), ACL
			t.Device, t.Code, t.Statements = 0, "207001", 4
			p.emit(p.dbg, step(), "ERROR", "DRV", fmt.Sprintf("[ascend][curpid: %d, %d][drv][devmm][halMemCreate 3073]<errno:12, 6> Mem create failed. (ret=6; size=%d; side=1; devid=0)", p.pid, tid, size))
			p.emit(p.dbg, step(), "ERROR", "RUNTIME", p.body("npu_driver.cc", 5757, "", tid, "MallocPhysical", "[INIT][DEFAULT][drv api]halMemCreate failed. drvRetCode=6."))
			p.emit(p.dbg, step(), "ERROR", "RUNTIME", p.body("api_c.cc", 4738, "", tid, "rtMallocPhysical", "[INIT][DEFAULT]ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016"))
			p.emit(p.dbg, step(), "ERROR", "ASCENDCL", p.body("memory.cpp", 634, "", tid, "aclrtMallocPhysical", "[INIT][DEFAULT]malloc physical memory failed, runtime result = 207001"))
		case 1: // a huge-page allocation for a driver module
			t.Device, t.Code, t.Statements = 1, "207001", 1
			p.emit(p.dbg, step(), "ERROR", "RUNTIME", p.body("npu_driver.cc", 1534, "", tid, "DevMemAllocHugePageManaged",
				fmt.Sprintf("[drv api] halMemAlloc failed:size=%d(bytes), type=2, moduleId=%d, drvFlag=1, drvRetCode=6, device_id 1, ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016", size, moduleIDs["HCCL"])))
		case 2: // GE's load-time size check, and the assert that passes it up
			t.Device, t.Code, t.Statements = -1, "", 1
			p.emit(p.dbg, step(), "ERROR", "GE", p.body("model_utils.cc", 1286, "", tid, "InitRuntimeParams",
				fmt.Sprintf("ErrorNo: 4294967295(failed) [LOAD][DEFAULT]Assert (total_hbm_size == (mem_size - zero_copy_size)) failed, expect %d actual 0", size)))
			p.emit(p.dbg, step(), "ERROR", "GE", p.body("davinci_model.cc", 481, "", tid, "InitRuntimeParams",
				"ErrorNo: 4294967295(failed) [LOAD][DEFAULT]Assert ((ModelUtils::InitRuntimeParams(ge_model_, runtime_param_, device_id_)) == ge::SUCCESS) failed"))
		case 3: // the driver mapping a buffer for the PCIe BAR
			t.Device, t.Code, t.Statements = 1, "ret=8", 1
			p.emit(p.dbg, step(), "ERROR", "DRV", fmt.Sprintf("[ascend][curpid: %d, %d][drv][devmm][_devmm_mem_remote_map 1888]<errno:22, 8> Mem_remote_map ioctl error. (src_va=0x%x; size=%d; devid=1; ret=8)",
				p.pid, tid, 0x124080000000+int64(i)<<32, size))
		}
		p.g.truth.MemErrors = append(p.g.truth.MemErrors, t)
	}
}
