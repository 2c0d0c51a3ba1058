// Real clients save a machine in one server and open it in another, in
// both of the protocol's eras (spec, "Saving a machine" and "Keeping a
// machine"). A 6128 and a Spectrum are typed at and kept; each runs on
// the program it was given; the state kept is written with state_save,
// and the server is stopped. A second server, a new process, opens the
// file: the machine stands at the state's tick, field by field, and run on
// as the first ran on it comes to the same memory and the same picture,
// byte for byte. snapshot_save's file opens as a snapshot in the second
// server too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { call, eras, needMachines, picture, refused } from './lib.mjs';

const machines = [
  { name: 'spectrum48', boot: 128 * 69888, program: '10 PRINT 6*7\n', run: 'r\n', frames: 40 },
  { name: 'cpc6128', boot: 78 * 79872, program: '10 PRINT 6*7\n', run: 'RUN\n', frames: 40 },
];

// memoryOf reads all 64K of a machine as the processor reads it.
async function memoryOf(client, handle) {
  let all = '';
  for (let address = 0; address < 0x10000; address += 4096) {
    all += (await call(client, 'peek', { handle, address, length: 4096 })).structuredContent.bytes + '\n';
  }
  return all;
}

for (const era of eras) {
  test(`${era.name}: state_save in one server, machine_open of the file in another`, async () => {
    needMachines();
    const dir = mkdtempSync(join(tmpdir(), 'colophon-saving-'));
    const saved = [];
    const first = (await era.connect()).client;
    try {
      for (const m of machines) {
        const { handle } = (await call(first, 'machine_open', { machine: m.name })).structuredContent;
        await call(first, 'run', { handle, ticks: m.boot });
        await call(first, 'type', { handle, text: m.program });
        const kept = (await call(first, 'state_keep', { handle })).structuredContent;
        await call(first, 'type', { handle, text: m.run });
        await call(first, 'run', { handle, frames: m.frames });
        const end = { memory: await memoryOf(first, handle), png: (await picture(first, handle)).png };

        const path = join(dir, `${m.name}.state`);
        const state = (await call(first, 'state_save', { handle, state: kept.state, path })).structuredContent;
        assert.equal(state.file.path, path);
        assert.equal(state.file.kind, 'state');
        assert.equal(state.file.sha256, createHash('sha256').update(readFileSync(path)).digest('hex'));
        assert.equal(state.tick, kept.tick);
        const why = await refused(first, 'state_save', { handle, state: kept.state, path });
        assert.match(why, /a file is already there/);

        const snapPath = join(dir, `${m.name}.sna`);
        const snap = (await call(first, 'snapshot_save', { handle, path: snapPath })).structuredContent;
        assert.equal(snap.file.sha256, createHash('sha256').update(readFileSync(snapPath)).digest('hex'));
        saved.push({ m, path, kept, end, snapPath, memory: await memoryOf(first, handle) });
      }
    } finally {
      await first.close();
    }

    const second = (await era.connect()).client;
    try {
      for (const s of saved) {
        const opened = (await call(second, 'machine_open', { machine: s.m.name, state: s.path })).structuredContent;
        assert.equal(opened.tick, s.kept.tick, `${s.m.name}: the state's tick`);
        assert.equal(opened.state.by, 'fields', `${s.m.name}: the same build stands it up field by field`);
        assert.equal(opened.files.at(-1).path, s.path);
        assert.equal(opened.files.at(-1).kind, 'state');
        const handle = opened.handle;
        await call(second, 'type', { handle, text: s.m.run });
        await call(second, 'run', { handle, frames: s.m.frames });
        assert.equal(await memoryOf(second, handle), s.end.memory, `${s.m.name}: run on, the memory`);
        assert.ok((await picture(second, handle)).png.equals(s.end.png), `${s.m.name}: run on, the picture`);

        const fromSnap = (await call(second, 'machine_open', { machine: s.m.name, snapshot: s.snapPath })).structuredContent;
        const memory = await memoryOf(second, fromSnap.handle);
        if (s.m.name !== 'spectrum48') {
          // A Spectrum's snapshot pushes the program counter below its
          // stack pointer; a CPC's keeps the memory as it stood.
          assert.equal(memory, s.memory, `${s.m.name}: the snapshot's memory`);
        }
      }
    } finally {
      await second.close();
    }
  });
}
