// Command mkhtml writes the page from ui/web/page.html:
//
//	imas.html     one self-contained file: the wasm gzip-compressed and
//	              base64-inlined, every script and the CSS inline; works
//	              from file:// with no network
//	index.html    the same page for hosting, loading imas.wasm.gz beside it
//	imas.wasm.gz  the program, for index.html
//
// Both pages inline the WebAssembly SIMD kernel of the candidate scan
// (internal/wasmsimd, a few hundred bytes, base64).
//
// Inline scripts and the style are allowed by their SHA-256 in the page's
// Content-Security-Policy, so nothing else can run in the page.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"

	"imas/internal/wasmsimd"
)

// Inputs are the files the page is made of.
type Inputs struct {
	Template string   // page.html with {{CSP}}, {{VERSION}}, {{STYLE}}, {{SCRIPTS}}
	Style    string   // CSS
	Scripts  []string // JS sources, in order; the first must be wasm_exec.js
	Wasm     []byte   // the program, uncompressed
	// WasmGzip, when set, is Wasm already gzipped by a stronger deflater
	// than Go's (build.sh uses zopfli when npm's @gfx/zopfli is installed);
	// Build checks that it inflates to Wasm.
	WasmGzip []byte
	Vector   []byte // the SIMD kernel (wasmsimd.Kernel)
	Sample   []byte // the "Try a sample" log, gzipped (Sample); none when empty
	Version  string
}

// Page names the outputs.
const (
	SingleFile = "imas.html"
	IndexFile  = "index.html"
	WasmFile   = "imas.wasm.gz"
)

// Build returns the output files by name.
func Build(in Inputs) (map[string][]byte, error) {
	if len(in.Scripts) == 0 {
		return nil, errors.New("no scripts")
	}
	z, err := gzipWasm(in)
	if err != nil {
		return nil, err
	}
	scripts := make([]string, len(in.Scripts))
	for i, s := range in.Scripts {
		scripts[i] = CompactScript(s)
	}
	in.Scripts = scripts
	for i, s := range append([]string{in.Style}, in.Scripts...) {
		if bad := unsafeInline(s); bad != "" {
			return nil, fmt.Errorf("inline source %d contains %q, which would end or confuse its element", i, bad)
		}
	}
	single, err := page(in, EncodeBase85(z.Bytes()))
	if err != nil {
		return nil, err
	}
	index, err := page(in, "")
	if err != nil {
		return nil, err
	}
	return map[string][]byte{SingleFile: single, IndexFile: index, WasmFile: z.Bytes()}, nil
}

