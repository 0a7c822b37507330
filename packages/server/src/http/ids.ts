// Ids, both time-ordered so that their indexes grow at one end (a B-tree page takes a batch's rows
// together instead of each row dirtying a page of its own):
//   - record ids (docs/ORIGINAL-API.md §2.6): 64-bit numbers as decimal text, like Snowflake;
//   - request ids, which on the gateway are the calls' trace ids: 32 hex digits.
import { randomFillSync, randomInt } from 'node:crypto';

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

const randomPool = Buffer.alloc(4000);
let randomAt = randomPool.length;
const timeBytes = Buffer.alloc(6);
let prefixMs = -1;
let prefix = '';

/**
 * A request's id: the time in milliseconds (12 hex digits) then 80 random bits (20), like a UUIDv7.
 * The call logs' unique (trace_id, attempt) index took each row on a random page with 128 random bits:
 * at 60 rows a batch that was 60 pages written to the WAL and checkpointed, about a third of a row's insert
 * (docs/BENCHMARKS.md, tenth pass). Hex of a pooled random buffer: `randomUUID()` cost ~4× as much.
 */
export function newTraceId(now = Date.now()): string {
  if (randomAt === randomPool.length) {
    randomFillSync(randomPool);
    randomAt = 0;
  }
  // The prefix changes once a millisecond (number.toString(16) cost ~0.6 µs an id).
  if (now !== prefixMs) {
    timeBytes.writeUIntBE(now, 0, 6);
    prefix = timeBytes.toString('hex');
    prefixMs = now;
  }
  const id = prefix + randomPool.toString('hex', randomAt, randomAt + 10);
  randomAt += 10;
  return id;
}
