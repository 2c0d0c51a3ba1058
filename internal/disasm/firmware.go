package disasm

//go:generate go run ./internal/gen/namestable -o names_table.go

// Firmware is a CPC's operating system, whose jumpblock entries a listing
// names and whose restarts it lists with their words. The zero value is
// none: a ZX Spectrum, or memory read without any firmware in mind.
type Firmware uint8

const (
	// NoFirmware lists plain Z80: no names and no restarts' words.
	NoFirmware Firmware = iota
	// CPC464 is the firmware V1.0 (../shared/README.md,
	// jumpblocks_detail.tsv: 464 = V1.0).
	CPC464
	// CPC664 is the firmware V1.1.
	CPC664
	// CPC6128 is the firmware V1.1 with KL BANK SWITCH.
	CPC6128
)

// String is the machine's name on the command line.
func (f Firmware) String() string {
	switch f {
	case NoFirmware:
		return "none"
	case CPC464:
		return "cpc464"
	case CPC664:
		return "cpc664"
	case CPC6128:
		return "cpc6128"
	}
	return "unknown"
}

// FirmwareOf returns the firmware of the machine the command line names
// name: a CPC's, or NoFirmware for spectrum48. Any other name is refused.
func FirmwareOf(name string) (Firmware, bool) {
	switch name {
	case "spectrum48":
		return NoFirmware, true
	case "cpc464":
		return CPC464, true
	case "cpc664":
		return CPC664, true
	case "cpc6128":
		return CPC6128, true
	}
	return NoFirmware, false
}

// models is the set of firmware versions that set up an entry.
type models uint8

const (
	in464  models = 1 << CPC464
	in664  models = 1 << CPC664
	in6128 models = 1 << CPC6128
)

// block is which jumpblock an entry belongs to.
type block uint8

const (
	highKernel   block = iota // from &B900 (SOFT 968, "The High Kernel Jumpblock")
	mainBlock                 // from &BB00 (SOFT 968, section 15, "The Main Firmware Jumpblock")
	indirections              // from &BDCD (SOFT 968, "The Firmware Indirections")
)

// entry is one named entry of a jumpblock, as SOFT 968 lists it.
type entry struct {
	block  block
	index  int16 // SOFT 968's number within its block; -1 where it gives none
	addr   uint16
	name   string
	models models
}

// The named entries lie between these addresses: the high kernel's first
// and the last indirection's end (jumpblocks.tsv).
const (
	namesFrom = 0xb900
	namesTo   = 0xbe00
)

// byAddress maps, for each firmware, an address in [namesFrom, namesTo)
// to 1 + the index in entries of the entry that begins there, or 0.
var byAddress [CPC6128 + 1][namesTo - namesFrom]int16

func init() {
	for i, e := range entries {
		for f := CPC464; f <= CPC6128; f++ {
			if e.models&(1<<f) != 0 {
				byAddress[f][e.addr-namesFrom] = int16(i + 1)
			}
		}
	}
}

// EntryAt returns the name SOFT 968 gives the jumpblock entry at addr, in
// the main jumpblock, the high kernel's or the indirections, where this
// firmware sets that entry up: a 464 has none of the main jumpblock's from
// KM SET LOCKS on, nor KL SCAN NEEDED nor the KM SCAN KEYS indirection, and
// a 664 has no KL BANK SWITCH (jumpblocks_detail.tsv, checked there
// against the ROMs). The name belongs to the address, whatever the memory
// there holds.
func (f Firmware) EntryAt(addr uint16) (string, bool) {
	if f == NoFirmware || f > CPC6128 || addr < namesFrom || addr >= namesTo {
		return "", false
	}
	i := byAddress[f][addr-namesFrom]
	if i == 0 {
		return "", false
	}
	return entries[i-1].name, true
}

// restartsWithWord are the firmware's restarts that take the two bytes
// after them as an address: LOW JUMP (RST 1, &08), SIDE CALL (RST 2, &10),
// FAR CALL (RST 3, &18) and FIRM JUMP (RST 5, &28) (SOFT 968, "The Low
// Kernel Jumpblock": each RST "is followed by a two byte" address). A
// listing reads on after the word, as it reads on after the JP or CALL
// each restart stands for (spec, "Reading memory as instructions").
var restartsWithWord = [8]bool{1: true, 2: true, 3: true, 5: true}

// lowerROMNeeded is how much of the lower ROM the restarts' check reads:
// up to the third byte at FIRM JUMP's &28.
const lowerROMNeeded = 0x28 + 3
