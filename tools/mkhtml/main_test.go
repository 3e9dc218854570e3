package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

func inputs(t *testing.T) Inputs {
	t.Helper()
	tmpl, err := os.ReadFile("../../ui/web/page.html")
	if err != nil {
		t.Fatal(err)
	}
	return Inputs{
		Template: string(tmpl),
		Style:    "body { color: red }",
		Scripts:  []string{"var Go = 1;", "window.b = '<b>';", "window.c = 3;"},
		Wasm:     bytes.Repeat([]byte("\x00asm wasm bytes "), 1000),
		Vector:   []byte("\x00asm\x01\x00\x00\x00 kernel"),
		Version:  "v-test",
	}
}

var scriptRE = regexp.MustCompile(`(?s)<script([^>]*)>(.*?)</script>`)

func TestSingleFile(t *testing.T) {
	in := inputs(t)
	out, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	page := string(out[SingleFile])
	csp := regexp.MustCompile(`Content-Security-Policy" content="([^"]*)"`).FindStringSubmatch(page)
	if csp == nil {
		t.Fatal("no CSP")
	}
	var inline []string
	data := map[string]string{} // id → base64 of the octet-stream scripts
	for _, m := range scriptRE.FindAllStringSubmatch(page, -1) {
		if strings.Contains(m[1], `type="application/octet-stream"`) {
			data[regexp.MustCompile(`id="([^"]*)"`).FindStringSubmatch(m[1])[1]] = m[2]
			continue
		}
		if strings.Contains(m[1], "src=") {
			t.Errorf("external script %s", m[0])
		}
		inline = append(inline, m[2])
		h := sha256.Sum256([]byte(m[2]))
		if !strings.Contains(csp[1], "'sha256-"+base64.StdEncoding.EncodeToString(h[:])+"'") {
			t.Errorf("script %.30q is not allowed by the CSP", m[2])
		}
	}
	if strings.Join(inline, "|") != strings.Join(in.Scripts, "|") {
		t.Errorf("inline scripts %q, want %q in order", inline, in.Scripts)
	}
	for _, id := range []string{`id="imas-wasm"`, `id="imas-vector"`} {
		if i, j := strings.Index(page, id), strings.Index(page, "window.c = 3;"); i < 0 || i > j {
			t.Errorf("%s must come before the scripts that read it", id)
		}
	}
	if v, err := base64.StdEncoding.DecodeString(data["imas-vector"]); err != nil || !bytes.Equal(v, in.Vector) {
		t.Errorf("inlined kernel does not decode to it (%v)", err)
	}
	gz, ok := DecodeBase85(data["imas-wasm"])
	if !ok {
		t.Fatal("inlined wasm is not base85")
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, in.Wasm) {
		t.Errorf("inlined wasm does not decode to the program (%v)", err)
	}
	h := sha256.Sum256([]byte(in.Style))
	if !strings.Contains(csp[1], "style-src 'sha256-"+base64.StdEncoding.EncodeToString(h[:])+"'") || !strings.Contains(page, "<style>"+in.Style+"</style>") {
		t.Error("style not inlined or not allowed")
	}
	for _, want := range []string{"default-src 'none'", "worker-src blob:", "'unsafe-eval'", "'wasm-unsafe-eval'"} {
		if !strings.Contains(csp[1], want) {
			t.Errorf("CSP lacks %s", want)
		}
	}
	if regexp.MustCompile(`(src|href)="https?:`).MatchString(page) || strings.Contains(page, "{{") {
		t.Error("page refers to the network or keeps a placeholder")
	}
}

func TestIndexLoadsWasmBeside(t *testing.T) {
	out, err := Build(inputs(t))
	if err != nil {
		t.Fatal(err)
	}
	index := string(out[IndexFile])
	if strings.Contains(index, `id="imas-wasm"`) {
		t.Error("index.html inlines the wasm")
	}
	in := inputs(t)
	if !strings.Contains(index, `<script id="imas-vector" type="application/octet-stream">`+base64.StdEncoding.EncodeToString(in.Vector)+"</script>") {
		t.Error("index.html lacks the inlined kernel")
	}
	if !bytes.HasPrefix(out[WasmFile], []byte{0x1f, 0x8b}) {
		t.Error("imas.wasm.gz is not gzip")
	}
	if !strings.Contains(string(out[IndexFile]), "v-test") {
		t.Error("version not written")
	}
}

func TestRefusesBreakingSources(t *testing.T) {
	for _, bad := range []string{"x = '</script>'", "<!-- y", "a { } </style>"} {
		in := inputs(t)
		in.Scripts = append(in.Scripts, bad)
		if _, err := Build(in); err == nil {
			t.Errorf("accepted a source with %q", bad)
		}
	}
	in := inputs(t)
	in.Template = strings.Replace(in.Template, "{{SCRIPTS}}", "", 1)
	if _, err := Build(in); err == nil {
		t.Error("accepted a template without {{SCRIPTS}}")
	}
}

func TestCompactScript(t *testing.T) {
	cases := []struct{ in, want string }{
		{"// head\n// more head\n\n  // gone\n  let a = 1; // kept\n\tif (a) {\n    return 'http://x';\n  }\n", "// head\n// more head\n\nlet a = 1; // kept\nif (a) {\nreturn 'http://x';\n}\n"},
		{"let s = `a\n  // in a string\n`;\n", "let s = `a\n  // in a string\n`;\n"},
		{"x = 1\n  // c\n  (f)()\n", "x = 1\n(f)()\n"},
	}
	for _, c := range cases {
		if got := CompactScript(c.in); got != c.want {
			t.Errorf("CompactScript(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A wasm gzipped elsewhere is inlined as given when it inflates to the
// program, and refused when it does not.
func TestWasmGzippedElsewhere(t *testing.T) {
	in := inputs(t)
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.NoCompression)
	zw.Write(in.Wasm)
	zw.Close()
	in.WasmGzip = z.Bytes()
	out, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out[WasmFile], in.WasmGzip) {
		t.Error("the given gzip was not used")
	}
	in.WasmGzip = append([]byte(nil), z.Bytes()...)
	in.Wasm = append(bytes.Clone(in.Wasm), '!')
	if _, err := Build(in); err == nil {
		t.Error("a gzip of another program was accepted")
	}
}
