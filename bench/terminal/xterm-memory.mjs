// xterm.js headless with the memory benchmark's bytes: node xterm-memory.mjs FILE COLS
// prints VmRSS/VmHWM (KiB) before and after, as bench-terminal-memory does for ours.
import { createRequire } from 'node:module';
import { openSync, readSync, readFileSync, closeSync } from 'node:fs';

const require = createRequire(import.meta.url);
const { Terminal } = require('@xterm/headless');

const [file, cols] = [process.argv[2], Number(process.argv[3])];
const chunk = 16 * 1024;

function status(field) {
  const line = readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(field));
  return line ? line.split(/\s+/)[1] : '0';
}

const term = new Terminal({ cols, rows: 40, scrollback: 100000, allowProposedApi: true });
const before = [Math.round(process.memoryUsage().rss / 1024), status('VmHWM:')];
// Read and written chunk by chunk, each write awaited: the stream itself is not measured.
const fd = openSync(file, 'r');
for (;;) {
  const buffer = new Uint8Array(chunk);
  const n = readSync(fd, buffer, 0, chunk, null);
  if (n === 0) break;
  await new Promise((resolve) => term.write(buffer.subarray(0, n), resolve));
}
closeSync(fd);
const lines = term.buffer.active.length - term.rows;
const after = [Math.round(process.memoryUsage().rss / 1024), status('VmHWM:')];
console.log(`${lines} ${before[0]} ${before[1]} ${after[0]} ${after[1]}`);
