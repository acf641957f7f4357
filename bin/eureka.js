#!/usr/bin/env node
// The CLI is TypeScript; tsx compiles it on load so a fresh clone needs no build step.
import { register } from 'tsx/esm/api';

// The AWS SDK warns on Node 20 that its releases from January 2027 need Node 22. Our versions are
// pinned (package.json), so the warning is noise in a command's one-line errors.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

register();
await import('../local/cli.ts');
