package ui

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPaletteContrast keeps the text colours of style.css at WCAG AA
// (4.5:1) on the backgrounds they are drawn on, in the light scheme and in
// the dark one (its overrides on top of the light palette).
func TestPaletteContrast(t *testing.T) {
	css, err := os.ReadFile("web/style.css")
	if err != nil {
		t.Fatal(err)
	}
	s := string(css)
	dark := strings.Index(s, "@media (prefers-color-scheme: dark)")
	if dark < 0 {
		t.Fatal("style.css has no dark scheme")
	}
	light := palette(s[:dark])
	darkP := palette(s[dark:])
	for k, v := range light {
		if _, ok := darkP[k]; !ok {
			darkP[k] = v
		}
	}
	pairs := [][2]string{ // text, background
		{"fg", "bg"}, {"fg", "panel"}, {"fg", "head"}, {"fg", "selbg"}, {"fg", "bad"}, {"fg", "selbad"},
		{"muted", "bg"}, {"muted", "panel"}, {"muted", "head"},
		{"accent", "bg"}, {"accent", "panel"},
		{"err", "bg"}, {"err", "panel"}, {"good", "bg"}, {"good", "panel"},
		{"notefg", "note"},
	}
	for name, p := range map[string]map[string]string{"light": light, "dark": darkP} {
		for _, pr := range pairs {
			fg, bg := p[pr[0]], p[pr[1]]
			if fg == "" || bg == "" {
				t.Fatalf("%s: --%s or --%s missing from style.css", name, pr[0], pr[1])
			}
			if r := contrast(t, fg, bg); r < 4.5 {
				t.Errorf("%s: --%s %s on --%s %s is %.2f:1, under WCAG AA's 4.5:1", name, pr[0], fg, pr[1], bg, r)
			}
		}
	}
	// The primary button: white on the accent (light), black on it (dark).
	if r := contrast(t, "#ffffff", light["accent"]); r < 4.5 {
		t.Errorf("light: white on --accent is %.2f:1", r)
	}
	if r := contrast(t, "#000000", darkP["accent"]); r < 4.5 {
		t.Errorf("dark: black on --accent is %.2f:1", r)
	}
}

var customProperty = regexp.MustCompile(`--([a-z0-9]+):\s*(#[0-9a-fA-F]{6})`)

func palette(css string) map[string]string {
	p := map[string]string{}
	for _, m := range customProperty.FindAllStringSubmatch(css, -1) {
		p[m[1]] = m[2]
	}
	return p
}

// contrast is WCAG 2's contrast ratio of two #rrggbb colours.
func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(t *testing.T, hex string) float64 {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil {
		t.Fatalf("colour %q: %v", hex, err)
	}
	ch := func(shift uint) float64 {
		c := float64((v>>shift)&0xff) / 255
		if c <= 0.03928 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(16) + 0.7152*ch(8) + 0.0722*ch(0)
}
