package server

// The tools' descriptions: the reference an agent reads for each tool, and
// the only one it reads, so each says every argument, every unit and every
// limit. The numbers are the spec's (spec/colophon-mcp.txt) and the host's
// (internal/host), which the tests hold them to.

const machineOpenDescription = `Stands up a new machine, from power-on, from a snapshot or from a state file, and answers its handle, which every other tool takes to name it.

Arguments:
- machine (required): cpc464, cpc664, cpc6128 or spectrum48, wired as the colophon command line wires them:
  - cpc464: 64K of RAM, the 464's firmware (the OS as the lower ROM, BASIC as upper ROM 0), no disc interface.
  - cpc664: 64K of RAM, the 664's firmware, and the disc interface with AMSDOS as upper ROM 7.
  - cpc6128: 128K of RAM, the 6128's firmware, and the disc interface with AMSDOS as upper ROM 7.
  - spectrum48: the 16K 48K ROM below &4000 and 48K of RAM above it.
- crtc: a CPC's 6845 type, 0 to 4 as the CRTC Compendium numbers them (0 HD6845S/UM6845, 1 UM6845R, 2 MC6845, 3 AMS40489, 4 AMS40226); 0, the first CPCs' type, if not given. A Spectrum takes none. set cannot change it later.
- sixty_hz: true wires a CPC's 50/60 Hz link (PPI port B bit 4, fifty_hz in inspect) for 60 Hz, as a CPC sold where the mains is 60 Hz has it: the firmware reads the link as it starts and sets the 6845 for a 60 Hz frame (262 lines, 16768 microseconds). 50 Hz if not given or false. A Spectrum has no such link and takes none: given on one, even false, it is refused.
- snapshot: a snapshot file to stand the machine up from, loaded as the colophon command line's run loads it, once the firmware is fitted. spectrum48 takes a 48K .sna of exactly 49179 bytes; a CPC takes an SNA of version 1, 2 or 3 of at most 8MB (8388608 bytes). A 664's or 6128's disc controller is not read from the SNA but for the drives' motor: it stands as at power-on, specified as AMSDOS specifies it as the firmware starts (SPECIFY &A1 &03, non-DMA), so that AMSDOS reads a disc put in after. Anything but a regular file is refused unread. A relative path is read from the server's working directory.
- snapshot_sha256: the SHA-256 the snapshot must have, in hex; the open is refused if the file holds anything else. The journal gives it, so that a replay opens the same file.
- state: a state file state_save wrote, in this server or another, to stand the machine up exactly as the state kept it: processor, chips, RAM, picture, discs, tape, tick and journal. machine must name the machine it holds; crtc, sixty_hz and snapshot are not given with it, since the file carries its own. It opens only on the firmware the state was kept on, held to it by SHA-256: other firmware is refused, naming both hashes. Where this build wrote the file, the machine is written back field by field through set's checks, its discs held to the bounds of a disc this emulator laid out, its tape played again from its start to where its reader stood. Where another build wrote it, the file's fields are not read, since another build may give a name another meaning: the requests of its journal are made again, in order, on this build, each file they read held to its SHA-256, and a file a run wrote is written again elsewhere and taken away. A file over 128MB (134217728 bytes), or whose first line is over 32MB, is refused unread; so is a file cut short or altered, with what is wrong, and nothing is stood up.

The firmware is read now, from the server's firmware directory (its --roms): cpc464.rom, cpc664.rom or cpc6128.rom (32768 bytes: the OS then BASIC), amsdos.rom (16384 bytes) for the 664 and 6128, and spectrum48.rom (16384 bytes). A missing file is refused by name, and so is a file of any other size.

Answers {handle, machine, crtc, tick, files, state}:
- handle: m1, m2 and on, in the order machines are stood up; a handle is never given twice.
- crtc: a CPC's 6845 type.
- tick: 0, from power-on or a snapshot; a machine's tick counts processor T-states from power-on, or from its snapshot. From a state file, the state's tick.
- files: every file read to build the machine, firmware first and then the snapshot or the state file, and after a state file another build wrote the files its journal read, each as {kind, path, sha256}: kind is firmware, snapshot, state, disc or tape, path is absolute, sha256 is of what the file held.
- state: only for a state file: {build, by, tick, journal}: the build that wrote it; by, fields where this build wrote it and the machine stands exactly as the state kept it, or journal where another build wrote it and its journal was made again (compare the machine's tick with the state's to see that it came to the same place); the state's tick; and the entries of the state's journal.

The open is the first entry of the machine's journal. A machine from a state file carries the state's journal on instead, whose first entry is the machine_open that first stood it up, and journal names the files that journal was built from; the open itself is not entered. The firmware takes time to start before it reads the keyboard: run a CPC 78 standard frames and a Spectrum 128 (as ticks: 6230016 and 8945664) before typing, as the command line does.`

