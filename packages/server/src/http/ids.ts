// String record ids (docs/ORIGINAL-API.md §2.6): time-ordered 64-bit numbers as decimal text, like Snowflake.
import { randomInt } from 'node:crypto';

const EPOCH = 1_700_000_000_000n;
const node = BigInt(randomInt(0, 1024));
let lastMs = 0n;
let seq = 0n;

export function newId(): string {
  let ms = BigInt(Date.now());
  if (ms <= lastMs) {
    seq = (seq + 1n) & 0xfffn;
    if (seq === 0n) lastMs += 1n;
    ms = lastMs;
  } else {
    seq = 0n;
    lastMs = ms;
  }
  return (((ms - EPOCH) << 22n) | (node << 12n) | seq).toString();
}
