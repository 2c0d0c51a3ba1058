// Package firmware finds, reads and fetches the machines' ROM images.
//
// There are five images, each named as the firmware directory holds it (the
// spec's "Starting it"; checklist S-7): cpc464.rom, cpc664.rom and
// cpc6128.rom, each a CPC's operating system followed by its BASIC;
// amsdos.rom, the disc interface's ROM; and spectrum48.rom.
//
// A program searches for them in the directory given by --roms, or else in
// $COLOPHON_ROMS, or else in roms/ beside the executable and then ./roms (see
// Dirs). An image is read only when a machine that needs it is opened
// (S-8), so a missing one is reported then, by name, with the directories
// searched (S-9). The server takes a file only at the image's exact size
// (S-10, A-1); the emulator's command line takes the first bytes of a
// longer one.
//
// Fetch downloads the images from their public copies, each pinned by its
// SHA-256.
package firmware

import (
	"fmt"
	"slices"
)

// Image is one firmware image.
type Image struct {
	Name   string // file name in the firmware directory
	Size   int    // bytes
	SHA256 string // hex digest of the published image, the pin Fetch checks

	origin origin // where Fetch finds the published image
	remote string // its file name there
}

// The sizes: a CPC image is two 16K ROMs, the operating system, which the
// Gate Array maps over &0000-&3FFF as the lower ROM, followed by BASIC, an
// upper ROM over &C000-&FFFF (spec, "Starting it" and "Stopping and
// watching"; ../shared/README.md, roms/: "each 32K: the OS ROM, then
// BASIC"). AMSDOS is one 16K upper ROM (the same README). The 48K Spectrum's
// ROM is everything below &4000 (spec, "Stopping and watching"), 16384 bytes,
// as the Complete Spectrum ROM Disassembly's 16384 bytes in
// ../shared/testdata/spectrum-rom/rom_instructions.tsv cover it.
//
// The pins are the digests in ../shared/roms/SHA256SUMS, copied here so that
// a fetch needs nothing but this program; TestPinsMatchSHA256SUMS holds the
// two to each other.
var (
	CPC464 = Image{Name: "cpc464.rom", Size: 32768,
		SHA256: "00960d9bf75b2b90856c970f1aa078e1e2aa028b2c104f1dded0262f5d37b15e",
		origin: caprice32, remote: "cpc464.rom"}
	CPC664 = Image{Name: "cpc664.rom", Size: 32768,
		SHA256: "1fcb20cf169f170774bf94954db9372c95edd038a5cb8e5199774552b93f8747",
		origin: caprice32, remote: "cpc664.rom"}
	CPC6128 = Image{Name: "cpc6128.rom", Size: 32768,
		SHA256: "31c3668c67bea027dab698ece233c9434d9324f9ba7dac84db58f400b6689562",
		origin: caprice32, remote: "cpc6128.rom"}
	AMSDOS = Image{Name: "amsdos.rom", Size: 16384,
		SHA256: "ea65e0fb44ee93ede4b6c507509b7e5ddf497fb7155023bea91ef229469fa04d",
		origin: caprice32, remote: "amsdos.rom"}
	Spectrum48 = Image{Name: "spectrum48.rom", Size: 16384,
		SHA256: "d55daa439b673b0e3f5897f99ac37ecb45f974d1862b4dadb85dec34af99cb42",
		origin: fuse, remote: "48.rom"}
)

// Images lists every image, by name.
var Images = []Image{AMSDOS, CPC464, CPC6128, CPC664, Spectrum48}

// Lookup returns the image with the given file name.
func Lookup(name string) (Image, error) {
	i := slices.IndexFunc(Images, func(im Image) bool { return im.Name == name })
	if i < 0 {
		return Image{}, fmt.Errorf("no firmware image is named %q (the images are %s)", name, names(Images))
	}
	return Images[i], nil
}

func names(images []Image) string {
	s := ""
	for i, im := range images {
		if i > 0 {
			s += ", "
		}
		s += im.Name
	}
	return s
}