const machineListDescription = `Names every machine standing in this server, in the order machine_open stood them up, with the states kept of each.

Takes no arguments. Reads only: it moves no machine and is not entered in any journal. It answers at once, waiting for no machine: each is named as the last request to it that has ended left it, so a machine in the middle of a long run is listed as it stood before the run.

Answers {"machines": [...]}, empty when no machine stands. Each machine has:
- handle: the name machine_open gave it, which every other tool takes to name it.
- machine: what it was built as: cpc464, cpc664, cpc6128 or spectrum48.
- tick: its tick, as the last request to it that has ended left it, since it was stood up, counted from power-on, or from the snapshot it was opened from. A tick is one cycle of the processor's clock: 79872 to a CPC's standard frame, 69888 to a Spectrum's.
- states: the states kept of it with state_keep and not yet let go with state_drop, oldest first, each by the name state_restore takes.`

const machineCloseDescription = `Puts a machine away, once every request asked of it before this one is done. Its handle names nothing from then on, and requests asked of it after this one are refused.

Arguments:
- handle (required): the machine, as machine_open named it.

Answers {handle, machine, tick}: the machine put away, what it was built as, and the tick it stood at.`

const runDescription = `Runs a machine by frames or by ticks, optionally holding keys down the whole time, stopping at a condition, listing or counting what it watches for, and answers how far it ran and what it found.

Arguments:
- handle (required): the machine.
- frames: run until the monitor has retraced this many frames, 1 to 1500. A frame ends as the retrace sends the beam to the picture's top-left corner, so a run by frames that ran all its frames leaves a whole picture on the monitor. A CPC's frame is whatever its 6845 is programmed to make and may never come, so a CPC's run by frames stops after twice a standard frame's ticks (159744) for each frame asked, having retraced fewer.
- ticks: run this many ticks, 1 to the ticks of 1500 standard frames: 119808000 on a CPC (79872 a frame), 104832000 on a Spectrum (69888 a frame). This is how the colophon command line counts its frames, so to do what its --frames N does, run N times those ticks.
- keys: keys to hold down from the run's start to its end, on top of whatever the keyboard holds already; afterwards it holds what it held before. Each key is the name its keyboard prints on it, or on a CPC the firmware's key number (matrix line × 8 + bit, 0 to 79) as an integer. CPC names, after SOFT 968: the letters and digits, SPACE, RETURN, ENTER, SHIFT, CTRL, CAPS, TAB, ESC, DEL, CLR, COPY, f0 to f9 and f., ↑ → ↓ ← for the cursor keys, and the joystick's (UP) (DOWN) (LEFT) (RIGHT) (FIRE 1) (FIRE 2); (FIRE 2) is joystick 0's main button, though some games read (FIRE 1); £ is the key that types ^ alone and £ with SHIFT. Spectrum names, after its keycaps: the letters and digits, ENTER, SPACE, CAPS (CAPS SHIFT) and SYM (SYMBOL SHIFT), and £ for X, whose red legend it is. Names are taken in any case.
- clean: once the run is over, run on an instruction at a time to the first instruction boundary where the processor is outside every interrupt's response and handler, so that a call made next finds the machine as its main program leaves it (see call). A handler is counted from the response that pushed its return address until the processor comes back to that address with the stack pointer where it stood, nested handlers included; a handler entered before the machine was loaded from a snapshot is not known. The stretch runs at most a standard frame's ticks more, and its ticks, frames and instructions are part of the answer's.
` + conditionArgs + `Give frames or ticks, not both.

One request runs at most 1500 frames or the ticks of 1500 standard frames; a request past that is refused, naming the limit, and the machine does not move. To run longer, run again: the next run goes on exactly where this one ended.

The run ends between instructions, a few ticks past what was asked if the instruction standing there runs on. It stops sooner at the end of a HALT that leaves interrupts disabled (IFF1 clear), where the processor would wait for good; a run that begins there runs as asked.

` + conditionsDescription + `

Answers {handle, ticks, frames, tick, instructions, stop, until, gathered, count, ranges, file}:
- ticks: the ticks the run took; frames: the frames the monitor retraced in them; tick: the machine's tick since it was stood up; instructions: how many ran to their end.
- stop: done (it ran all it was asked), halted (it stopped at a HALT with interrupts disabled), unsettled (it ended inside a chain of DD/FD prefixes, which is no instruction until it is done), until (it stopped at a match of until), full (a gathering or a count filled), or cancelled (the client cancelled the request; the machine stands where it stopped, between instructions, and what was found so far is answered); with clean, handler where the processor was still inside a handler a standard frame's ticks after the run's end.
- until, gathered, count, ranges, file: what the conditions found, as Conditions says above.

A run longer than about a second sends progress notifications where the request carries a progress token, and a cancellation stops it between instructions. The run is entered in the machine's journal, with clean where it was given; a cancelled run as the ticks it ran.`

