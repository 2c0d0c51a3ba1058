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
// board keeps it; and its fields are inspect's, under the board's
// handlers, so that a state file keeps it too and set may write it.
type Handlers struct {
	// Depth is how many handlers the account holds, the innermost last.
	Depth uint8 `inspect:"depth,max=8"`
	// Frames are the handlers, Frames[0] to Frames[Depth-1]; the rest are
	// not read.
	Frames [8]HandlerFrame `inspect:"frames"`
}

// A HandlerFrame is one handler on the account: the stack pointer as its
// interrupt was accepted, before the response pushed anything, and the
// address the response pushed, which the handler comes back to.
type HandlerFrame struct {
	SP  uint16 `inspect:"sp"`
	Ret uint16 `inspect:"ret"`
}

// Enter records an interrupt accepted with the stack pointer at sp and the
// processor at ret, the address the response pushes. A handler that came
// back to ret with sp just as this one is accepted there has ended first.
func (h *Handlers) Enter(sp, ret uint16) {
	h.leave(ret, sp)
	if int(h.Depth) == len(h.Frames) {
		copy(h.Frames[:], h.Frames[1:])
		h.Depth--
	}
	h.Frames[h.Depth] = HandlerFrame{sp, ret}
	h.Depth++
}

// Active reports whether any handler is on the account; a board checks it
// before calling Fetched, to cost nothing while none is.
func (h *Handlers) Active() bool { return h.Depth != 0 }

// Fetched ends the handlers the processor has come back from, fetching
// the opcode at pc with the stack pointer at sp.
func (h *Handlers) Fetched(pc, sp uint16) { h.leave(pc, sp) }

func (h *Handlers) leave(pc, sp uint16) {
	for h.Depth > 0 && h.Frames[h.Depth-1] == (HandlerFrame{sp, pc}) {
		h.Depth--
	}
}

// Inside reports whether the processor, standing at pc with the stack
// pointer at sp between instructions, is inside a handler: one accepted
// and not yet come back from, where coming back to pc with sp now counts.
func (h *Handlers) Inside(pc, sp uint16) bool {
	n := h.Depth
	for n > 0 && h.Frames[n-1] == (HandlerFrame{sp, pc}) {
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
