package driver

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"imas/core"
)

// Set by the release build (mk/dist.mk) with
// -ldflags "-X imas/internal/driver.commit=... -X imas/internal/driver.buildDate=...";
// the version itself is core.Version (-X imas/core.Version=...).
var (
	commit    string
	buildDate string
)

// Build describes the running binary.
type Build struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Date    string `json:"date"` // UTC, RFC 3339
	Go      string `json:"go"`
}

// BuildInfo returns what the release build stamped; a plain "go build"
// falls back to the VCS stamp Go records when -buildvcs is on, else
// "unknown".
func BuildInfo() Build {
	b := Build{Version: core.Version, Commit: commit, Date: buildDate, Go: runtime.Version()}
	if info, ok := debug.ReadBuildInfo(); ok && commit == "" {
		dirty := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.time":
				b.Date = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if dirty && b.Commit != "" {
			b.Commit += "-dirty"
		}
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	if b.Date == "" {
		b.Date = "unknown"
	}
	return b
}

// String is what "imas version" prints.
func (b Build) String() string {
	return fmt.Sprintf("imas %s\ncommit %s\nbuilt %s\n%s %s/%s\n", b.Version, b.Commit, b.Date, b.Go, runtime.GOOS, runtime.GOARCH)
}
