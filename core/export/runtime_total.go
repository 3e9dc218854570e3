package export

import (
	"bufio"

	"imas/core/model"
)

// writeRuntimeTotal writes the "Malloc memory from device" section, pools
// and devmm statistics of imas total.
func writeRuntimeTotal(w *bufio.Writer, rep *model.Report) {}