// conditionArgs are run's and call's arguments for stopping and watching.
const conditionArgs = `- until: conditions to stop at the first match of.
- gather: conditions whose matches to list, oldest first. The list fills at 128 matches (32 where any of its conditions captures), and the run stops then, between instructions, so that a run given the same conditions again gathers on where it stopped, nothing lost.
- gather_last: conditions whose last 128 matches (32 where any captures) to keep, running on as though nothing filled, so that a run stopped by until, or at its end, lists what led there. Give gather or gather_last, not both.
- count: conditions whose matches to count by place.
- count_by: how count counts: address (the default: each place once, a place in memory a byte of the RAM or of a ROM, so a CPC's lower ROM &0038 and RAM &0038 are two places and one RAM byte reached at two addresses one; a port by the whole of its address, in and out apart; a register by number), pc (each access under where the instruction that made it begins; an interrupt's response is no instruction and is not counted), or range (a count by address folded into runs of places that follow one another both at the addresses first reached and in the RAM or ROM behind them, an instruction covering the bytes it fetched, its first four at most). A count by address or pc fills at 256 places and stops as a full gathering does; the next run counts afresh. A count by range never fills.
- path: write what gather, gather_last and count find to a new JSON Lines file there instead (a relative path from the server's working directory): a line for each match, then each place or range, as the answer would list them, the matches first, then the lists in the answer's order. The file is made before the run only where nothing is, else the request is refused and nothing runs; it is written once the run is over. With a path a count never fills and a gathering fills at 1048576. A file that cannot be written whole is taken away and the request refused, saying how far the run went; the run stands, journaled without the file.
- path_sha256: the SHA-256 the file must hold, as the journal names it, for a replay; a file holding anything else is taken away and the request refused.
`

