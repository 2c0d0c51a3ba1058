package cpc

// fdcWrite and fdcRead reach the disc controller: A0 low its main status
// register, high its data register (cpctech, "Floppy disc controller").
// The controller has no drives behind it here (internal/chip/upd765).
func (m *CPC) fdcWrite(a0 uint16, v byte) {
	if a0 == 1 {
		m.FDC.Write(v)
	}
}

func (m *CPC) fdcRead(a0 uint16) byte {
	if a0 == 0 {
		return m.FDC.MainStatus()
	}
	return m.FDC.Read()
}
