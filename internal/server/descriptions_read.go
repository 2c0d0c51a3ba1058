package server

// The reading tools' descriptions: disassemble, find, compare and screen.
// As with descriptions.go, each is the only reference an agent reads for
// its tool, so it says every argument, unit and limit. The numbers are the
// spec's ("Reading memory as instructions", "What a machine holds", "The
// picture") and the host's (internal/host/read.go), which the tests hold
// them to.

const disassembleDescription = `Lists a machine's memory as the instructions its processor would run, from an address on, each with its address, its bytes and its text: through a CPC's banking and enabled ROMs as peek reads it, or given ram, a 64K of a CPC's RAM by the RAM's own addresses.

Arguments:
- handle (required): the machine.
- address (required): where the first instruction begins: &BB06, $BB06, #BB06, 0xBB06, decimal digits or a number, &0000 to &FFFF; or cpu.pc or cpu.sp for the address that register holds. With ram, a RAM address: &00000 to &0FFFF in the base 64K, and on a 6128 &10000 to &1FFFF in its second; cpu.pc and cpu.sp, which are the processor's addresses, are refused there.
- count: how many instructions to list, 1 to 1000; 16 if not given. A firmware restart and its word count as one.
- ram: list a CPC's RAM by its own addresses, whatever the banking pages in and whatever ROM is enabled over it: the 64K the address is in, listed as the processor would list it alone with the ROMs disabled, in RAM configuration 0 for the base 64K and 2 for a 6128's second. The listing wraps within that 64K, from &0FFFF to &00000 or from &1FFFF to &10000, and names each instruction by its RAM address; the texts (a relative jump's target, a JP's or CALL's address, a firmware name) are the processor's, as that configuration pages the 64K in at &0000. A Spectrum takes none: its RAM has only the processor's addresses.
- rom: list one of a CPC's ROMs by name, whatever the Gate Array enables and without touching it: "lower", from &0000-&3FFF, or an upper ROM's number, 0 to 255, from &C000-&FFFF (0 is BASIC, 7 AMSDOS on a 664 or 6128; a number with no ROM fitted is answered by ROM 0). The address must lie in that 16K; the rest of memory, which the listing may run into and a restart's check reads, is read as with that ROM and the lower ROM enabled. Not with ram; a Spectrum takes none.

An instruction is what step runs: a chain of DD and FD prefixes is one instruction, ruled by its last prefix, its bytes the whole chain (DD FD 21 34 12 is LD IY,&1234), and a prefix that changes nothing joins the instruction after it (DD 00 is NOP). A chain of more than 16 prefixes, which the processor runs one prefix at a time for as long as it lasts, is listed in pieces as the processor meets them: 16 prefixes at a time as NONI (no operation, no interrupt), then the last of them with their instruction. The listing runs on past &FFFF to &0000, as the processor's addresses do, and holds 4096 bytes of instructions at most: only such chains reach that, and the listing then stops short of count, its next saying where it reads on.

The text: Zilog's mnemonics in capitals; numbers in hexadecimal after &, two digits for a byte and four for a word (LD A,&3E, JP &BB18); an index displacement with its sign (LD A,(IX-&05)); a relative jump's target worked out (JR NZ,&4010). Undocumented instructions are named as the colophon player's disassembler names them (SLL, the halves IXH, IXL, IYH, IYL, OUT (C),0 and the rest), and ED FF is BRK, as WinAPE names it.

On a CPC the listing follows the machine's own firmware: the cpc464's V1.0, the cpc664's V1.1, the cpc6128's V1.1 with KL BANK SWITCH.
- The restarts LOW JUMP (RST &08), SIDE CALL (RST &10), FAR CALL (RST &18) and FIRM JUMP (RST &28) take the two bytes after them as an address, as SOFT 968 lists them: such a restart is listed with its word, in word as DEFW &93FE, as one instruction of three bytes, and the listing reads on after the word. That holds while the first three bytes at the restart's address, in the memory listed, are the lower ROM's: the ROM itself, or the copy the firmware keeps in the RAM beneath it. A program's own restart there (one that pages the ROM off and writes its own) is listed alone.
- Such a restart also carries target, {address, in}: where it sends the processor, worked out from the word as SOFT 968 has each restart read it. LOW JUMP: the word's bits 13-0, in the lower ROM unless bit 14 disables it (then ram). SIDE CALL: &C000 plus bits 13-0, in upper +n, the nth ROM on from the foreground ROM making the call, n being bits 15-14. FAR CALL: the word is the address of a far address, which the listing reads (two bytes of address, then a ROM select): a select of &00 to &FB sends it to that upper ROM (in: upper and the number that answers it) with the lower ROM disabled; &FC to &FF keep the ROM selected (in: upper) and enable both ROMs, the upper alone, the lower alone, or neither. FIRM JUMP: the word itself, with the lower ROM enabled (in: lower below &4000, ram up to &BFFF, banked above, where the upper ROM is as it stands). So the main jumpblock's TXT OUTPUT, RST &08 : DEFW &93FE at &BB5A on a 6128, has target {&13FE, lower}.
- A JP, CALL, JR or DJNZ to an entry of the main jumpblock (from &BB00), the high kernel's (from &B900) or the indirections (from &BDCD) carries SOFT 968's name of the entry in name, such as KM WAIT KEY for CALL &BB18, where that machine's firmware has the entry: the cpc464 has none of the main jumpblock's from KM SET LOCKS (&BD3A) on, nor KL SCAN NEEDED or KM SCAN KEYS; the cpc664 has no KL BANK SWITCH (&BD5B). The name belongs to the address whatever the memory there holds, since a program patches an entry to take it over, as AMSDOS takes over the cassette's, and a call to the entry is a call to it still. An instruction that begins at such an entry carries its name in entry.

Answers {handle, address, rom, ram, instructions, next}:
- address: where the listing began, after &: where cpu.pc or cpu.sp pointed, if the request named one; five digits past &FFFF, in a 6128's second 64K with ram.
- rom, ram: on a CPC listed through its banking, the memory the first byte was read from, as peek names it: rom is lower, or upper and its number (upper 0 is BASIC, upper 7 AMSDOS), the ROM asked for with rom, or where the banking enables a ROM over the address, the ROM there, which hides the RAM beneath it (listed with ram); ram is the RAM's own address of the first byte where a 6128's RAM configuration pages it in at another address. A listing that crosses the next 16K boundary may run into another memory, which is not named.
- instructions: each {address, bytes, text, word, target, name, entry}: address after &, as the listing began; bytes as pairs of capital hex digits with a space between each ("CD 18 BB"), a restart's word among them; word, target, name and entry only where they apply.
- next: the address after the last instruction, to give as address to list on.

Reads only: it moves no machine and is not entered in the journal.`