// conditionsDescription is what run and call take and answer for
// stopping and watching (spec, "Stopping and watching").
const conditionsDescription = `Conditions. Each list holds at most 16 conditions, each an object:
- kind (required): exec (an instruction about to begin at an address), read (a byte the program reads as data: an instruction's own bytes are never reads), write (a byte written), in or out (a port read or written), psg (a register of a CPC's AY-3-8912 written: the byte port A gives it, 0 to 15, no match while the chip is unselected, as from power-on until a register 0 to 15 is latched), crtc (a register of a CPC's 6845 written, where the chip takes it: R0 to R31 by the number its address register holds; selecting a register is no write, and in or out on port &BC00 with mask &4300 finds selects; an IN from &BCxx or &BDxx selects or writes too, with the top half of the port's address).
- address, address_to: exec, read and write: an address, or a range to address_to, included. Forms: &BB06, $BB06, #BB06, 0xBB06, decimal digits, or a number.
- port, mask (both required for in and out): a port matches where its address lines under mask are port's: on a CPC mask &4300 with port &BC00 or &BD00 for the 6845, &C000 with &7F00 for the Gate Array, &0B00 with &F400 to &F700 for the PPI, &2000 with &DF00 for the upper ROM number; on a Spectrum &0001 with &00FE for the ULA.
- register, register_to: psg (0 to 15) and crtc (0 to 31): a register or a range; every register if not given.
- from: exec and read: where the instruction or the byte must come from: ram or rom; on a CPC also lower (its firmware, over &0000-&3FFF while enabled), upper (any upper ROM, over &C000-&FFFF while enabled), or upper and a number (upper 0 is BASIC; a number with no ROM fitted is answered by ROM 0; upper 7 is AMSDOS). While a ROM is enabled reads come from it and writes go to the RAM beneath. A Spectrum's ROM is below &4000.
- value, value_to: read, write, out, psg and crtc: the byte must be value, or from value to value_to (forms as an address's, &80 to &BF). A register is tested by the byte given, whatever bits it keeps. Never on in: a port read's byte is not tested, since a CPC holds the read over several ticks and the processor takes the last.
- changes: write, psg and crtc: only where the write leaves the byte or the register (as it keeps it) holding other than it held; with value on memory, the write that makes the byte that. A write beneath a CPC's enabled ROM is judged by the RAM it lands in; a write to a Spectrum's ROM changes nothing.
- when: {address, bytes}: the bytes that must stand at address, as find takes them (pairs of hex digits, ?? for any byte, 8 at most), read as the processor reads them (through a CPC's banking and ROMs) as the match is made: before an instruction begins, or on the tick of an access, a write's own byte landed and the bytes the same instruction writes after it not yet. A word is written a byte at a time: LD (nn),HL writes L then H, PUSH the high byte first; so ask for a word on the byte written last, or give both bytes' addresses, which matches the write that completes the value and also a first write that, beside the other byte still standing, reads as the value.
- capture: until and gather: {cpu, memory}: cpu lists the processor's values by their inspect paths (cpu.a, cpu.sp, cpu.iff1, cpu.tick; 32 at most); memory lists spans {address, length 1 to 64, ram}, each read as peek reads it, address being an address or cpu.sp or cpu.pc for where the register points as the capture is taken (4 at most). An instruction about to begin captures the machine as it stands there; an access captures the machine as its instruction leaves it at its end (every access of one instruction alike), where a stop on it stands; where an interrupt is taken at that end, the capture is the machine as the response begins (the instruction's PC and stack, IFF1 clear, and IFF2 with it for INT), and a stop runs on through the response; an access the response makes captures the machine at the response's end.
An instruction that repeats, LDIR and its kin, begins again at its own address each time, so each repeat is a match. until stops before an instruction, which the machine then stands at unrun (a run that begins where a run stopped before an instruction runs it first), or at the end of the instruction that made an access, and the response to an interrupt taken there. A match lists: tick; kind; address, port or register; byte (an instruction's opcode, the byte read or written, the byte the processor took from a port, the byte a register was given); pc (where the instruction that made it begins) or response (true for an interrupt's response); on a CPC rom and ram (the memory of the instruction or byte: rom lower or upper N, ram the RAM's own address where a 6128's configuration pages it elsewhere), pc_rom and pc_ram (the same of the instruction that made an access); beam {x, y} (where the monitor's beam stood, as monitor answers it); captured {cpu, memory} where a condition captured. A gathering may list more than it fills at, by the rest of the instruction that filled it and of the response at its end.
Answered: until (the match until stopped at); gathered (the matches, oldest first); count {by, places, executes, reads, writes, ports, psg, crtc}: each place once with its count and its first match (tick, pc), an instruction with bytes, as it first ran, a port with kind in or out; ranges {ranges (how many), places, executes, reads, writes, ports, psg, crtc}: the first 256 ranges, each {address, port or register, last or last_register, rom, ram, places, count}; file {path, sha256, lines}: with a path, in place of gathered, count and ranges, lines counting each list's lines.`

const stepDescription = `Runs a machine by instructions: each to its end, prefixes and all, and through the response to an interrupt taken at its end, so a step can land in an interrupt's handler.

Arguments:
- handle (required): the machine.
- instructions (required): how many instructions to run, 1 to 100000. A request past 100000 is refused, and the machine does not move. Inside HALT each step is one of the processor's idle fetches.

It stops sooner at the end of a HALT that leaves interrupts disabled (IFF1 clear), where the processor would wait for good, unless the step began there.

Answers {handle, ticks, frames, tick, instructions, stop}, as run does: the ticks it took, the frames the monitor retraced in them, the machine's tick since it was stood up, the instructions run, and stop: done, halted, unsettled or cancelled.

A cancellation stops it between instructions, answering stop cancelled. The step is entered in the machine's journal, a cancelled step as the instructions it ran.`

