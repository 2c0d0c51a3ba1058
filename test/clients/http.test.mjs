// Real clients over streamable HTTP: the MCP TypeScript SDK, from npm,
// drives the built colophon-mcp --http in both of the protocol's eras, on
// one endpoint (issue 15).
//
//   legacy: @modelcontextprotocol/sdk's client and StreamableHTTPClientTransport,
//           opening a session with initialize in 2025-11-25 or 2025-06-18;
//   modern: @modelcontextprotocol/client's, pinned to 2026-07-28, each
//           request alone.
//
// Each opens machines, types at them, holds monitor's PNG to the command
// line's screenshot and replays their journals; and a server restarted on
// its sessions file keeps a legacy client's session and tells a modern
// client, whose listen stream reconnects, that the tool list changed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import {
  call, checkServerInfo, connectLegacyHTTP, connectModernHTTP, refused, startHTTP, typeAtMachines,
} from './lib.mjs';

const sessionsFile = () => join(mkdtempSync(join(tmpdir(), 'colophon-http-')), 'sessions.json');

for (const asked of ['2025-11-25', '2025-06-18']) {
  test(`legacy era over HTTP: initialize in ${asked}`, async () => {
    const srv = await startHTTP({ sessions: sessionsFile() });
    const { client, rec, transport } = await connectLegacyHTTP(srv.url, asked);
    try {
      assert.equal(rec.resultOf('initialize').protocolVersion, asked);
      assert.ok(transport.sessionId, 'the server gave a session id');
      await client.listTools();
      checkServerInfo(rec.resultOf('tools/list'), 'tools/list');
      await typeAtMachines(client);
    } finally {
      await client.close();
      await srv.stop();
    }
  });
}

test('modern era over HTTP: pinned to 2026-07-28', async () => {
  const srv = await startHTTP({ sessions: sessionsFile() });
  const { client, rec } = await connectModernHTTP(srv.url);
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.ok(!rec.sent.some((m) => m.method === 'initialize'), 'the modern client sent initialize');
    checkServerInfo(rec.resultOf('server/discover'), 'server/discover');
    await typeAtMachines(client);
  } finally {
    await client.close();
    await srv.stop();
  }
});

// until resolves once check returns true, checking as each event comes;
// it fails after a minute, which a machine ten times slower still meets.
function until(what) {
  let resolve;
  const p = new Promise((r) => { resolve = r; });
  const timer = setTimeout(() => resolve(Promise.reject(new Error(`timed out waiting for ${what}`))), 60_000);
  p.finally(() => clearTimeout(timer)).catch(() => {});
  return { promise: p, done: () => resolve() };
}

test('a restart keeps the legacy session and the modern listen stream reconnects', async () => {
  const sessions = sessionsFile();
  const env = { COLOPHON_MCP_TEST_TRIGGER: '1' };
  let srv = await startHTTP({ sessions, env });
  const port = srv.port;

  let legacyChanged = until('the legacy client to be told the tool list changed');
  const legacy = await connectLegacyHTTP(srv.url, '2025-11-25');
  legacy.client.setNotificationHandler(ToolListChangedNotificationSchema, () => legacyChanged.done());
  let modernChanged = until('the modern client to be told the tool list changed');
  const modern = await connectModernHTTP(srv.url, {
    listChanged: { tools: { onChanged: () => modernChanged.done() } },
  });
  try {
    const opened = await call(legacy.client, 'machine_open', { machine: 'spectrum48' });
    const handle = opened.structuredContent.handle;
    const session = legacy.transport.sessionId;
    const subscription = modern.client.autoOpenedSubscription;
    assert.ok(subscription, 'the modern client listens for tool list changes');

    // Before the restart, a change reaches both.
    await call(modern.client, 'test_trigger_tool_change', {});
    await Promise.all([legacyChanged.promise, modernChanged.promise]);

    const stopped = await srv.stop();
    assert.equal(stopped.code, 0, 'the server exits cleanly on SIGTERM');
    assert.match(readFileSync(sessions, 'utf8'), new RegExp(session), 'the session is in the file');
    // The server ends the stream as it stops ('graceful'), or the stream
    // drops with it ('remote'); either way the client knows to listen again.
    assert.notEqual(await subscription.closed, 'local', 'the listen stream ended with the server');

    srv = await startHTTP({ port, sessions, env });

    // The legacy client goes on in its session, without a new initialize;
    // its machine is gone, and the server says why.
    const list = await call(legacy.client, 'machine_list', {});
    assert.deepEqual(list.structuredContent, { machines: [] });
    assert.equal(legacy.transport.sessionId, session);
    assert.equal(legacy.rec.sent.filter((m) => m.method === 'initialize').length, 1, 'one initialize, before the restart');
    assert.match(await refused(legacy.client, 'run', { handle, frames: 1 }), /the server restarted/);

    // The modern client listens again, and is told of the next change;
    // so is the legacy client, on its session's stream.
    legacyChanged = until('the legacy client to be told the tool list changed after the restart');
    modernChanged = until('the modern client to be told the tool list changed after the restart');
    await modern.client.listen({ toolsListChanged: true });
    await call(modern.client, 'test_trigger_tool_change', {});
    await modernChanged.promise;
    await legacyChanged.promise;
  } finally {
    await legacy.client.close();
    await modern.client.close();
    await srv.stop();
  }
});
