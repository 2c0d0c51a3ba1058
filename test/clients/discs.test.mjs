// Real clients put a disc in a CPC and catalogue it, in both eras: the
// shared romdump.dsk, catalogued as the command line catalogues it, picture
// for picture; and a blank disc a program is saved to, written out by
// disc_save byte for byte as the command line's --save-disc writes it
// (DT-3, DT-9, DT-12, DT-14, FILE-2, J-3).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { allEntries, call, colophon, eras, needMachines, picture, refused, roms, screenshotOf } from './lib.mjs';

const FRAME = 79872;

// The shared media sit beside the firmware: ../shared/roms and
// ../shared/testdata/media/cpc.
const romdump = () => join(dirname(roms), 'testdata', 'media', 'cpc', 'romdump.dsk');

// blankDATA is a blank disc in SOFT 968's DATA format, as the Go tests'
// dsktest.DATA writes it: 40 tracks of 9 sectors of 512 bytes, &C1 to &C9
// in the order C1 C6 C2 C7 C3 C8 C4 C9 C5, every byte &E5, in the
// original layout.
function blankDATA() {
  const tracks = 40;
  const size = 256 + 9 * 512;
  const out = Buffer.alloc(256 + tracks * size);
  out.write('MV - CPCEMU Disk-File\r\nDisk-Info\r\n', 0, 'latin1');
  out.write('dsktest', 0x22, 'latin1');
  out[0x30] = tracks;
  out[0x31] = 1;
  out.writeUInt16LE(size, 0x32);
  const order = [0xc1, 0xc6, 0xc2, 0xc7, 0xc3, 0xc8, 0xc4, 0xc9, 0xc5];
  for (let c = 0; c < tracks; c++) {
    const t = 256 + c * size;
    out.write('Track-Info\r\n', t, 'latin1');
    out[t + 0x10] = c;
    out[t + 0x14] = 2;
    out[t + 0x15] = 9;
    out[t + 0x16] = 0x4e;
    out[t + 0x17] = 0xe5;
    order.forEach((r, j) => {
      out[t + 0x18 + 8 * j] = c;
      out[t + 0x1a + 8 * j] = r;
      out[t + 0x1b + 8 * j] = 2;
    });
    out.fill(0xe5, t + 256, t + size);
  }
  return out;
}

const sha256 = (b) => createHash('sha256').update(b).digest('hex');

for (const era of eras) {
  test(`${era.name}: a disc put in and catalogued`, async () => {
    needMachines();
    const { client } = await era.connect();
    try {
      const handle = (await call(client, 'machine_open', { machine: 'cpc6128' })).structuredContent.handle;
      await call(client, 'run', { handle, ticks: 78 * FRAME });
      const inserted = (await call(client, 'disc_insert', { handle, path: romdump() })).structuredContent;
      assert.equal(inserted.drive, 'A');
      assert.equal(inserted.file.kind, 'disc');
      assert.equal(inserted.file.path, romdump());
      assert.equal(inserted.file.sha256, sha256(readFileSync(romdump())));
      assert.ok(inserted.tick >= 78 * FRAME, 'the disc went in before the run ended');
      await call(client, 'type', { handle, text: 'cat\n' });
      await call(client, 'run', { handle, ticks: 150 * FRAME });
      const shown = await picture(client, handle);
      const cli = screenshotOf(['boot', '--machine', 'cpc6128', '--disc', romdump(), '--type', 'cat\\n', '--wait', '150']);
      assert.ok(shown.png.equals(cli), 'the catalogue is not the command line\'s');

      const entries = await allEntries(client, handle);
      const entry = entries.find((e) => e.tool === 'disc_insert');
      assert.deepEqual(entry.arguments, { path: romdump(), sha256: inserted.file.sha256, drive: 'A' });

      const old = (await call(client, 'machine_open', { machine: 'cpc464' })).structuredContent.handle;
      assert.match(await refused(client, 'disc_insert', { handle: old, path: romdump() }), /cpc464 has no disc interface, and none can be fitted/);
    } finally {
      await client.close();
    }
  });

  test(`${era.name}: disc_save is --save-disc, byte for byte`, async () => {
    needMachines();
    const { client } = await era.connect();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'colophon-discs-'));
      const blank = join(dir, 'blank.dsk');
      writeFileSync(blank, blankDATA());
      const handle = (await call(client, 'machine_open', { machine: 'cpc6128' })).structuredContent.handle;
      await call(client, 'disc_insert', { handle, path: blank });
      await call(client, 'run', { handle, ticks: 78 * FRAME });
      await call(client, 'type', { handle, text: '10 PRINT "EXAMPLE"\nsave"example\n' });
      await call(client, 'run', { handle, ticks: 150 * FRAME });
      const saved = (await call(client, 'disc_save', { handle, path: join(dir, 'server.dsk') })).structuredContent;
      assert.equal(saved.written, true);
      const mine = join(dir, 'cli.dsk');
      execFileSync(colophon, ['boot', '--machine', 'cpc6128', '--roms', roms, '--disc', blank,
        '--type', '10 PRINT "EXAMPLE"\\nsave"example\\n', '--wait', '150', '--save-disc', mine]);
      const server = readFileSync(join(dir, 'server.dsk'));
      assert.ok(server.equals(readFileSync(mine)), 'disc_save wrote other bytes than --save-disc');
      assert.equal(saved.file.sha256, sha256(server));
      assert.ok(readFileSync(blank).equals(blankDATA()), 'the file the disc came from was written');
    } finally {
      await client.close();
    }
  });
}
