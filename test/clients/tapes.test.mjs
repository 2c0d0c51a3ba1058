// Real clients load a tape: tape_insert puts a Spectrum's BASIC program,
// written here as the 48K ROM's SAVE writes one, in the deck as the
// machine is stood up; LOAD "" typed at it loads it and runs it from its
// autostart line, in both of the protocol's eras. The monitor then shows
// what the command line shows given the same tape with --tape, byte for
// byte, and the journal, naming the tape by its SHA-256, makes the same
// machine again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { allEntries, call, eras, needMachines, picture, refused, replay, screenshotOf, standsAs } from './lib.mjs';

// romBlock is a .tap block as SA-BYTES writes it: its length, the flag,
// the bytes, and the exclusive-or of them all.
function romBlock(flag, data) {
  const b = [flag, ...data];
  b.push(b.reduce((x, v) => x ^ v, 0));
  return [b.length & 0xff, b.length >> 8, ...b];
}

// number is a small whole number as a program line holds it: its digits,
// then &0E and its five-byte form.
function number(n) {
  return [...Buffer.from(String(n)), 0x0e, 0, 0, n & 0xff, n >> 8, 0];
}

// The program, 10 POKE 32768,123 (POKE is the token &F4), and its tape,
// saved as SAVE "colophon" LINE 10 saves it: a header, then the program.
const text = [0xf4, ...number(32768), 0x2c, ...number(123), 0x0d];
const program = [0, 10, text.length & 0xff, text.length >> 8, ...text];
const header = [0, ...Buffer.from('colophon  '), program.length, 0, 10, 0, program.length, 0];
const tap = Buffer.from([...romBlock(0x00, header), ...romBlock(0xff, program)]);

const dir = mkdtempSync(join(tmpdir(), 'colophon-tapes-'));
const tapePath = join(dir, 'poke.tap');
writeFileSync(tapePath, tap);
const frame = 69888;

for (const era of eras) {
  test(`${era.name}: tape_insert, then LOAD "" loads and runs the program`, async () => {
    needMachines();
    const { client } = await era.connect();
    try {
      const { handle } = (await call(client, 'machine_open', { machine: 'spectrum48' })).structuredContent;
      const inserted = (await call(client, 'tape_insert', { handle, path: tapePath })).structuredContent;
      assert.equal(inserted.file.path, tapePath);
      assert.equal(inserted.file.sha256, createHash('sha256').update(tap).digest('hex'));
      assert.equal(inserted.file.kind, 'tape');
      assert.equal(inserted.tick, 0);
      assert.equal(inserted.read_as, 'TAP');
      assert.equal(inserted.blocks, 2);

      await call(client, 'run', { handle, ticks: 128 * frame });
      await call(client, 'type', { handle, text: 'j""\n' });
      await call(client, 'run', { handle, ticks: 700 * frame });
      const poked = (await call(client, 'peek', { handle, address: 32768, length: 1 })).structuredContent;
      assert.equal(poked.bytes, '7B', 'the program, autostarted at line 10, pokes 123 into 32768');

      const shot = screenshotOf(['boot', '--machine', 'spectrum48', '--tape', tapePath, '--type', 'j""\\n', '--wait', '700']);
      assert.ok((await picture(client, handle)).png.equals(shot), 'the monitor shows what the command line shows');

      const entries = await allEntries(client, handle);
      const entry = entries.find((e) => e.tool === 'tape_insert');
      assert.deepEqual(entry.arguments, { path: tapePath, sha256: inserted.file.sha256 });
      const again = await replay(client, entries);
      await standsAs(client, handle, again, 'the journal replayed');

      const why = await refused(client, 'tape_insert', { handle, path: join(dir, 'game.cdt') });
      assert.match(why, /spectrum48 takes \.tzx or \.tap/);
    } finally {
      await client.close();
    }
  });
}