const findDescription = `Searches a machine's memory for bytes or for text, and answers the addresses where they lie: through a CPC's banking and enabled ROMs as peek reads it, or given ram, a CPC's RAM by the RAM's own addresses.

Arguments:
- handle (required): the machine.
- bytes: the bytes to find, 1 to 256 of them, as pairs of hex digits in either case, with spaces between pairs or none, and ?? for a byte that may be anything: "CD 18 BB", "3E ?? C9". An address is held low byte first, so "18 BB" finds every CALL, JP and LD that names &BB18, and every table that holds it.
- text: ASCII text to find, 1 to 256 characters. Each character matches a byte on the byte's low seven bits, whatever its eighth, because both machines' ROMs end many of their words by setting the last character's bit 7 (the 48K ROM's keywords and messages, the CPC firmware's cassette messages); case counts.
Give bytes or text, not both.
- from: where to begin searching, in any form an address takes (&BB06, $BB06, #BB06, 0xBB06, decimal digits or a number): &0000 to &FFFF, or with ram to the RAM's last address. A previous answer's next, to search again for the rest. &0000 if not given.
- ram: search a CPC's RAM by its own addresses, &00000 to &0FFFF, and on a 6128 on through its second 64K, &10000 to &1FFFF, whatever the banking pages in and whatever ROM is enabled over it. A Spectrum takes none: its RAM has only the processor's addresses.
- rom: search one of a CPC's ROMs by name, whatever the Gate Array enables and without touching it: "lower", at &0000-&3FFF, or an upper ROM's number, 0 to 255, at &C000-&FFFF (0 is BASIC, 7 AMSDOS on a 664 or 6128; a number with no ROM fitted is answered by ROM 0). from is then in that 16K, its first address if not given, and each match's rom names the ROM. Not with ram; a Spectrum takes none.

Without ram the 64K the processor reads is searched, from from to &FFFF, and a match does not run on past &FFFF to &0000. Matches may overlap: "00 00" finds three places in four zeros.

Answers {handle, pattern, from, matches, total, next}:
- pattern: what was sought, written back: bytes as capital pairs with ??, text quoted.
- matches: where the pattern begins, lowest first, 256 at most, each {address, rom, ram}: address after &, five digits past &FFFF; on a CPC searched through its banking, rom names the ROM the match's first byte is in (lower, or upper and its number: upper 0 is BASIC, upper 7 AMSDOS), and ram the RAM's own address of that byte where a 6128's RAM configuration pages it in at another address.
- total: how many matches there are from from to the end of the memory searched, listed or not.
- next: where to search again, as from, for the matches not listed: the address after the last one listed; absent when every match is listed.

Reads only: it moves no machine and is not entered in the journal.`