const callDescription = `Calls a routine the machine holds, as its own CALL would, and answers once the routine has come back.

Arguments:
- handle (required): the machine.
- address (required): where the routine begins, &0000 to &FFFF, as &BB06, $BB06, #BB06, 0xBB06, decimal digits or a number. It is read where the processor reads it: beneath a CPC's enabled ROMs the call runs the ROM, not the RAM there.
- values: fields to write first, as set writes them and with set's checks, all or none: an object of inspect paths and values, such as {"cpu.a": 65, "cpu.h": "&C0", "cpu.l": 0}. The journal keeps them as given.
- ticks: the most ticks the call may take, 1 to the ticks of 1500 standard frames, which it may take if not given; the journal gives a cancelled call its ticks.
` + conditionArgs + `A stop at until, or where a gathering or a count fills, ends the call there, the routine's return address still on the stack.

` + conditionsDescription + `

The program counter is pushed where the stack pointer stands, high byte first, and the processor starts at address. The call ends when the processor comes back to the pushed address with the stack pointer where it was, as the routine's own RET leaves it, between instructions, the address having stood where it was pushed until then: a routine that resets the machine, as one at &0000 does, overwrites it as the firmware starts again, and a later return of the rebooted firmware's to the same place is not the routine's, so such a call runs to its limit, as does a routine that overwrites its own return address, even with the same one. The machine then stands where it stood, with whatever the routine left in the registers and memory. A processor halted on HALT before the call is halted there again after it.

Interrupts stay as they stand: their handlers run within the call only if IFF1 is set. After a run by frames the processor usually stands inside the frame interrupt's handler with IFF1 clear, so a routine called there runs with no interrupt at all unless it enables them itself.

Calling a CPC's firmware from there can corrupt the machine. The firmware keeps the Gate Array's port and its ROM and mode byte in the alternate BC, and its restarts reach them with EXX. Its interrupt entry (&0038, which jumps to &B941 in RAM) has exchanged the register sets with EXX already, so a firmware entry called from inside it goes through a restart (TXT OUTPUT at &BB5A is a LOW JUMP) that exchanges them back and writes the interrupted program's C to the port its BC names: the mode, the inks or the ROMs change, or the machine stops answering; and the restart's EI lets interrupts into the handler besides. To call the firmware, first run with clean, which stops outside every handler. Values written stay written after the call: a call into a program that runs on should set back what it changed (TXT OUTPUT keeps every register, so setting A back afterwards leaves the program as it was).

Refused, with the machine as it was (values and all): inside a chain of DD/FD prefixes (step 1 first); where the return address would be pushed under a ROM, where it would not read back (a CPC's enabled lower ROM at &0000-&3FFF or upper ROM at &C000-&FFFF, a Spectrum's ROM below &4000).

A call is held to the ticks of 1500 standard frames, as a run is. It stops sooner, and says so at once, where the routine ends a HALT with interrupts disabled: a routine that waits on HALT for the next frame, called with IFF1 clear, would wait for good.

Answers {handle, ticks, frames, tick, instructions, stop, until, gathered, count, ranges, file}, as run does; stop is done (the routine came back), halted (it stopped at a HALT with interrupts disabled, inside the routine), unsettled (inside a chain of prefixes as its ticks ran out), until or full (a condition stopped it, as it stops a run), cancelled (the client cancelled it) or limit (it had not come back within its ticks; the machine stands where the routine got to, the return address still on its stack).

The call is entered in the machine's journal, a cancelled call with the ticks it took.`

