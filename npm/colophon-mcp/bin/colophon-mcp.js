#!/usr/bin/env node
// colophon-mcp, as npx -y colophon-mcp starts it: the server for this
// platform, given the firmware its package carries (checklist S-5).
'use strict';
require('../lib/launch.js').main('colophon-mcp', process.argv.slice(2), { roms: true });
