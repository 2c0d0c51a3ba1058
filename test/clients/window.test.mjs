// Real clients through colophon-mcp proxy to a window (issue 16): the MCP
// TypeScript SDK's clients of both eras, connected over stdio to the proxy,
// find the window's tools once it runs, see only the watching ones until
// dev mode is on, then turn it on and drive the window's machine, typing
// PRINT 2+2 at the 6128 running in real time and reading the 4; and are told
// the tool list changed when the window is killed, after which each call is
// refused saying no window runs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { call, connectLegacy, connectModern, needMachines, refused, server, serverArgs } from './lib.mjs';

const NO_WINDOW = 'no window is running; start one with colophon-mcp window';

// startWindow starts colophon-mcp window on a free port, and resolves to
// its port and a function that kills it with SIGKILL, once it says where it
// serves.
function startWindow(machine) {
  const sessions = join(mkdtempSync(join(tmpdir(), 'colophon-window-')), 'sessions.json');
  const child = spawn(server, ['window', '--machine', machine, '--no-browser', '--http-port', '0', '--sessions', sessions, ...serverArgs()], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let said = '';
    child.stderr.on('data', (chunk) => {
      said += chunk;
      const m = said.match(/at http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) {
        child.stderr.removeAllListeners('data');
        child.stderr.resume();
        resolve({ port: Number(m[1]), kill: async () => { child.kill('SIGKILL'); return exited; } });
      }
    });
    exited.then(({ code, signal }) => reject(new Error(`the window ended (${code ?? signal}) before it served: ${said}`)));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// until calls f until it answers something true, for at most ms. The
// window's machine runs in real time, and on a loaded machine real time
// falls behind: the margin is wide because a pass costs only as long as
// the event takes.
async function until(what, f, ms = 180000, saw = () => '') {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms}ms; last saw ${saw()}`);
    await sleep(100);
  }
}

async function names(client) {
  return (await client.listTools()).tools.map((t) => t.name).sort();
}

// Each era's client, connected to the proxy, counting the times it is
// told the tool list changed: the legacy one by its notification, the
// modern one on the subscriptions/listen stream it opens.
const eras = [
  {
    name: 'legacy 2025-11-25',
    connect: async (args, changed) => {
      const { client } = await connectLegacy('2025-11-25', args);
      client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
      return client;
    },
  },
  {
    name: 'modern 2026-07-28',
    connect: async (args, changed) =>
      (await connectModern(args, { listChanged: { tools: { onChanged: changed } } })).client,
  },
];

for (const era of eras) {
  test(`${era.name} through the proxy to a window`, async () => {
    needMachines();
    const window = await startWindow('cpc6128');
    let changes = 0;
    let client;
    try {
      client = await era.connect(['proxy', '--window-port', String(window.port)], () => { changes++; });
      // The proxy finds the window.
      await until('the window reached through the proxy', async () => {
        const r = await client.callTool({ name: 'machine_list', arguments: {} });
        return !r.isError && r.structuredContent.machines.length === 1;
      });
      let listed = await names(client);
      assert.ok(listed.includes('dev_mode') && listed.includes('monitor'), `listed ${listed}`);
      assert.ok(!listed.includes('type'), 'type is listed with dev mode off');
      const off = await refused(client, 'type', { handle: 'm1', text: 'x' });
      assert.match(off, /dev mode is off/);

      const before = changes;
      await call(client, 'dev_mode', { on: true });
      await until('told the tool list changed', async () => changes > before);
      listed = await names(client);
      assert.ok(listed.includes('type') && listed.includes('run'), `dev mode on lists ${listed}`);

      // The 6128 has been running in real time since the window opened.
      await until('the 6128 ready', async () => {
        const r = await call(client, 'monitor', { handle: 'm1', text: true });
        return r.structuredContent.text.some((l) => l.trim() === 'Ready');
      });
      // BASIC shows Ready a frame before it reads the keyboard: a key
      // typed in the frame Ready first shows is lost, on the machine as on
      // a CPC (typing at frame 42 of a 6128's start reads RINT 2+2, at 43
      // PRINT 2+2). The page's machine runs on in real time, so wait for
      // a few frames of its ticks before typing.
      const tick = async () => (await call(client, 'inspect', { handle: 'm1', path: 'cpu.tick' })).structuredContent.value;
      const readyAt = await tick();
      await until('five frames past Ready', async () => (await tick()) >= readyAt + 5 * 79872);
      await call(client, 'type', { handle: 'm1', text: 'PRINT 2+2\n' });
      let screen = '';
      await until('4 on the screen', async () => {
        const r = await call(client, 'monitor', { handle: 'm1', text: true });
        screen = r.structuredContent.text.map((l) => l.trim()).join('|');
        return screen.includes('PRINT 2+2|4|Ready');
      }, undefined, () => screen);

      // The window is killed.
      const killedAt = changes;
      await window.kill();
      await until('told the window went', async () => changes > killedAt, 60000);
      assert.equal(await refused(client, 'machine_list', {}), NO_WINDOW);
      listed = await names(client);
      assert.ok(!listed.includes('dev_mode') && listed.includes('monitor'), `with no window, listed ${listed}`);
    } finally {
      await client?.close();
      await window.kill();
    }
  });
}