const inspectDescription = `Reads the machine's own struct, the emulator's cpc_t or spectrum_t, by the path a C expression gives a field of it.

Arguments:
- handle (required): the machine.
- path: the field, such as cpu.pc, crtc.registers[12] or gate_array.inks; a struct or an array reads whole, as an object or a list; the whole machine if not given.

Answers {handle, path, value}. Values are numbers in decimal (unsigned integers as they are held), bools, and an enum's value by its enumerator's name; structs are objects with their fields in the struct's order. Pointers are not followed: peek reads memory.

The fields a program works with most:
- cpu, the Z80, on both machines: a f b c d e h l, the alternates a_ f_ b_ c_ d_ e_ h_ l_, ix iy sp pc, wz (MEMPTR), i r, im (0 to 2), iff1 iff2, halted (inside HALT; pc stays on the HALT opcode), prefix (&DD or &FD inside a chain of prefixes, else 0), int (the /INT line), nmi (an NMI waiting), instr_pc (where the instruction under way began), ei, p, q, tick (the machine's tick).
- handlers, on both machines: depth, and frames[0] to frames[7], each {sp, ret}: the interrupt handlers the processor is inside, innermost last, as run's clean counts them; a state file keeps them, a snapshot does not.
- A CPC: crtc, the 6845: type (by name: HD6845S, UM6845R, MC6845, AMS40489, AMS40226), registers[0] to registers[17] (R0 to R17), selected (the address register, 0 to 31), and its counters c0 (character in the line), c4 (character row), c9 (line in the row), c3l and c3h (line and frame sync so far), c5 (line of vertical adjustment), ma (the address put out), hsync, vsync.
  gate_array, the Gate Array: pen (0 to 15, or 16 for the border), inks[0] to inks[16] (hardware colour codes; [16] is the border), mode (0 to 3 in force), mode_pending, lower_rom and upper_rom (enabled), r52 (the interrupt counter), int (its request).
  psg, the AY-3-8912: registers[0] to registers[15] (as SOFT 968 numbers them: 0-5 tone periods, 6 noise, 7 mixer, 8-10 volumes, 11-12 envelope period, 13 shape, 14-15 ports), selected, chip_selected.
  ppi, the 8255: output[0] to output[2] and input[0] to input[2] (ports A, B and C), control. fdc, the µPD765 and its drives: command and taken (a command's bytes so far), result, results and given (the result phase), phase, stage and due (what the execution phase waits for, and the tick), request, deadline and data (a byte asked for or offered, by when, and the data register), unit and hd (the drive and head the command chose), c, h, r, n, eot (the ID register), st0, st1, st2, count and length (the bytes of a sector transferred), pcn[0] to pcn[3], seeks[0] to seeks[3] (busy, pending), specify, at (the tick it has run to); and units[0] and units[1], drives A and B: head (the cylinder under the head), motor, angle (ticks since the index hole passed), pulses (index pulses since the disc went in or the motor started; ready at 3), write_protect, written. motor (the drives' motor line, &FA7E), printer_port. monitor: beam_x, beam_y, frames. keyboard.lines[0] to lines[9], the key matrix as the PSG reads it (a bit clear where a key is down). mmr (a 6128's RAM configuration in bits 0-2), upper_rom (the upper ROM number selected), model.
- A Spectrum: ula, the ULA: border (0 to 7), mic, ear, ear_in, keys[0] to keys[7] (the half-rows A8 to A15 select, a bit set where a key is down), frames. frame_tick: the tick of the frame the machine stands at, 0 to 69887, from the interrupt.
Most other fields are the chips' inner workings, the board's links, or the emulator's machinery for stepping the chips a tick at a time.

A path that names nothing is refused with the names nearest to it. Reads only: it moves no machine and is not entered in the journal.`

const setDescription = `Writes fields of the machine's own struct by the paths inspect reads them by: every value given, or none.

Arguments:
- handle (required): the machine.
- values (required): an object of paths and values, such as {"cpu.pc": "&4000", "gate_array.inks[16]": 20, "cpu.iff1": false}. A number is decimal; an unsigned integer also takes hexadecimal as a string after &, #, $ or 0x ("&4000"), and a string without one of those is refused rather than read as decimal. A bool takes true or false, an enum its enumerator's name or its number. A struct takes an object of some of its fields, and an array a list of all its elements. See inspect for the fields.

Refused, with the machine as it was, where a value does not fit its field's type (a byte holds 0 to 255), where a path names nothing, where a leaf is given twice, and where a value passes the type but not what the machine can hold, naming the range that would do: every field holds what its hardware holds, such as a Spectrum's ula.border 0 to 7, a CPC's RAM configuration, the Gate Array's pen (0 to 16), a 6845's registers the bits its type keeps, and the monitor's size. A CPC's 6845 type, in crtc.type or anywhere else, is fixed: only machine_open sets it. cpu.tick is read-only: only run, step, call and type move a machine.

After the write a CPC's memory map is worked out again from the RAM configuration, the ROM enables and the upper ROM number, and a Spectrum's ULA stands at the tick of the frame frame_tick names, from which its interrupt and its beam are reckoned. Keys written into a Spectrum's ula.keys or a CPC's keyboard stay held through runs and typing until written again.

Answers {handle, values}: each path given, in the order given, with the value it now reads. The set is entered in the machine's journal with the values as given.`

