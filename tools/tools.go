//go:build tools

package tools

import (
	_ "github.com/chromedp/chromedp"
	_ "github.com/syumai/workers"
	_ "github.com/syumai/workers/cmd/workers-assets-gen"
	_ "github.com/tidwall/gjson"
	_ "github.com/vugu/vugu"
	_ "github.com/vugu/vugu/cmd/vugugen"
)