// CompactScript drops the comment lines of a script (a line that is only a
// "//" comment) past its opening comment (the copyright and what the file
// is), and the indentation of every line, so that the page stays within its
// size budget while its sources keep their comments. Lines are kept, so
// that automatic semicolon insertion is untouched. A script with a
// template literal (a backtick) could hold such lines inside a string: it
// is left as it is.
// gzipWasm returns in.WasmGzip once it is known to inflate to in.Wasm,
// else in.Wasm gzipped by Go at its best level.
func gzipWasm(in Inputs) (*bytes.Buffer, error) {
	if len(in.WasmGzip) > 0 {
		zr, err := gzip.NewReader(bytes.NewReader(in.WasmGzip))
		if err != nil {
			return nil, fmt.Errorf("the gzipped wasm: %w", err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			return nil, fmt.Errorf("the gzipped wasm: %w", err)
		}
		if !bytes.Equal(got, in.Wasm) {
			return nil, errors.New("the gzipped wasm does not inflate to the wasm")
		}
		return bytes.NewBuffer(in.WasmGzip), nil
	}
	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(in.Wasm); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return &z, nil
}

func CompactScript(s string) string {
	if strings.Contains(s, "`") {
		return s
	}
	lines := strings.Split(s, "\n")
	out := lines[:0]
	head := true // the opening comment
	for _, l := range lines {
		t := strings.TrimLeft(l, " \t")
		comment := strings.HasPrefix(t, "//")
		if head && comment {
			out = append(out, l)
			continue
		}
		head = false
		if !comment {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// unsafeInline returns a sequence that must not appear inside an inline
// <script> or <style> element: an end tag, or "<!--", which switches the
// HTML parser into the escaped script states.
func unsafeInline(s string) string {
	l := strings.ToLower(s)
	for _, bad := range []string{"</script", "<!--", "</style"} {
		if strings.Contains(l, bad) {
			return bad
		}
	}
	return ""
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}

// CSP is the page's policy for the given inline scripts and style. vugu
// installs its renderer with window.eval ('unsafe-eval'); the engine worker
// comes from a Blob URL; index.html fetches imas.wasm.gz from its origin.
func CSP(scripts []string, style string) string {
	src := []string{}
	for _, s := range scripts {
		src = append(src, hash(s))
	}
	return strings.Join([]string{
		"default-src 'none'",
		"script-src " + strings.Join(src, " ") + " 'unsafe-eval' 'wasm-unsafe-eval'",
		"style-src " + hash(style),
		"worker-src blob:",
		"connect-src 'self'",
		"img-src 'self' data: blob:",
		"base-uri 'none'",
		"form-action 'none'",
	}, "; ")
}

func page(in Inputs, wasm85 string) ([]byte, error) {
	var scripts strings.Builder
	// Not executed (unknown type), so the CSP does not apply; page.js
	// reads them, and must come after them.
	if wasm85 != "" {
		fmt.Fprintf(&scripts, "<script id=\"imas-wasm\" type=\"application/octet-stream\" data-encoding=\"base85\">%s</script>\n", wasm85)
	}
	fmt.Fprintf(&scripts, "<script id=\"imas-vector\" type=\"application/octet-stream\">%s</script>\n", base64.StdEncoding.EncodeToString(in.Vector))
	if len(in.Sample) > 0 {
		fmt.Fprintf(&scripts, "<script id=\"imas-sample\" type=\"application/octet-stream\">%s</script>\n", base64.StdEncoding.EncodeToString(in.Sample))
	}
	for i, s := range in.Scripts {
		id := ""
		if i == 0 {
			id = ` id="imas-wasm-exec"` // page.js reuses it for the worker
		}
		fmt.Fprintf(&scripts, "<script%s>%s</script>\n", id, s)
	}
	out := in.Template
	for _, r := range []struct{ key, val string }{
		{"{{CSP}}", CSP(in.Scripts, in.Style)},
		{"{{VERSION}}", in.Version},
		{"{{STYLE}}", in.Style},
		{"{{SCRIPTS}}", scripts.String()},
	} {
		if !strings.Contains(out, r.key) {
			return nil, fmt.Errorf("template lacks %s", r.key)
		}
		out = strings.Replace(out, r.key, r.val, 1)
	}
	return []byte(out), nil
}

func main() {
	web := flag.String("web", "ui/web", "directory of page.html, style.css, memmap.js, page.js")
	wasmExec := flag.String("wasm-exec", "", "wasm_exec.js of the Go that built the wasm")
	perfetto := flag.String("perfetto", "ui/perfetto/open.js", "the Open-in-Perfetto helper")
	wasm := flag.String("wasm", "", "the program (uncompressed .wasm)")
	wasmGzip := flag.String("wasm-gzip", "", "the program gzipped by another deflater (optional; checked against -wasm)")
	out := flag.String("o", "public", "output directory")
	version := flag.String("version", "dev", "version written into the page")
	flag.Parse()
	if *wasm == "" || *wasmExec == "" {
		log.Fatal("mkhtml: -wasm and -wasm-exec are required")
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			log.Fatal(err)
		}
		return string(b)
	}
	sample, err := Sample()
	if err != nil {
		log.Fatal("mkhtml: the sample log: ", err)
	}
	in := Inputs{
		Template: read(filepath.Join(*web, "page.html")),
		Style:    read(filepath.Join(*web, "style.css")),
		Scripts: []string{read(*wasmExec), read(*perfetto),
			read(filepath.Join(*web, "memmap.js")), read(filepath.Join(*web, "page.js"))},
		Wasm:    []byte(read(*wasm)),
		Vector:  wasmsimd.Kernel(),
		Sample:  sample,
		Version: *version,
	}
	if *wasmGzip != "" {
		in.WasmGzip = []byte(read(*wasmGzip))
	}
	files, err := Build(in)
	if err != nil {
		log.Fatal("mkhtml: ", err)
	}
	for _, name := range []string{SingleFile, IndexFile, WasmFile} {
		p := filepath.Join(*out, name)
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("mkhtml: %s (%d bytes)\n", p, len(files[name]))
	}
}
