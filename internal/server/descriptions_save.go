package server

// The descriptions of the tools that write a machine to a file (spec,
// "Saving a machine" and "Keeping a machine"; internal/host/save.go).

const snapshotSaveDescription = `Writes a machine to a new snapshot file, as it stands, in the format the colophon command line's --save writes and machine_open's snapshot reads: an SNA of version 1 for a CPC, a 48K .sna for a Spectrum. The bytes are the command line's for the same machine.

Arguments:
- handle (required): the machine.
- path (required): the file to write. It is written only where no file is; a relative path is written from the server's working directory.

A snapshot keeps less than the machine: the processor's registers, the chips' registers, the RAM and, on a Spectrum, the border; not where the video, the disc controller or the tape stand, nor the discs or the tape themselves. state_save keeps everything, for the build that wrote it.

A CPC's file is a header of 256 bytes and then all its RAM by the RAM's own addresses, 64K or a 6128's 128K. A Spectrum's is a header of 27 bytes and then its 48K from &4000, the program counter pushed onto the stack as the format keeps it, so that the two bytes below the stack pointer hold it in the file (the machine itself is not touched). At &5A a CPC's file holds the sound chip's selected register, 0 to 15, or where the chip is unselected (no register address 0 to 15 given since reset) that register plus 16, against the format's notes; machine_open reads a byte above 15 there as a chip unselected, with the register in its low four bits.

Refused, with nothing written, where the processor stands inside a chain of DD/FD prefixes, where a run stopped unsettled: step 1 carries it to the end of the instruction. A Spectrum whose stack pointer would put the program counter below &4000 is refused too. Refused for a path where a file already is.

Answers {handle, file, tick}: file is {kind, path, sha256}, the file written, its path absolute; tick is the machine's, at which the snapshot stands.

Writes a file and moves nothing; not entered in the journal.`

const stateSaveDescription = `Writes a state to a new file, which machine_open's state stands a machine up from, in this server or another, so that a machine outlasts the server that ran it and one worker begins where another left off.

Arguments:
- handle (required): the machine.
- state: the state to write, by the name state_keep answered (s1, s2 and on); the machine as it stands if not given.
- path (required): the file to write. It is written only where no file is; a relative path is written from the server's working directory.

The file keeps everything the state keeps, as state_keep says: the processor, even inside a chain of DD/FD prefixes; every chip, where the video and the disc controller stand against the processor; the account of the interrupt handlers run's clean follows; all the RAM; the monitor's picture; each disc as it has been written; the tape and where it has played to; the tick; the journal; and the files the machine was built from. Its first line is JSON: {format, build, machine, crtc, tick, files, journal, fields, buffers}, fields being every field inspect reads, by its path; the buffers it lists follow it byte for byte: the RAM (a Spectrum's whole 64K), the picture, each drive's disc as this emulator lays it out, and the tape's image.

Only this build opens the file field by field, on the same firmware; another build makes the machine again from the journal in it. A snapshot (snapshot_save) keeps less, but any build and other emulators read it.

Refused for a state the machine does not hold, naming the states it holds, and for a path where a file already is.

Answers {handle, state, file, tick, build, journal}: file is {kind, path, sha256}, the file written, its path absolute; tick is the state's; build is this server's, which opens the file field by field; journal is how many entries the file's journal holds.

Writes a file and moves nothing; not entered in the journal.`
