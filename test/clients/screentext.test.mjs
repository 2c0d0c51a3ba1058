// Reading a screen as text through a real client, in both eras (issue 18):
// monitor with text answers the screen's character rows beside its
// picture, on a Spectrum and on a CPC, and a clean run lets a call of the
// CPC's firmware print on it.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { call, eras, needMachines, picture } from './lib.mjs';

// boot stands a machine up and runs it the frames the command line waits
// before typing, as ticks.
async function boot(client, machine) {
  const handle = (await call(client, 'machine_open', { machine })).structuredContent.handle;
  const ticks = machine === 'spectrum48' ? 128 * 69888 : 78 * 79872;
  await call(client, 'run', { handle, ticks });
  return handle;
}

// textOf reads the screen as text, holding monitor's answer to carrying
// the picture still.
async function textOf(client, handle) {
  const { json } = await picture(client, handle, { text: true });
  assert.ok(Array.isArray(json.text), `monitor with text answered ${JSON.stringify(json)}`);
  return json.text;
}

for (const era of eras) {
  test(`the screen as text, ${era.name}`, async () => {
    needMachines();
    const { client } = await era.connect();
    try {
      const s = await boot(client, 'spectrum48');
      await call(client, 'type', { handle: s, text: 'p2+2\n' });
      const spectrum = await textOf(client, s);
      assert.equal(spectrum.length, 24);
      assert.equal(spectrum[0], '4');
      assert.equal(spectrum[23], '0 OK, 0:1');

      const c = await boot(client, 'cpc6128');
      await call(client, 'type', { handle: c, text: 'MODE 2\nPRINT 2+2\n' });
      await call(client, 'run', { handle: c, frames: 5, clean: true });
      const cpc = await textOf(client, c);
      assert.equal(cpc.length, 25);
      const at = cpc.indexOf('PRINT 2+2');
      assert.ok(at >= 0, `no PRINT 2+2 on ${JSON.stringify(cpc)}`);
      assert.deepEqual(cpc.slice(at, at + 3), ['PRINT 2+2', ' 4', 'Ready']);

      // TXT OUTPUT, called after the clean run, prints A where the
      // cursor stands; A is set back after it.
      const a = (await call(client, 'inspect', { handle: c, path: 'cpu.a' })).structuredContent.value;
      await call(client, 'call', { handle: c, address: '&BB5A', values: { 'cpu.a': 65 } });
      await call(client, 'set', { handle: c, values: { 'cpu.a': a } });
      await call(client, 'run', { handle: c, frames: 2 });
      // BASIC's cursor, a cell all in ink, follows it.
      assert.equal((await textOf(client, c))[at + 3], 'A\\{143}');

      // Without text, no text.
      const { json } = await picture(client, c);
      assert.equal(json.text, undefined);
    } finally {
      await client.close();
    }
  });
}