const peekDescription = `Reads a machine's memory as its processor would: through a CPC's banking and its enabled ROMs, or given ram, a CPC's RAM by the RAM's own addresses.

Arguments:
- handle (required): the machine.
- address (required): where to start: &BB06, $BB06, #BB06, 0xBB06, decimal digits or a number, &0000 to &FFFF (with ram, to the RAM's last address); or cpu.sp or cpu.pc for the address that register holds.
- length: how many bytes, 1 to 4096; 16 if not given.
- ram: read a CPC's RAM by its own addresses, whatever is paged in and whatever ROM is enabled over it: &00000 to &0FFFF, and on a 6128 &10000 to &1FFFF for its second 64K. A Spectrum takes none: its RAM has only the processor's addresses.
- rom: read one of a CPC's ROMs by name, whatever the Gate Array enables and without touching it: "lower", the firmware, at &0000-&3FFF, or an upper ROM's number, 0 to 255, at &C000-&FFFF (0 is BASIC, 7 AMSDOS on a 664 or 6128; a number with no ROM fitted is answered by ROM 0, as the machine answers it). The address must lie in that 16K, and the read stops at its end. Not with ram; a Spectrum takes none.

From an address given, nothing past &FFFF (or the RAM's end) is read, and the answer's length says how many bytes were. From cpu.sp or cpu.pc the read runs on past &FFFF to &0000, as the processor's own addresses do.

Answers {handle, address, length, bytes, rom, ram}:
- address: where the read began, after &; an address past &FFFF takes five digits.
- bytes: pairs of capital hex digits with a space between each: "3E 01 C9".
- rom: on a CPC, the ROM the first byte was read from: lower (the firmware, over &0000-&3FFF while enabled), or upper and its number (over &C000-&FFFF while enabled: upper 0 is BASIC, and a number with no ROM fitted is answered by ROM 0; upper 7 is AMSDOS on a 664 or 6128). Where it is given, the RAM beneath the ROM is hidden: a BASIC program from &0170, say, is read with ram.
- ram: on a CPC, the RAM's own address of the first byte, where a 6128's RAM configuration pages it in at another address.
A span that crosses the next 16K boundary may reach another memory, which the answer does not name.

Reads only: it moves no machine and is not entered in the journal.`

const pokeDescription = `Writes bytes into a machine's memory as its processor would, or given ram, into a CPC's RAM by the RAM's own addresses.

Arguments:
- handle (required): the machine.
- address (required): where the first byte goes: &BB06, $BB06, #BB06, 0xBB06, decimal digits or a number, &0000 to &FFFF (with ram, to the RAM's last address).
- bytes (required): the bytes, as pairs of hex digits, with spaces between pairs or none: "3E 01 C9".
- ram: write a CPC's RAM by its own addresses, &00000 to &0FFFF, and on a 6128 &10000 to &1FFFF, whatever the banking pages in. A Spectrum takes none.

A write beneath a CPC's enabled ROM lands in the RAM beneath it, which reads do not see while the ROM stays enabled. A write into a Spectrum's ROM, below &4000, changes nothing. A write that would run past &FFFF (or the RAM's end) is refused whole.

Answers {handle, address, length, written, rom, ram}: where the first byte went, how many bytes were given, how many landed in RAM, and on a CPC the ROM enabled over the first byte (lower, or upper and its number) or the RAM's own address of the first byte where the banking pages it in elsewhere.

The poke is entered in the machine's journal, its address after & and its bytes as capital pairs.`

const typeDescription = `Types text at a machine through its keyboard, key by key, as the colophon command line's --type does, and answers once the typing is done.

Arguments:
- handle (required): the machine.
- text (required): ASCII text, at most 250 characters on a CPC and 166 on a Spectrum (1500 frames' worth). A newline is RETURN on a CPC and ENTER on a Spectrum; on a CPC a tab, an escape (\u001b) and a backspace (\b) are TAB, ESC and DEL.
- ticks: stop typing after this many ticks, at the end of the instruction standing there, the keys typed let up: what the journal gives a typing cancelled part way, so that it is typed again as it was.

Each character's key goes down, with the shift it needs beside it, for 3 standard frames, then comes up for 3 frames on a CPC and 6 on a Spectrum, counted in ticks from where the typing began; a CPC's standard frame is 79872 ticks and a Spectrum's 69888. The keys go down and come up between instructions. Keys the keyboard holds already stay held. A text with a character no key types, alone or with a shift, is refused before any key goes down, and so is one past the length limit.

What a key means is the firmware's business: on a Spectrum a letter typed where the cursor shows K is a keyword, so "p2+2\n" prints 4 (p is PRINT, j is LOAD). Neither firmware takes a key before it has started: run a CPC 78 standard frames and a Spectrum 128 after opening it. A program that reads the keyboard's matrix itself sees a shift as one key more, so type lower case for it. A key that types no character, or a character outside ASCII such as £, is held through run instead: type's refusal of such a character names the keys to hold, as run takes them, SHIFT and £ on a CPC, SYM and £ on a Spectrum.

Typing takes all its ticks, halted or not. A cancellation stops it between instructions, the keys typed let up. Answers {handle, ticks, frames, tick, instructions, stop}, as run does; stop is done, unsettled or cancelled. The typing is entered in the machine's journal.`

