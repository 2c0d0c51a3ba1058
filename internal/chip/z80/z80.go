// Package z80 is the Zilog Z80 processor, NMOS, exact to the T-state.
//
// The processor knows no machine. It talks to the board it is soldered to
// through a Bus, one call per machine cycle, and the board answers with the
// byte on the data bus. Time is the processor's Tick, counted in T-states
// since power-on; the board stretches a cycle, as the silicon's WAIT input
// does, by adding to Tick while it answers.
//
// The unit of execution is one opcode fetch (Exec). A DD or FD prefix is
// fetched alone and leaves Prefix set, because the silicon samples neither
// INT nor NMI until the instruction it prefixes is done; Step runs whole
// instructions and takes an interrupt where one is pending.
//
// Sources cited at the lines that depend on them:
//   - Zilog, "Z80 CPU User Manual" UM0080 (UM0080), for cycle shapes, the
//     T-states of WAIT sampling, and the interrupt responses.
//   - Sean Young, "The Undocumented Z80 Documented" v0.91 (UZD), for the X/Y
//     flags, SLL, the undocumented ED and DDCB forms, and the block
//     instructions' flags.
//   - "MEMPTR, esoteric register of the Z80" (boo_boo and Vladimir
//     Kladov, 2006) for WZ.
//   - Patrik Rak's 2018 finding on Q (SCF/CCF take X/Y from (Q^F)|A), as the
//     FUSE tests encode it.
//   - The FUSE tests themselves for the contention points (MC events).
package z80

// Bus is the board around the processor. Each method is one machine cycle.
//
// When a method is called, CPU.Tick holds the tick at which the cycle's T1
// begins. The board may add wait states by adding to CPU.Tick during the
// call; the processor then adds the cycle's own length. A board that wants
// to know when WAIT is sampled, or when a strobe falls, works it out from
// T1 and the offsets documented on each method (UM0080, "Timing").
//
// For every call, CPU.InstrPC is the address at which the instruction that
// makes the access began (its first prefix, if it has any).
type Bus interface {
	// Fetch is an M1 opcode fetch: 4 T-states, 2 for the read and 2 for
	// the refresh, during which I:R (R before its increment by this
	// fetch... see CPU.R) is on the address bus. WAIT is sampled on the
	// falling edge of T2 (offset 1).
	Fetch(addr uint16) byte
	// Read is a memory read: 3 T-states. WAIT is sampled on the falling
	// edge of T2 (offset 1); the byte is latched in T3.
	Read(addr uint16) byte
	// Write is a memory write: 3 T-states. WAIT is sampled on the falling
	// edge of T2 (offset 1); /WR falls in T2.
	Write(addr uint16, v byte)
	// In is an I/O read: 4 T-states including the automatic wait state
	// TW. WAIT is sampled on the falling edge of TW (offset 2).
	In(port uint16) byte
	// Out is an I/O write: 4 T-states including TW, sampled as In.
	Out(port uint16, v byte)
	// Internal is n T-states in which the processor works inside itself
	// while addr stays on the address bus. No WAIT is sampled, but a
	// Spectrum's ULA contends such cycles by address; FUSE logs each as
	// an MC event.
	Internal(addr uint16, n int)
	// Acknowledge is the interrupt acknowledge cycle of a maskable
	// interrupt: an M1 with two automatic wait states, 6 T-states before
	// its refresh... the board returns the byte it puts on the data bus.
	// WAIT is sampled in the second automatic wait state (offset 3).
	Acknowledge() byte
}

// CPU is the processor's state: every register the silicon holds, and the
// few latches that decide what it does next. Field tags name each field as
// inspect, set and the state file read it.
type CPU struct {
	A, F, B, C, D, E, H, L         byte   // main registers
	A_, F_, B_, C_, D_, E_, H_, L_ byte   // the alternate set, AF', BC', DE', HL'
	IX, IY, SP, PC                 uint16 //
	WZ                             uint16 // MEMPTR, the hidden address latch (UZD; MEMPTR paper)
	I, R                           byte   // R's bit 7 is kept by the refresh counter (UM0080)
	IM                             byte   // interrupt mode 0, 1 or 2
	IFF1, IFF2                     bool   //
	Q                              byte   // F as the last instruction left it if it set F, else 0 (Rak 2018)
	P                              bool   // the last instruction was LD A,I or LD A,R (the NMOS parity quirk)
	EI                             bool   // the last instruction was EI: no interrupt is taken after it
	Halted                         bool   // inside HALT; PC stays on the HALT (FUSE 2015+)
	Prefix                         byte   // 0, or &DD/&FD after a prefix whose instruction is not yet done
	INT                            bool   // the /INT line, held by the board
	NMI                            bool   // a falling edge on /NMI, latched until the response
	InstrPC                        uint16 // where the instruction under way began, prefixes included
	Tick                           uint64 // T-states since power-on
	Bus                            Bus    `inspect:"-"`
}
