// Package public carries the built page (./build.sh writes index.html,
// imas.html and their assets here) into the imas binary and the edge
// worker, which serve it with server.New.
//
// The embed pattern is "*" so that it always matches something (this file
// and README.md are committed): building imas never depends on building the
// page first. Without the page, the server answers / with a note saying so.
package public

import (
	"embed"
	"io/fs"
	"path"
)

//go:embed *
var files embed.FS

// FS returns the page files: everything in this directory but Go sources.
func FS() fs.FS { return pageFS{files} }

// Built reports whether the page was built before imas was compiled.
func Built() bool {
	_, err := fs.Stat(files, "index.html")
	return err == nil
}

type pageFS struct{ fs.FS }

func (p pageFS) Open(name string) (fs.File, error) {
	if path.Ext(name) == ".go" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return p.FS.Open(name)
}
