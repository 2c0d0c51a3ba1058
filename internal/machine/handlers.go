package machine

// Handlers is a board's account of the interrupt handlers its processor is
// inside, for a host that wants to stop where none is running (run's clean
// stop). An interrupt's response pushes the address the processor stood at
// and jumps to the handler; the handler has ended when the processor comes
// back to that address with the stack pointer where it stood before the
// push, which is where a RET or RETI at the handler's end leaves it, or a
// POP and JP (HL) that do the same. Nothing else is assumed of a handler:
// it may enable interrupts and be interrupted itself, as the CPC
// firmware's does, so the account is a stack. A handler that never comes
// back (one that resets the stack and jumps to a main loop) stays on it
// until deeper ones push it off the bottom.
//
// A board calls Enter as it accepts an interrupt, with SP and PC as the
// response finds them, and Fetched at each opcode fetch that is not the
// response's. It is held by value in the board, so a state kept of the
// board keeps it.
type Handlers struct {
	n     int
	frame [8]handlerFrame
}

type handlerFrame struct{ sp, ret uint16 }

// Enter records an interrupt accepted with the stack pointer at sp and the
// processor at ret, the address the response pushes. A handler that came
// back to ret with sp just as this one is accepted there has ended first.
func (h *Handlers) Enter(sp, ret uint16) {
	h.leave(ret, sp)
	if h.n == len(h.frame) {
		copy(h.frame[:], h.frame[1:])
		h.n--
	}
	h.frame[h.n] = handlerFrame{sp, ret}
	h.n++
}

// Active reports whether any handler is on the account; a board checks it
// before calling Fetched, to cost nothing while none is.
func (h *Handlers) Active() bool { return h.n != 0 }

// Fetched ends the handlers the processor has come back from, fetching
// the opcode at pc with the stack pointer at sp.
func (h *Handlers) Fetched(pc, sp uint16) { h.leave(pc, sp) }

func (h *Handlers) leave(pc, sp uint16) {
	for h.n > 0 && h.frame[h.n-1] == (handlerFrame{sp, pc}) {
		h.n--
	}
}

// Inside reports whether the processor, standing at pc with the stack
// pointer at sp between instructions, is inside a handler: one accepted
// and not yet come back from, where coming back to pc with sp now counts.
func (h *Handlers) Inside(pc, sp uint16) bool {
	n := h.n
	for n > 0 && h.frame[n-1] == (handlerFrame{sp, pc}) {
		n--
	}
	return n > 0
}

// Reset forgets every handler, for a machine stood up afresh.
func (h *Handlers) Reset() { *h = Handlers{} }

// Interrupts is a machine whose board keeps a Handlers account.
type Interrupts interface {
	// InHandler reports whether the processor stands inside the response
	// to an interrupt or the handler it ran, as Handlers accounts for
	// them since the machine was built or loaded.
	InHandler() bool
}
