package input

import (
	"io/fs"
	"os"
	"path/filepath"

	"imas/core/diag"
)

// walkFolder lists the regular files under root (itself a folder or a link
// to one), following symbolic links as grep -r does with the folders named
// on its command line and -R inside them: a link to a file is read as that
// file, a link to a folder is walked. A link that leads back to a folder
// being walked (a loop), or to a folder already walked, is skipped and
// said so; so is a link to nothing.
func walkFolder(root string, st fs.FileInfo) ([]string, []Diag) {
	w := &folderWalk{}
	w.walk(root, st)
	return w.files, w.diags
}

type folderWalk struct {
	files []string
	diags []Diag
	// open holds the folders on the current path (a link to one of them
	// is a loop), done every folder walked so far, with its path.
	open []walked
	done []walked
}

type walked struct {
	path string
	st   fs.FileInfo
}

func (w *folderWalk) walk(dir string, st fs.FileInfo) {
	for _, o := range w.open {
		if os.SameFile(o.st, st) {
			w.diags = append(w.diags, Diag{Path: dir, Reason: diag.LinkSkipped, Detail: "a link loop: leads back to " + o.path + ", which is being read"})
			return
		}
	}
	for _, d := range w.done {
		if os.SameFile(d.st, st) {
			w.diags = append(w.diags, Diag{Path: dir, Reason: diag.LinkSkipped, Detail: "the same folder as " + d.path + ", already read"})
			return
		}
	}
	w.open = append(w.open, walked{dir, st})
	defer func() {
		w.done = append(w.done, w.open[len(w.open)-1])
		w.open = w.open[:len(w.open)-1]
	}()
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.diags = append(w.diags, Diag{Path: dir, Reason: diag.Unreadable, Detail: err.Error()})
	}
	// Links last: a folder reached both ways keeps its own path.
	links := entries[:0:0]
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink != 0 {
			links = append(links, e)
		} else {
			w.entry(dir, e)
		}
	}
	for _, e := range links {
		w.entry(dir, e)
	}
}

func (w *folderWalk) entry(dir string, e fs.DirEntry) {
	q := filepath.Join(dir, e.Name())
	t := e.Type()
	switch {
	case t.IsRegular():
		w.files = append(w.files, q)
	case t.IsDir() || t&fs.ModeSymlink != 0:
		target, err := os.Stat(q) // follows links
		switch {
		case err != nil && t&fs.ModeSymlink != 0:
			w.diags = append(w.diags, Diag{Path: q, Reason: diag.BrokenLink, Detail: err.Error()})
		case err != nil:
			w.diags = append(w.diags, Diag{Path: q, Reason: diag.Unreadable, Detail: err.Error()})
		case target.IsDir():
			w.walk(q, target)
		case target.Mode().IsRegular():
			w.files = append(w.files, q)
		default:
			w.diags = append(w.diags, Diag{Path: q, Reason: diag.Unreadable, Detail: "not a regular file (" + target.Mode().Type().String() + "); skipped"})
		}
	default:
		w.diags = append(w.diags, Diag{Path: q, Reason: diag.Unreadable, Detail: "not a regular file (" + t.String() + "); skipped"})
	}
}
