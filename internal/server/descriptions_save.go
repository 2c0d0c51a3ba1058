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
