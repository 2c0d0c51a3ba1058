package cpc

// The printer port, a Centronics port at &EFxx: bits 6-0 of a byte written
// there are the printer's data lines, and bit 7 its strobe, which the
// firmware's MC SEND PRINTER raises and lowers again around each byte,
// once BUSY, on PPI port B bit 6, is low (cpctech, "I/O port allocation"
// and "8255 PPI"; the 6128's lower ROM at &0844, which writes the byte
// with bit 7 clear, then set, then clear).
//
// A printer is a device plugged in from outside, such as a test's: a
// function told of each byte the strobe hands it, which is always ready
// for the next, holding BUSY low. With none, BUSY is pulled high, as it
// floats with nothing in the port.

// devices are what is plugged into the machine's ports from outside,
// behind a pointer, which a copy of the machine shares: a state put back
// leaves them plugged in.
type devices struct {
	printer func(byte)
}

// AttachPrinter plugs a printer into the printer port, told of each byte
// the machine prints; nil unplugs it.
func (m *CPC) AttachPrinter(print func(b byte)) { m.devices.printer = print }

// printerReady reports whether a printer holds BUSY low.
func (m *CPC) printerReady() bool { return m.devices.printer != nil }

// printer is a byte written to the printer port: the strobe rising hands
// the printer the data lines.
func (m *CPC) printer(v byte) {
	if v&0x80 != 0 && m.PrinterPort&0x80 == 0 && m.devices.printer != nil {
		m.devices.printer(v & 0x7F)
	}
	m.PrinterPort = v
}
