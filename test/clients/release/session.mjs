// What the release's client tests share: a session in each era with a
// server started as a release starts it, which opens a spectrum48 and a
// cpc6128, types at each, and holds monitor's PNG to the command line's
// screenshot of the same typing, byte for byte.
//
// Beside lib.mjs's variables: the server is COLOPHON_MCP started with the
// arguments a test gives it, not with --roms COLOPHON_ROMS.

import assert from 'node:assert/strict';

import { call, checkServerInfo, eras, needMachines, picture, screenshotOf } from '../lib.mjs';

// The machines, the frames the command line waits before typing, in ticks
// (KEY-19), and what the spec's tests type (KEY-15).
const machines = [
  { name: 'spectrum48', ticks: 128 * 69888, text: 'p2+2\n', cli: 'p2+2\\n' },
  { name: 'cpc6128', ticks: 78 * 79872, text: 'PRINT 2+2\n', cli: 'PRINT 2+2\\n' },
];

// openTypeMonitor connects each era's client to a server started with
// args, and in each opens, types and looks. check is given each
// machine_open's answer.
export async function openTypeMonitor(args, check = () => {}) {
  needMachines();
  const shots = new Map(machines.map((m) => [m.name, screenshotOf(['boot', '--machine', m.name, '--type', m.cli])]));
  for (const era of eras) {
    const { client, rec } = await era.connect(args);
    try {
      for (const machine of machines) {
        const opened = await call(client, 'machine_open', { machine: machine.name });
        check(opened.structuredContent, `${era.name} ${machine.name}`);
        const handle = opened.structuredContent.handle;
        const run = await call(client, 'run', { handle, ticks: machine.ticks });
        assert.equal(run.structuredContent.stop, 'done');
        const typed = await call(client, 'type', { handle, text: machine.text });
        const shown = await picture(client, handle);
        assert.equal(shown.json.tick, typed.structuredContent.tick);
        assert.ok(shown.png.equals(shots.get(machine.name)),
          `${era.name}: ${machine.name}'s monitor is not the command line's screenshot of the same typing`);
        checkServerInfo(rec.resultOf('tools/call'), `${era.name} tools/call`);
        await call(client, 'machine_close', { handle });
      }
    } finally {
      await client.close();
    }
  }
}
