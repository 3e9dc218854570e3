package scan

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// lookup is the filter at data[at:] computed byte by byte: the buckets
// whose window the four bytes there may be.
func lookup(t *VectorTables, data []byte, at int) uint8 {
	r := uint8(0xff)
	for j := 0; j < teddyWindow; j++ {
		c := data[at+j]
		r &= t[j][c&15] & t[teddyWindow+j][c>>4]
	}
	return r
}

var planTexts = []string{"", "plain noise", strings.Repeat("MMMM FFFF [IMAS] ", 5000), strings.Repeat("Free Free ", 3000),
	strings.Repeat("abcdefghijklmnopqrstuvwxyz", 3000), strings.Repeat("\x00\xff\x80 Malloc block Memory", 1000)}

// TestPlanTeddyCoversEveryMarker checks the plan every vector pass uses:
// each marker is in the tail list once and in one bucket once, with its
// window inside it, and the tables let its window through for that bucket,
// so that no filter can miss it.
func TestPlanTeddyCoversEveryMarker(t *testing.T) {
	for _, text := range planTexts {
		p := planTeddy([]byte(text))
		for _, m := range markersAsBytes() {
			var pin []pinned
			for _, q := range p.all {
				if bytes.Equal(q.marker, m) {
					pin = append(pin, q)
				}
			}
			if len(pin) != 1 {
				t.Fatalf("text %.20q: marker %q %d times in the tail list", text, m, len(pin))
			}
			off := pin[0].off
			if off < 0 || off+teddyWindow > len(m) {
				t.Fatalf("text %.20q: marker %q window at %d", text, m, off)
			}
			bucket := -1
			for b, ms := range p.buckets {
				for _, q := range ms {
					if bytes.Equal(q.marker, m) {
						if bucket >= 0 || q.off != off {
							t.Fatalf("text %.20q: marker %q in buckets %d and %d (offsets %d, %d)", text, m, bucket, b, off, q.off)
						}
						bucket = b
					}
				}
			}
			if bucket < 0 {
				t.Fatalf("text %.20q: marker %q in no bucket", text, m)
			}
			if set := lookup(&p.tables, m, off); set&(1<<bucket) == 0 {
				t.Errorf("text %.20q: marker %q: the tables give buckets %08b for its window, not %d", text, m, set, bucket)
			}
			if s := p.verify(m, off, 1<<bucket); s < 0 {
				t.Errorf("text %.20q: marker %q not verified", text, m)
			}
		}
	}
}

// TestPlanTeddyAvoidsFrequentPairs: in a log full of "Free", "Free block "
// is looked for by a window whose byte pairs the text does not have.
func TestPlanTeddyAvoidsFrequentPairs(t *testing.T) {
	text := []byte(planTexts[3])
	p := planTeddy(text)
	for _, q := range p.all {
		if string(q.marker) != "Free block " {
			continue
		}
		w := q.marker[q.off : q.off+teddyWindow]
		if bytes.Contains(text, w[:2]) || bytes.Contains(text, w[2:]) {
			t.Errorf("window %q of %q has a pair of the text", w, q.marker)
		}
		return
	}
	t.Fatal("no Free block marker")
}

// TestPlanTeddyForgetsEarlierBuffers: a buffer's plan depends on that
// buffer alone, whatever was planned before it (the pair tables are
// reused from plan to plan).
func TestPlanTeddyForgetsEarlierBuffers(t *testing.T) {
	for i := range planTexts {
		text := []byte(planTexts[i])
		alone := planTeddy(text)
		for j := range planTexts {
			planTeddy([]byte(planTexts[j]))
			if again := planTeddy(text); !reflect.DeepEqual(again, alone) {
				t.Fatalf("plan of text %d after text %d differs from its plan alone", i, j)
			}
		}
	}
}

// TestTeddyPlanFalseHits: the filter's nibble tables accept few positions
// that no marker starts at, on the generated logs and, when present, the
// real ones. A bucket accepts any mix of its windows' nibbles, so a plan
// that mixes windows carelessly accepts common text and the scan slows
// down (counted, not timed).
func TestTeddyPlanFalseHits(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/gen/*/*.log")
	real, _ := filepath.Glob("../../../shared/real-logs/oam-*.log")
	for _, c := range []struct {
		files []string
		bound float64
	}{{files, 2.5}, {real, 8}} {
		var data []byte
		for _, f := range c.files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, b...)
		}
		if len(data) == 0 {
			continue
		}
		p := planTeddy(data)
		hits, found := 0, 0
		for i := 0; i+teddyWindow <= len(data); i++ {
			set := uint8(0xff)
			for j := 0; j < teddyWindow; j++ {
				b := data[i+j]
				set &= p.tables[j][b&15] & p.tables[teddyWindow+j][b>>4]
			}
			if set != 0 {
				hits++
				if p.verify(data, i, set) >= 0 {
					found++
				}
			}
		}
		if float64(hits) > c.bound*float64(found) {
			t.Errorf("%d files: the filter accepts %d positions for %d markers found (bound %.0fx)", len(c.files), hits, found, c.bound)
		}
	}
}

// BenchmarkPlanTeddy is the plan of one buffer (a generated log with
// RT2 pools): its pair sample and the placing of every window in a bucket.
func BenchmarkPlanTeddy(b *testing.B) {
	files, _ := filepath.Glob("../../testdata/gen/pool/*.log")
	if len(files) == 0 {
		b.Skip("no testdata/gen/pool")
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		planTeddy(data)
	}
}
