package server

// The description of tape_insert (spec, "Discs and tapes";
// internal/host/tape.go, internal/media/tape).

const tapeInsertDescription = `Puts a tape in a machine's cassette deck, rewound, in place of any tape there. The file is read whole and copied into the machine; nothing the machine does reaches the file.

Arguments:
- handle (required): the machine.
- path (required): the tape file, told by its name's ending: a .tzx on either machine, a .cdt on a CPC (a TZX by another name), a .tap on a Spectrum (bare blocks played at the Spectrum ROM's timings). At most 16MB. A relative path is read from the server's working directory.
- sha256: the SHA-256 the file must have, in hex, as the journal names it; the tape is refused if the file holds anything else.

Every block TZX revision 1.20 defines is played: standard and turbo data, pure tones, pulse sequences, pure data, direct and CSW recordings (RLE and Z-RLE), generalized data, pauses, groups, loops, calls and returns, jumps, select (played on to the block after it), stop-if-48K, set signal level, and the blocks that only describe the tape. Its timings, in T-states of 3.5 MHz, are turned into a CPC's 4 MHz ticks exactly, the fractions carried from pulse to pulse. A tape that turns in circles with no pulse, as a jump of 0 would, is played as ended there.

The deck first plays 5.7 s of leader tape, less whatever silence the image keeps before its first edge, so the first edge always comes 5.7 s after the tape starts to move.

- Spectrum: PLAY is pressed as the tape goes in, and the tape plays from that tick on, whatever the machine does, into the EAR socket (port &FE bit 6). A header's pilot lasts 5 s after the leader, so put the tape in just before LOAD "" (type j"" and ENTER). A pause of 0 and a stop-if-48K block stop the tape; set tape.playing to true to press PLAY again.
- CPC: the tape moves only while the firmware runs the cassette motor (PPI port C bit 4), the reel following the motor 50 ms late, from rest as the tape goes in; its data is read on PPI port B bit 7. So a tape may go in any time before RUN" asks for it; the firmware asks for PLAY and a key (hold or type one) before it starts the motor. A cpc664 or cpc6128 reads tape once |TAPE has turned the firmware's cassette routines back to the cassette. The blocks that stop a Spectrum's tape are passed over.

inspect reads the deck at tape: tape.reader (where the tape has played to: block_at, phase, pulses and the rest), tape.playing, tape.level (the level at the head), tape.ticks_left, and on a CPC tape.motor, tape.reel (how far the reel has come up to speed, in ticks up to 200000) and tape.turning. state_keep keeps the tape where it has played to, and state_restore puts that tape back, though another has gone in since.

Refused, with the machine as it was, for a file of the wrong kind for the machine, one that cannot be reached or is no regular file, one past 16MB, one whose hash is not sha256, and a malformed image, naming the block, where it stands in the file and what is wrong.

Answers {handle, file, tick, read_as, blocks}: the file by its absolute path and SHA-256, the machine's tick at which the tape went in, how it was read (TZX or TAP), and the blocks it holds. Entered in the journal with the file's absolute path and SHA-256.`
