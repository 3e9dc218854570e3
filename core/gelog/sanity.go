package gelog

import (
	"imas/core/diag"
	"imas/core/plog"
)

// Some markers also occur in line envelopes: GE prints the function name
// before every message, so every line of a function called MallocMemory or
// InitFeatureMapAndP2PMem, and every HP_LOGI line of
// ge::PhysicalMemoryAllocator::*, carries a marker whatever it says. Such a
// line is understood (it is not one of the statements imas reads) and is
// kept as an Ignored record, counted under "ignored:envelope-marker".

func init() {
	Register(Family{Name: diag.IgnoreEnvelopeMarker, Match: envelopeOnly, Parse: func(_ *plog.Envelope, _ []byte, m Meta, _ []byte) Record {
		return &Ignored{Meta: m, What: diag.IgnoreEnvelopeMarker}
	}})
}

// envelopeOnly reports whether the message itself carries no marker and no
// other family claims it (so the line was a candidate only because of its
// envelope).
func envelopeOnly(env *plog.Envelope, msg []byte) bool {
	if MarkerIn(msg) {
		return false
	}
	for i := range families {
		f := &families[i]
		if f.Name != diag.IgnoreEnvelopeMarker && f.Match(env, msg) {
			return false
		}
	}
	return true
}

// MarkerIn reports whether b contains one of the Markers.
func MarkerIn(b []byte) bool {
	for _, mk := range Markers {
		if containsText(b, mk) {
			return true
		}
	}
	return false
}
