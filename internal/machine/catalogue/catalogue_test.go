package catalogue

import (
	"bytes"
	"strings"
	"testing"

	"colophon/internal/machine"
	"colophon/internal/machine/cpc"
	"colophon/internal/shared"
)

// firmwareOf reads a machine's firmware from the shared roms, in the
// catalogue's order.
func firmwareOf(t *testing.T, m *Machine) [][]byte {
	t.Helper()
	fw := make([][]byte, len(m.Firmware))
	for i, s := range m.Firmware {
		fw[i] = shared.ReadFile(t, "roms", s.Image.Name)
	}
	return fw
}

// TestW5Sockets holds the catalogue to the spec's wiring (W-5, S-7,
// DT-12): each CPC's own image in the lower ROM and upper ROM 0, AMSDOS in
// upper ROM 7 on the machines with a disc interface, which alone take a
// disc in drive A or B; the 464 is built without one and says so; the
// Spectrum's ROM below &4000.
func TestW5Sockets(t *testing.T) {
	for _, m := range Machines {
		t.Run(m.Name, func(t *testing.T) {
			fw := firmwareOf(t, m)
			mm, err := m.Build(Config{Firmware: fw})
			if err != nil {
				t.Fatal(err)
			}
			if mm.Name() != m.Name {
				t.Errorf("built %s", mm.Name())
			}
			disc, discErr := m.Medium(Disc)
			c, isCPC := mm.(*cpc.CPC)
			if isCPC != m.CPC {
				t.Fatalf("CPC is %v, but Build made a %T", m.CPC, mm)
			}
			if !isCPC {
				for a := range 0x4000 {
					if got := mm.(machine.Memory).Peek(uint16(a)); got != fw[0][a] {
						t.Fatalf("ROM at &%04X is &%02X, the image's &%02X", a, got, fw[0][a])
					}
				}
				if discErr == nil || !strings.Contains(discErr.Error(), "no disc interface") {
					t.Errorf("a Spectrum's disc: %v, %v", disc, discErr)
				}
				return
			}
			if !bytes.Equal(c.LowerROMBytes(), fw[0][:cpc.ROMSize]) {
				t.Error("the lower ROM is not the image's first 16K")
			}
			if !bytes.Equal(c.UpperROMBytes(0), fw[0][cpc.ROMSize:]) {
				t.Error("upper ROM 0 is not the image's second 16K")
			}
			amsdos := c.UpperROMBytes(cpc.AMSDOSSlot)
			switch m.Name {
			case "cpc464":
				if amsdos != nil || len(m.Firmware) != 1 {
					t.Error("a 464 has a ROM in socket 7")
				}
				if discErr == nil || !strings.Contains(discErr.Error(), "cpc464 takes no disc: a cpc464 has no disc interface, and none can be fitted") {
					t.Errorf("a 464's disc: %v", discErr)
				}
			default:
				if !bytes.Equal(amsdos, fw[1]) || m.Firmware[1].Image.Name != "amsdos.rom" {
					t.Error("AMSDOS is not upper ROM 7")
				}
				if discErr != nil || strings.Join(disc.Slots, " ") != "A B" || disc.File.Most != 16<<20 {
					t.Errorf("the disc drives: %+v, %v", disc, discErr)
				}
			}
		})
	}
}

// TestBuildRefusals: a machine is refused the wrong number of images and a
// 6845 of a type there is none of.
func TestBuildRefusals(t *testing.T) {
	m, err := Named("cpc6128")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Build(Config{Firmware: firmwareOf(t, m)[:1]}); err == nil || !strings.Contains(err.Error(), "2 firmware images, given 1") {
		t.Errorf("one image: %v", err)
	}
	if _, err := m.Build(Config{Firmware: firmwareOf(t, m), CRTC: 5}); err == nil || !strings.Contains(err.Error(), "type 0 to 4") {
		t.Errorf("crtc 5: %v", err)
	}
	s, _ := Named("spectrum48")
	if _, err := s.Build(Config{Firmware: firmwareOf(t, s), CRTC: 1}); err == nil {
		t.Error("a Spectrum took a 6845 type")
	}
	if _, err := Named("zx81"); err == nil || !strings.Contains(err.Error(), "cpc464, cpc664, cpc6128, spectrum48") {
		t.Errorf("zx81: %v", err)
	}
	d, _ := m.Medium(Disc)
	if n, err := d.Slot("b"); n != 1 || err != nil {
		t.Errorf("slot b: %d, %v", n, err)
	}
	if _, err := d.Slot("C"); err == nil || !strings.Contains(err.Error(), "A and B") {
		t.Errorf("slot C: %v", err)
	}
}
