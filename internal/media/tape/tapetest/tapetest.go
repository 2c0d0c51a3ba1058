// Package tapetest writes tapes for tests, as each machine's own firmware
// writes them: a Spectrum's BASIC program as the 48K ROM saves it, and a
// CPC's binary file as the cassette manager of SOFT 968 records it.
//
// Sources:
//   - [ROM] The 48K ROM's disassembly (../shared/testdata/spectrum-rom):
//     SAVE-ETC at &0605 makes the 17 bytes of a header, the type (0 for a
//     program), the ten characters of the name, the length, the autostart
//     line and the program's length without its variables; SA-BYTES at
//     &04C2 writes a block as a flag byte, &00 for a header and &FF for
//     data, the bytes, and the exclusive-or of them all; a program line is
//     its number, high byte first, its length, low byte first, its text and
//     ENTER (&0D), a number in it followed by &0E and its five-byte form.
//   - [CAS] SOFT 968, the CPC firmware manual, section 8, the cassette
//     manager, as summarised by the "Standard loading system notes" on
//     cpctech: a file is written as a header record, sync byte &2C, of 64
//     bytes, then a data record, sync byte &16, of up to 2K; each record a
//     leader of 2048 1 bits, a 0 bit, the sync byte, segments of 256
//     bytes each followed by its CRC (CCITT, seed &FFFF, stored inverted,
//     high byte first), and a trailer of 32 1 bits; a bit a whole cycle,
//     two pulses, a 1 twice as long as a 0. The header holds the name (16
//     bytes), the block number, the last block flag, the file type (2 for
//     a binary), the block's length, where it loads, the first block flag,
//     the file's length and its entry address.
package tapetest

import "encoding/binary"

// ROMBlock is a block of a .tap as the ROM writes it: the flag, the bytes
// and their checksum, after the two bytes of its length.
func ROMBlock(flag byte, data []byte) []byte {
	b := append([]byte{flag}, data...)
	sum := byte(0)
	for _, v := range b {
		sum ^= v
	}
	b = append(b, sum)
	return append(binary.LittleEndian.AppendUint16(nil, uint16(len(b))), b...)
}

// Line is a program line as the ROM stores it: its number high byte
// first, its length, its text and ENTER.
func Line(n uint16, text ...byte) []byte {
	text = append(text, 0x0D)
	b := binary.BigEndian.AppendUint16(nil, n)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(text)))
	return append(b, text...)
}

// Number is a whole number as a program line holds it: its digits, then
// &0E and the five-byte form of a small integer, 0, its sign, its two
// bytes low first, and 0.
func Number(n uint16) []byte {
	var digits []byte
	for v := n; ; v /= 10 {
		digits = append([]byte{'0' + byte(v%10)}, digits...)
		if v < 10 {
			break
		}
	}
	return append(digits, 0x0E, 0, 0, byte(n), byte(n>>8), 0)
}

// SpectrumProgram is a .tap of a BASIC program saved as SAVE "name" LINE
// autostart saves it: a header, then the program.
func SpectrumProgram(name string, autostart uint16, program []byte) []byte {
	h := []byte{0}
	h = append(h, []byte(pad(name, 10, ' '))...)
	h = binary.LittleEndian.AppendUint16(h, uint16(len(program)))
	h = binary.LittleEndian.AppendUint16(h, autostart)
	h = binary.LittleEndian.AppendUint16(h, uint16(len(program)))
	return append(ROMBlock(0x00, h), ROMBlock(0xFF, program)...)
}

func pad(s string, n int, c byte) string {
	b := []byte(s)
	for len(b) < n {
		b = append(b, c)
	}
	return string(b[:n])
}

// The CPC's cassette timings, written into the TZX at its 3.5 MHz: the
// firmware's default speed, SPEED WRITE 0, 1000 baud, which is a 0 bit's
// pulse of 333 µs and a 1 bit's of twice that, the average bit a
// millisecond (CPC 464 manual, SPEED WRITE; [CAS]).
const (
	cpcZero = 1167 // 333 µs
	cpcOne  = 2333 // 667 µs
)

// crc is the CCITT CRC of a segment as the cassette manager writes it:
// seeded &FFFF, the polynomial &1021, each byte top bit first, and stored
// inverted ([CAS]).
func crc(seg []byte) uint16 {
	c := uint16(0xFFFF)
	for _, v := range seg {
		c ^= uint16(v) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
	}
	return ^c
}

// record is one record as a TZX turbo block (ID &11): the leader of 2048
// 1 bits as 4096 pulses, the 0 bit of the sync as the two sync pulses, the
// sync byte, the segments with their CRCs, the trailer of 32 1 bits, and a
// pause after.
func record(sync byte, data []byte, pauseMs uint16) []byte {
	body := []byte{sync}
	for i := 0; i < len(data); i += 256 {
		seg := make([]byte, 256)
		copy(seg, data[i:])
		body = append(body, seg...)
		body = binary.BigEndian.AppendUint16(body, crc(seg))
	}
	body = append(body, 0xFF, 0xFF, 0xFF, 0xFF)
	b := []byte{0x11}
	for _, v := range []uint16{cpcOne, cpcZero, cpcZero, cpcZero, cpcOne, 4096} {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	b = append(b, 8)
	b = binary.LittleEndian.AppendUint16(b, pauseMs)
	n := len(body)
	b = append(b, byte(n), byte(n>>8), byte(n>>16))
	return append(b, body...)
}

// CPCBinary is a CDT of one binary file of at most 2K, which loads at load
// and is entered at entry: its header record and its data record ([CAS]).
func CPCBinary(name string, load, entry uint16, code []byte) []byte {
	h := make([]byte, 64)
	copy(h, pad(name, 16, 0))
	h[16] = 1    // the block number
	h[17] = 0xFF // the last block
	h[18] = 2    // a binary file
	binary.LittleEndian.PutUint16(h[19:], uint16(len(code)))
	binary.LittleEndian.PutUint16(h[21:], load)
	h[23] = 0xFF // the first block
	binary.LittleEndian.PutUint16(h[24:], uint16(len(code)))
	binary.LittleEndian.PutUint16(h[26:], entry)
	b := append([]byte("ZXTape!\x1A"), 1, 20)
	b = append(b, record(0x2C, h, 500)...)
	return append(b, record(0x16, code, 1000)...)
}