const compareDescription = `Sets a CPC's RAM beside a state kept of it, or beside another CPC's RAM as that machine stands, byte by byte at the RAM's own addresses, and answers where they differ. A state kept before a run or a call, compared after it, gives the bytes the run or the call changed, which narrows the search for a program's variables to those. CPC only: a Spectrum's RAM has no addresses of its own, and compare refuses it.

Arguments:
- handle (required): the CPC.
- state: a state kept of this machine with state_keep and not dropped, by the name state_keep answered (s1, s2 and on); its RAM is compared.
- with: another CPC standing in this server, by its handle; its RAM is compared as it stands once every request asked of it before this one is done. A cpc464 or cpc664 may stand beside a cpc6128.
Give state or with, not both.
- from: the RAM address to begin comparing at, in any form an address takes (&BB06, $BB06, #BB06, 0xBB06, decimal digits or a number), &0000 to the end of the smaller RAM (&10000 or &20000, where nothing is left). A previous answer's next, to compare again for the rest. &0000 if not given.

The RAM is compared by its own addresses, whatever either side has paged in and whatever ROM is enabled over it: &00000 to &0FFFF, and on a 6128 &10000 to &1FFFF, its second 64K, in the order its blocks lie whatever RAM configuration stands. RAMs of different sizes, a 6128's 128K beside a 64K, are compared as far as the smaller reaches. A byte that holds the same value on both sides is no difference, even where a write put it there since.

Answers {handle, state, with, from, end, runs, total, next}:
- state or with: what the machine was compared against.
- from: where the comparison began. end: the address past the last byte compared, &10000 for 64K and &20000 for 128K.
- runs: each run of neighbouring bytes that differ, lowest first, {address, length, bytes, against}: the RAM address of its first byte after &, five digits past &FFFF; how many bytes it holds; this machine's bytes, and the state's or the other machine's at the same addresses, each as pairs of capital hex digits with a space between each. At most 256 runs and 2048 bytes in all; a run cut short by the 2048 goes on at next.
- total: how many bytes differ from from to end, listed or not.
- next: where to compare again, as from, for the bytes not listed: the first of them, which may be partway into a run; absent when every difference is listed.

Reads only: it moves neither machine and is not entered in any journal.`

const screenDescription = `Reads a CPC's memory as a picture, as the colophon player's screen panel does, and answers it as a PNG beside JSON that says what was read. Whatever is not given is read from the machine as it stands: the start, the width and the height from the 6845, and the mode in force and the sixteen pens' inks from the Gate Array, so that screen asked for nothing draws the memory the 6845 is displaying, at the scale monitor draws it. CPC only: monitor shows a Spectrum's picture.

Arguments:
- handle (required): the CPC.
- layout: how the bytes lie: video, as the CPC's video hardware reads them through the 6845's addresses; linear, a flat buffer, a line's bytes one after another and the lines one after another; or columns, down before across, a column of bytes from top to bottom and then the next, as sprite sheets, fonts and buffers built off the screen are often laid out. video if not given.
- base: the RAM address of the screen's first byte, in any form an address takes (&C000, #C000, 0xC000, decimal digits or a number). For linear and columns: &00000 to &0FFFF, and on a 6128 &10000 to &1FFFF, its second 64K; the first byte the 6845's screen reads if not given. For video: the first byte of a character row's first line, even and in the first 2K of its 16K (&0000-&07FE, &4000-&47FE, &8000-&87FE or &C000-&C7FE), as &C000 is the firmware's screen; it stands for the start address with MA11 and MA10 clear.
- start: video only: the 6845's start address, &0000 to &3FFF, as R12 (its bits 5-0 the high byte) and R13 hold it. MA13-MA12 choose the 16K, MA9-MA0 the word within its 2K; with MA11 and MA10 both set the screen carries on from one 16K into the next, a 32K screen. The 6845's own if neither start nor base is given. Give base or start, not both.
- width: bytes across a line, 1 to 512; for video, even, two bytes to each of the 6845's characters. R1 × 2 if not given.
- height: lines down, 1 to 4096. R6 × (R9 + 1) if not given. width × height is at most 131072 bytes, and a linear or columns screen must end within the RAM.
- lines: video only: the lines of a character row, 1 to 32; R9 + 1 if not given. The 6845 reads line l of a row from the 2K its low three bits choose.
- mode: the Gate Array's mode, 0 to 3; the mode in force if not given. A byte is 2 pixels of 16 pens in mode 0, 4 of 4 pens in mode 1, 8 of 2 pens in mode 2, and 2 of 4 pens in mode 3.
- inks: hardware colour codes, 0 to 31, for pens 0, 1 and on, at most 16; pens not given keep the Gate Array's inks. They colour the palette alone.

The RAM is read as the video hardware reads it, whatever ROM the processor sees over it: video reads the base 64K alone, as the Gate Array does; linear and columns may read a 6128's second 64K too.

The picture is drawn at the scale monitor draws: every byte 8 pixels wide in any mode (a mode 0 pixel 4 wide, mode 1 2, mode 2 1) and each line drawn twice, so it is width × 8 by height × 2 pixels. The PNG is paletted with 16 entries: each pixel's index is its pen, 0 to 15, not a colour, so a pen keeps its number whatever ink it has, and the palette gives each pen its ink's colour.

Answers {handle, layout, base, start, width, height, lines, mode, inks, png_width, png_height} as JSON, then the PNG as image content: the screen as read, every value given or read from the machine; base is the RAM address of its first byte; start and lines are given for video alone; inks are pens 0 to 15's hardware colour codes.

Reads only: it moves no machine and is not entered in the journal.`
