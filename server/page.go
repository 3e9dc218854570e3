package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"
)

// PagePolicy is the Content-Security-Policy of the page and its assets
// (scripts of Web Workers take their policy from their own response):
//   - 'unsafe-eval': vugu installs its DOM renderer with window.eval;
//   - 'wasm-unsafe-eval': WebAssembly.instantiate of the Go wasm;
//   - style 'unsafe-inline': vugu components inject <style> elements;
//   - worker-src blob: and connect-src 'self': the engine Web Worker and
//     the wasm it fetches;
//   - frame-src ui.perfetto.dev: the embedded Perfetto viewer; the opened
//     tab needs nothing (postMessage is not governed by CSP).
//
// Inline <script> elements of an HTML file are allowed by their sha256
// hash, added per file: imas.html, the single-file page, has them all inline.
const PagePolicy = "default-src 'self'; " +
	"script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; " +
	"style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; " +
	"connect-src 'self'; " +
	"worker-src 'self' blob:; " +
	"frame-src https://ui.perfetto.dev; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// page serves the built page from fsys: files only, no directory listings.
type page struct{ fsys fs.FS }

func (p *page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	f, err := p.open(name)
	if err != nil {
		if name == "index.html" {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, notBuilt)
			return
		}
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	policy := PagePolicy
	content, seekable := f.(io.ReadSeeker)
	if html := path.Ext(name) == ".html"; html || !seekable {
		data, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, "reading "+name+": "+err.Error(), http.StatusInternalServerError)
			return
		}
		if html {
			policy = withScriptHashes(policy, data)
		}
		content = bytes.NewReader(data)
	}
	w.Header().Set("Content-Security-Policy", policy)
	http.ServeContent(w, r, name, time.Time{}, content)
}

// open opens a regular file of the page; directories are not served.
func (p *page) open(name string) (fs.File, error) {
	if p.fsys == nil {
		return nil, fs.ErrNotExist
	}
	f, err := p.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fs.ErrNotExist
	}
	return f, nil
}

const notBuilt = `imas: the page is not built into this server.
Build it with ./build.sh (it writes public/) and rebuild imas, or run
"imas serve -public DIR" with a built page. The API works without it:
  curl -F file=@plog.log http://HOST/api/report
`

var srcAttr = regexp.MustCompile(`\ssrc\s*=`)

// withScriptHashes adds the hash of every inline <script> of html to the
// script-src of policy.
func withScriptHashes(policy string, html []byte) string {
	var hashes []string
	for _, s := range inlineScripts(html) {
		sum := sha256.Sum256(s)
		hashes = append(hashes, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	if len(hashes) == 0 {
		return policy
	}
	const src = "script-src 'self'"
	return strings.Replace(policy, src, src+" "+strings.Join(hashes, " "), 1)
}

// inlineScripts returns the text of each <script> element without a src
// attribute: what a browser hashes for CSP. It is a scan, not a parser,
// which suffices for pages this project builds.
func inlineScripts(html []byte) [][]byte {
	var out [][]byte
	lower := bytes.ToLower(html)
	for i := 0; ; {
		start := bytes.Index(lower[i:], []byte("<script"))
		if start < 0 {
			return out
		}
		start += i
		open := bytes.IndexByte(lower[start:], '>')
		if open < 0 {
			return out
		}
		open += start + 1
		end := bytes.Index(lower[open:], []byte("</script"))
		if end < 0 {
			return out
		}
		end += open
		if !srcAttr.Match(lower[start:open]) {
			out = append(out, html[open:end])
		}
		i = end
	}
}
