package server

// The descriptions of the tools that keep a machine and put it back
// (spec, "Keeping a machine"; internal/host/state.go).

const stateKeepDescription = `Keeps a machine as it stands, in the server's memory, to put it back there later with state_restore, as often as you like: keep one before trying something you may want to undo, or to try one thing and then another from the same place.

Arguments:
- handle (required): the machine.

A state keeps everything the machine holds: the processor, even inside a chain of DD/FD prefixes where a run stopped unsettled (no snapshot has room for that); every chip, the video as it stands against the processor, and the memory map; all the RAM; the monitor's picture and where its beam stands; the keys held; the tape in the deck, where it has played to, and how far a CPC's reel has come up to speed; the tick; and the journal.

The server names the state: s1, s2 and on, in the order states are kept of this machine, never given twice, not even once a state is let go. A name belongs to its machine: state_restore, state_drop and compare take it with the machine's handle, and a state is put back into the machine it was kept of and no other. States last as long as their machine, or the server.

States are cheap: RAM and picture are kept in pages of 4K, and a page the machine holds as it held it when the state before was kept or put back, there or elsewhere, as a scrolled picture holds it, is shared rather than copied. A 6128 kept after each frame's run takes about 15K a state at BASIC's prompt and about 36K while its screen scrolls every frame; a Spectrum about 9K at BASIC's prompt. The first state kept of a machine shares nothing and takes more: about 45K for a Spectrum.

Answers {handle, state, tick, bytes, states}: the state's name, the tick it stands at, the bytes of the server's memory it takes of its own beyond the pages it shares, and every state the machine holds now, oldest first.

Keeping a state moves nothing and is not entered in the journal.`

const stateRestoreDescription = `Puts a machine back exactly as state_keep kept it, so that a run from there goes on as it went on from the moment kept, byte for byte: the same answers, the same machine.

Arguments:
- handle (required): the machine the state was kept of.
- state (required): the state, by the name state_keep answered: s1, s2 and on.

Restoring drops no state: the one put back stays, to come back to again, and so does every other, kept before it or after, each a branch to come back to.

The machine's journal becomes the state's: the way from the machine's opening to where it now stands, so that replaying it makes this machine again. The requests made since the state was kept leave the journal, and the restore itself is not entered.

Refused, with the machine as it was, for a state the machine does not hold, naming it: one never kept of this machine, or let go with state_drop.

Answers {handle, state, tick, journal, states}: the state put back, the machine's tick now (the state's), how many entries its journal holds now, and every state the machine holds, oldest first.`

const stateDropDescription = `Lets a state go, freeing the server's memory it alone held. The machine does not move.

Arguments:
- handle (required): the machine the state was kept of.
- state (required): the state, by the name state_keep answered: s1, s2 and on.

Its name names nothing from then on and is not given again; state_restore refuses it, saying it was let go. Other states are not touched, and pages they share with it stay theirs. Refused for a state the machine does not hold, naming it.

Answers {handle, state, states}: the state let go, and the states the machine still holds, oldest first.

Letting a state go is not entered in the journal.`
