package server

// The descriptions of the tools that give a machine its media and write
// them out (spec, "Discs and tapes"; internal/host/disc.go).

const discInsertDescription = `Puts a disc in a drive of a cpc664 or a cpc6128, at the machine's tick, from a DSK file: the file is read whole and a copy of it goes in, and nothing the machine does ever reaches the file.

Arguments:
- handle (required): the machine.
- path (required): the DSK file, of the original layout (MV - CPCEMU) or the extended one (EXTENDED CPC DSK), 16MB at most. Weak sectors, recorded as several copies, read a copy at a time; sectors of odd sizes read as recorded.
- drive: A or B; A if not given.
- write_protect: put the disc in with its write-protect tab set. The drive reports the tab to the disc controller, which then writes and formats nothing on it: AMSDOS says "Drive A: disc is write protected".
- sha256: the SHA-256 the file must have, as the journal names it; refused if the file holds anything else.

The disc in the drive before comes out, and what the machine wrote to it with it, unless a state kept while it was in is put back, which brings it back as it stood then. A disc has room to format every track it can hold once more: 42 tracks, or as many as its image has, up to 84, a track the image never had among them.

A drive whose motor turns reports a disc ready at the third index pulse after it goes in, 600 ms on (the disc turns at 300 rpm). AMSDOS leaves the motor turning for 5 seconds after it reads, so a disc put in meanwhile and asked for sooner is reported missing: run a little before asking, or ask again.

Refused, with the machine as it was, for a cpc464 or a spectrum48, which have no disc interface; for a drive other than A or B; for a file that cannot be reached, is not a regular file or is longer than 16MB; and for a file that is not a DSK image, saying what is wrong with it and where.

Answers {handle, drive, file, tick, write_protect}: file is {kind, path, sha256}, the path absolute; tick is the machine's tick as the disc went in.

Entered in the journal, with the file's absolute path and its SHA-256.`

const discSaveDescription = `Writes the disc in a drive to a new file, as it stands at the machine's tick, as the command line's --save-disc writes it: an extended DSK image (EXTENDED CPC DSK) naming colophon as its creator, with an Offset-Info block recording where each sector lies on its track. A save the machine has not finished is written as far as it has come.

Arguments:
- handle (required): the machine, a cpc664 or a cpc6128.
- path (required): the file to write. It is written only where no file is; a relative path is written from the server's working directory.
- drive: A or B; A if not given.

The image is this emulator's own writing of the disc, so a disc nothing wrote to may come out with another SHA-256 than the file it went in from: written answers whether the machine wrote to it since it went in.

Refused for a drive holding no disc, for a machine with no disc interface, and for a path where a file already is.

Answers {handle, drive, file, tick, written}: file is {kind, path, sha256}, the file written, its path absolute.

Writes a file and moves nothing; not entered in the journal.`
