// xterm.js's headless parser on the same streams: node xterm-throughput.mjs DIR
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { Terminal } = require('@xterm/headless');

const dir = process.argv[2];
const chunk = 16 * 1024;

function run(data) {
  return new Promise((resolve) => {
    const term = new Terminal({ cols: 120, rows: 40, scrollback: 10000, allowProposedApi: true });
    const start = process.hrtime.bigint();
    for (let at = 0; at < data.length; at += chunk) {
      const part = data.subarray(at, Math.min(at + chunk, data.length));
      if (at + chunk >= data.length) {
        term.write(part, () => {
          const ns = Number(process.hrtime.bigint() - start);
          term.dispose();
          resolve(data.length / 1e6 / (ns / 1e9));
        });
      } else {
        term.write(part);
      }
    }
  });
}

for (const name of ['plain', 'sgr', 'unicode', 'region', 'ls', 'cat']) {
  const data = new Uint8Array(readFileSync(join(dir, `${name}.bin`)));
  // Best of two, as for ours.
  const a = await run(data);
  const b = await run(data);
  console.log(`${name} ${Math.max(a, b).toFixed(1)}`);
}
