package server

import (
	"fmt"
	"strings"
)

// instructionsSpec is what the server tells an agent before its first
// request: what the tools are for, and what holds across all of them. A client may set
// it before the model as a session opens (spec, "What it answers"), so it is
// written for a model that has read nothing else; each tool's own
// description is the reference for that tool.
//
// Every number in it is the spec's (spec/colophon-mcp.txt): the frame lengths
// and the request limits from "Time", the start-up frames and the typing
// limits from "Keys and typing", the notation from "What it answers".
const instructionsSpec = `colophon-mcp stands up emulated home computers and lets you drive them: the Amstrad CPC 464, 664 and 6128 and the ZX Spectrum 48K, each exact to the tick of its processor's clock, running its own firmware. You reach a machine as its owner did, through its keyboard and its monitor, and also as a debugger does, through its memory, its chips and its processor.

MACHINES
- machine_open builds a machine by name: cpc464, cpc664, cpc6128 or spectrum48, optionally from a snapshot or a state file, and answers a handle. Every other tool names the machine by that handle. A CPC's 6845 (CRTC) is of type 0 to 4, as the CRTC Compendium numbers them; 0 unless you say otherwise.
- machine_list names the machines standing and the states kept of each. machine_close puts one away once the requests already made of it are done.
- Hold as many machines as you like. Requests to one machine run in the order they arrive; different machines may run at once.

TIME
- Only run, step, call and type move a machine. Each answers with the ticks it took, the frames the monitor retraced in them, and the machine's tick since it was stood up. Nothing else changes the tick.
- A tick is one cycle of the processor's clock: a CPC's standard frame is 79872 ticks, a Spectrum's 69888.
- run goes by frames (each ends as the retrace sends the beam to the top-left, so a run by frames leaves a whole picture) or by ticks, optionally holding keys down throughout, stopping at conditions (until), listing matches (gather, gather_last) or counting them (count). step runs whole instructions. call runs a routine the machine holds, as its own CALL would, and returns. A run by frames ends inside the frame interrupt's handler, where calling a CPC's firmware can corrupt the machine: run with clean first, which stops outside every handler.
- Limits per request: 1500 frames, or the ticks of 1500 standard frames; 100000 instructions for step. A request past a limit is refused; it is not cut short.
- A run ends between instructions, a few ticks past what was asked if an instruction was under way. It says "halted" if it stopped at a HALT with interrupts disabled, where the processor would wait for good, and "unsettled" if it ended inside a chain of DD/FD prefixes.
- Firmware needs time to start before it takes a key: run a CPC 78 frames and a Spectrum 128 frames after opening before you type.

KEYBOARD AND PICTURE
- type types ASCII text key by key, as a person would, with the shifts it needs: at most 250 characters on a CPC, 166 on a Spectrum. Text with a character no key can type is refused before any key goes down. On a Spectrum a letter typed where the cursor shows K is a keyword: p is PRINT, so "p2+2" then a newline prints 4.
- Keys are named as printed on the machine's keyboard (SPACE, COPY, f5, CAPS, SYM); a CPC key may also be given by its firmware key number.
- monitor answers the picture as a PNG whose palette indices are the machine's own colour numbers, with JSON saying which machine, at which tick, the size, where the beam stands, and whether the picture is whole; given text, it also reads the characters on the screen as lines of text, in the font the firmware draws with. screen reads a CPC's memory as a picture.

MEMORY AND CHIPS
- inspect and set read and write the emulator's own struct for the machine by C-expression paths, such as cpu.pc or crtc.registers[12]; enums go by name. set refuses values the machine cannot hold and leaves it as it was.
- peek, poke, find and disassemble reach memory as the processor would, through a CPC's banking and ROMs; given ram, they use a CPC's RAM by its own addresses, &00000 to &1FFFF on a 6128; given rom, peek, find and disassemble read one of a CPC's ROMs by name (lower) or number (0 to 255) whatever the Gate Array enables. Where an answer's rom names a ROM, the RAM beneath it is hidden: read it with ram. compare sets a CPC's RAM beside a kept state or another CPC's RAM, to see what a run changed.

NUMBERS
- Answers write addresses, ports and gathered bytes in hexadecimal after &, as the CPC manuals do: &BB06, &3E. An address past &FFFF takes five digits: &1C000.
- A PSG register and a 6845 register are plain numbers: 7, 12.
- Bytes that peek, poke, find, compare and disassemble exchange are pairs of hex digits, such as "3E 01 C9"; find takes ?? for any byte.
- Give an address in any form a tool's schema lists. Where memory is read (peek, disassemble, a capture), cpu.sp and cpu.pc stand for the address that register holds.

DISCS, TAPES, SNAPSHOTS AND STATES
- disc_insert and tape_insert copy a file into the machine; nothing the machine does reaches the file. disc_save and snapshot_save write new files.
- state_keep keeps the whole machine in the server's memory, state_restore puts it back exactly, as often as you like, state_save writes a state to a file that machine_open can open in another server, and state_drop lets one go. Keep a state before trying something you may want to undo.
- Paths are read and written from the server's working directory when relative. Answers name every file by its absolute path and SHA-256. No tool writes over an existing file.

DETERMINISM AND THE JOURNAL
- There is no wall clock and no randomness: the same requests made of the same machine give the same answers, byte for byte.
- journal lists what stood a machine up and changed it, in order, each request with the tick it began at and its arguments written in one normal form, with the build and the files by SHA-256. Making the same requests again, on the same build with the same files, makes a machine that stands as this one stands. Reads are not entered. Leave a finding as its journal, so that anyone can make it again.

ERRORS
- A refused request leaves the machine as it was. An argument of the wrong kind is refused with its name; a request missing arguments lists every argument the tool requires.
`

// notYetBuilt names what the spec describes and this build does not serve
// yet, each with what an agent meets instead. The instructions describe the
// whole product, as the spec does; this list keeps them honest about this
// build, and TestNotYetBuiltIsExactlyWhatIsMissing holds it to tools/list.
var notYetBuilt = []struct{ name, instead string }{}

// notYetBuiltArguments names the arguments the spec describes and this
// build's tools do not take yet; a request giving one is refused as an
// unknown argument.
var notYetBuiltArguments = []struct{ name, instead string }{}

// Instructions is what the server tells an agent before its first request:
// the spec's account of the tools, then what this build does not do yet.
var Instructions = instructionsFor(notYetBuilt, notYetBuiltArguments)

func instructionsFor(tools, arguments []struct{ name, instead string }) string {
	if len(tools) == 0 && len(arguments) == 0 {
		return instructionsSpec
	}
	var b strings.Builder
	b.WriteString(instructionsSpec)
	b.WriteString("\nNOT IN THIS BUILD YET\n")
	b.WriteString("The account above is of the whole product. This build does not yet serve the following; a request for one is refused as unknown.\n")
	for _, t := range tools {
		fmt.Fprintf(&b, "- %s: %s.\n", t.name, t.instead)
	}
	for _, a := range arguments {
		fmt.Fprintf(&b, "- %s: %s.\n", a.name, a.instead)
	}
	return b.String()
}
