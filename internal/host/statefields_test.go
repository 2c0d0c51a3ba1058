package host

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"colophon/internal/chip/monitor"
	"colophon/internal/machine/cpc"
	"colophon/internal/machine/spectrum"
)

// TestStateFileKeepsEveryField walks each machine's type as a state file
// keeps it and holds every field inspect does not read, unexported or
// hidden, to how a machine stood up from the file gets it back: a buffer
// that follows the first line, firmware the machine is built with, what
// the board works out again from the fields once they are written
// (AfterSet), the tape put in again, or what holds nothing between one
// request and the next. Everything inspect reads the file holds by its
// name, so a field added later that inspect does not read, the way the
// interrupt handlers' account once was, fails here until the file keeps
// it (KEEP-9, KEEP-11). The tests that stand kept machines up from files
// and run them on are what hold each "worked out again" to the truth.
func TestStateFileKeepsEveryField(t *testing.T) {
	const (
		buffer   = "a buffer after the first line"
		firmware = "firmware, built with the machine and held to the state's by its hash"
		derived  = "worked out again from the fields written (AfterSet)"
		request  = "holds something only within one request"
		marks    = "the host's marks of what was written, not the machine's"
		tapeIn   = "set as the tape is put in again, by the machine's deck"
		built    = "fixed as the machine is built"
	)
	for _, c := range []struct {
		root any
		how  map[string]string
	}{
		{cpc.CPC{}, map[string]string{
			"CPU.Responding": request, "CPU.Operand": request, "CPU.Bus": built,
			"Monitor.Raster": buffer, "Monitor.changed": marks,
			"FDC.Units[].Disc": buffer,
			"RAM":              buffer, "video": built,
			"Tape.tape": tapeIn, "Tape.machine": tapeIn, "Tape.num": tapeIn, "Tape.den": tapeIn, "Tape.lag": tapeIn,
			"GA.colours": derived, "GA.coloursValid": derived,
			"lowerROM": firmware, "upperROM": firmware, "disc": built,
			"View":    "how the command line cuts the picture; a host never changes it",
			"observe": request, "access": request, "watch": request, "control": request,
			"marks": marks, "devices": "what is plugged in from outside, a test's printer",
			"pages": derived, "nextChar": derived, "actAt": derived, "raisedAt": derived, "quietUntil": derived,
			"watchFrames": request, "frameEnd": request,
		}},
		{spectrum.Spectrum{}, map[string]string{
			"CPU.Responding": request, "CPU.Operand": request, "CPU.Bus": built,
			"ULA.FrameStart": derived + ", from frame_tick", "ULA.screen": built, "ULA.pic": buffer,
			"ULA.row": derived, "ULA.chunk": derived, "ULA.next": derived,
			"Tape.tape": tapeIn, "Tape.machine": tapeIn, "Tape.num": tapeIn, "Tape.den": tapeIn, "Tape.lag": tapeIn,
			"mem":  buffer + ", the ROM below &4000 held to the firmware",
			"held": derived + ", the keys the ULA's half-rows hold", "typed": request,
			"observer": request, "watching": request, "access": request, "watch": request, "control": request,
			"marks": marks,
		}},
	} {
		t.Run(reflect.TypeOf(c.root).String(), func(t *testing.T) {
			var found []string
			follow := map[reflect.Type]bool{reflect.TypeFor[monitor.Monitor](): true}
			var walk func(ty reflect.Type, path string)
			walk = func(ty reflect.Type, path string) {
				switch ty.Kind() {
				case reflect.Struct:
					for i := range ty.NumField() {
						f := ty.Field(i)
						p := strings.TrimPrefix(path+"."+f.Name, ".")
						if !f.IsExported() || f.Tag.Get("inspect") == "-" {
							found = append(found, p)
							continue
						}
						walk(f.Type, p)
					}
				case reflect.Array:
					walk(ty.Elem(), path+"[]")
				case reflect.Pointer:
					if follow[ty.Elem()] {
						walk(ty.Elem(), path)
					}
				}
			}
			walk(reflect.TypeOf(c.root), "")
			for _, p := range found {
				if _, ok := c.how[p]; !ok {
					t.Errorf("%s is a field inspect does not read: say here how a state file gets it back, or name it for inspect", p)
				}
			}
			for p := range c.how {
				if !slices.Contains(found, p) {
					t.Errorf("%s is no longer a field inspect does not read; take it out of this list", p)
				}
			}
		})
	}
}
