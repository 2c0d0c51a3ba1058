// Preloaded with node --require, this makes Node report the platform and
// processor in FAKE_PLATFORM and FAKE_ARCH, so that a test can run the
// launcher as it would run on a machine this one is not.
'use strict';
if (process.env.FAKE_PLATFORM) Object.defineProperty(process, 'platform', { value: process.env.FAKE_PLATFORM });
if (process.env.FAKE_ARCH) Object.defineProperty(process, 'arch', { value: process.env.FAKE_ARCH });