const monitorDescription = `Shows the picture on a machine's monitor as a PNG, beside JSON saying which machine, at which tick, how large, where the beam stands, and whether the picture is whole.

Arguments:
- handle (required): the machine.
- text: also read the characters on the screen as lines of text, for an agent that reads text better than pictures, or wants certainty.

The picture is cut and drawn as the colophon command line writes its screenshots, byte for byte: a CPC's 768 by 544 pixels, one sample of the raster to each pixel across and each line drawn twice; a Spectrum's 352 by 264. The PNG is paletted: each pixel's index is what the machine put on the video cable, a CPC's hardware colour code (0 to 31) or a Spectrum's four bits of BRIGHT, G, R, B, and the palette gives the colour each stands for.

The beam paints the picture as the machine runs. After a run by frames that ran all its frames the picture is whole; after any other run, a step, a call or typing, the lines above the beam are this frame's and those below it the frame's before. A CPC frame that never ends (a 6845 programmed without a sync) leaves what earlier frames painted.

With text, the answer's text holds the screen's character rows, top first, read from screen memory as the video hardware reads it and matched against the matrices the firmware draws with now. A CPC's rows are the 6845's (25 at power-on), each of the current mode's cells, 20, 40 or 80 across in modes 0, 1 and 2, matched against the lower ROM's matrices and, after SYMBOL AFTER, the user-defined ones the firmware's own table pointer finds (TXT GET M TABLE's variables), so a character redefined with SYMBOL reads as itself. A Spectrum's are its 24 rows of 32 cells, matched against the set the system variable CHARS points at, its block graphics and the user-defined graphics UDG points at. Any two colours read, inverse video included: the colour that is not the screen's background is tried as the ink first, then the other. A cell of one colour reads as a space, or where it is not the background's as the character drawn all in ink (a CPC's 143: BASIC's cursor over a space reads \{143}). Each line has its trailing spaces left off; every row is there, so line n is row n. A cell is one character: printable ASCII as itself, but \\ for a backslash; £ and © where the machine's set has them (a Spectrum's 96 and 127, a CPC's 163 and 164); a Spectrum's user-defined graphics as \A to \U; any other character of the set as \{n}, its code in decimal; and ░ (U+2591) for a cell that draws no character: graphics, or three colours. Text drawn otherwise than by the firmware, in a font of a program's own, reads as ░. The picture stays the truth: a split screen or a mode changed partway down is read in the mode and screen the chips hold at the end.

Answers {handle, machine, tick, width, height, beam: {x, y}, whole, text} as JSON, then the PNG as image content. beam is in the picture's pixels; negative or past the size while the beam is in the blanking or the sync. whole is false when the beam stands partway through the picture.

Reads only: it moves no machine and is not entered in the journal.`

const journalDescription = `Lists what stood a machine up and changed it, in order, so that making the same requests again makes a machine that stands as this one stands.

Arguments:
- handle (required): the machine.
- start: the number of the first entry to answer, counting the machine_open that stood the machine up as 0; 0 if not given.

A journal is answered a page at a time: as many entries from start as 8192 characters of their JSON hold, and one at least. next, where present, is the start of the next page.

Answers {handle, machine, build, files, total, start, entries, next}:
- build: the build that runs the machine. The same requests make the same machine on the same build with the same files.
- files: the files the machine was built from, each {kind, path, sha256}, path absolute.
- total: how many entries the journal holds.
- entries: each {tick, tool, arguments}: the machine's tick as the request began, the tool, and its arguments in one normal form, without the handle. The first is the machine_open, with a CPC's 6845 type even where none was named, sixty_hz only where it is true, and a snapshot by its absolute path and its snapshot_sha256. Addresses are written after &, with five digits past &FFFF; bytes as capital pairs; paths absolute. Keys, text, and the values set and call write are kept as given.

Entered: machine_open, run, step, call, set, poke, type and disc_insert, a disc by its absolute path and its sha256. Not entered: reads (machine_list, inspect, peek, find, compare, disassemble, monitor, screen, journal), refused requests, which change nothing, discs written out (disc_save), and states kept or let go (state_keep, state_drop). state_restore is not entered either: it makes the journal the state's, so the journal is always the way from the machine's opening to where it stands.

To replay a journal, call each entry's tool with its arguments, adding the handle the replay's machine_open answers. Reads only.`
