// The npm packages installed from their packed files into an empty prefix,
// and a client given npx -y colophon-mcp (checklist S-3, S-5, S-11; issue
// 17). internal/release's Go test installs them, writes the npm
// configuration that points npx at that prefix and keeps it off any
// registry, and sets COLOPHON_MCP to npx, and NPM_ROMS to the firmware the
// platform package holds, which the launcher must give the server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { openTypeMonitor } from './session.mjs';

test('npx -y colophon-mcp serves machines from the package\'s firmware', async () => {
  const roms = process.env.NPM_ROMS;
  assert.ok(roms, 'NPM_ROMS must name the platform package\'s roms/');
  await openTypeMonitor(['-y', 'colophon-mcp'], (opened, where) => {
    assert.ok(opened.files.length > 0, `${where}: machine_open names no files`);
    for (const f of opened.files) {
      assert.equal(path.dirname(f.path), roms, `${where}: firmware read from ${f.path}`);
    }
  });
});
