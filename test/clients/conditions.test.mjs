// Real clients run one until and one gather in each era (spec, "Stopping
// and watching"): the TypeScript SDK's clients check each answer against
// run's output schema, so the answers' matches are held to it too.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { call, eras, needMachines, refused } from './lib.mjs';

for (const era of eras) {
  test(`${era.name}: until and gather`, async () => {
    needMachines();
    const { client } = await era.connect();
    try {
      const { handle } = (await call(client, 'machine_open', { machine: 'spectrum48' })).structuredContent;
      await call(client, 'run', { handle, frames: 100 });

      // until stops before the frame interrupt's entry, the machine
      // standing at it unrun; the run after runs it first.
      const stop = (await call(client, 'run', { handle, frames: 5, until: [{ kind: 'exec', address: '&0038' }] })).structuredContent;
      assert.equal(stop.stop, 'until');
      assert.equal(stop.until.address, '&0038');
      assert.equal(stop.until.kind, 'exec');
      const pc = (await call(client, 'inspect', { handle, path: 'cpu.pc' })).structuredContent.value;
      assert.equal(pc, 0x38);
      assert.equal((await call(client, 'inspect', { handle, path: 'cpu.tick' })).structuredContent.value, stop.until.tick);

      // gather lists the writes to FRAMES, the system variable the
      // interrupt counts up, with the instruction that made each.
      const gathered = (await call(client, 'run', {
        handle, frames: 3, gather: [{ kind: 'write', address: '&5C78', address_to: '&5C7A' }],
      })).structuredContent;
      assert.equal(gathered.stop, 'done');
      assert.ok(gathered.gathered.length >= 3, JSON.stringify(gathered));
      for (const m of gathered.gathered) {
        assert.equal(m.kind, 'write');
        assert.match(m.address, /^&5C7[89A]$/);
        assert.match(m.byte, /^&[0-9A-F]{2}$/);
        assert.match(m.pc, /^&[0-9A-F]{4}$/);
        assert.equal(typeof m.beam.x, 'number');
      }

      // A condition the Spectrum cannot meet is refused by name.
      const why = await refused(client, 'run', { handle, frames: 1, gather: [{ kind: 'psg' }] });
      assert.match(why, /gather\[0\]\.kind/);
    } finally {
      await client.close();
    }
  });
}
