// Responses kept for `store: true` (table stored_responses): saved before the answer's last bytes go
// out, so a client may chain on it at once; read only by the user whose key created them, and only
// within the system config's retention (log.response_reserve days), whatever the purge has reached.
import type { DB } from '../db/schema';
import { DAY_MS } from '../jobs/time-purge';
import type { InputItem, ResponseObject } from '../providers/openai/responses-wire';
import { tryParse } from '../providers/shape';
import { GatewayError } from './errors';

export interface StoredResponse {
  id: string;
  previousId: string;
  input: (InputItem & { id: string })[];
  response: ResponseObject;
}

/** What our ids look like (`resp_` + hex); anything else is no response of ours, and never reaches the
 *  database (PostgreSQL refuses a NUL in text outright). */
const RESPONSE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The longest previous_response_id chain followed: each hop is one indexed read. */
const MAX_CHAIN = 1000;

export async function saveResponse(db: DB, userId: number, stored: StoredResponse, now = Date.now()): Promise<void> {
  await db
    .insertInto('stored_responses')
    .values({ id: stored.id, user_id: userId, previous_id: stored.previousId, created_at: now, input: JSON.stringify(stored.input), response: JSON.stringify(stored.response) })
    .execute();
}

/** The stored response, if this user owns it and it is within retention; undefined otherwise (never says which). */
export async function loadResponse(db: DB, id: string, userId: number, reserveDays: number, now = Date.now()): Promise<StoredResponse | undefined> {
  if (!RESPONSE_ID.test(id)) return undefined;
  const row = await db.selectFrom('stored_responses').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row || (reserveDays > 0 && row.created_at < now - reserveDays * DAY_MS)) return undefined;
  const input = tryParse(row.input);
  const response = tryParse(row.response);
  if (!Array.isArray(input) || !response) return undefined;
  return { id: row.id, previousId: row.previous_id, input: input as StoredResponse['input'], response: response as ResponseObject };
}

export async function deleteResponse(db: DB, id: string, userId: number): Promise<boolean> {
  if (!RESPONSE_ID.test(id)) return false;
  const res = await db.deleteFrom('stored_responses').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export const responseNotFound = (id: string, param?: string) =>
  new GatewayError(param ? 400 : 404, param ? 'previous_response_not_found' : 'not_found', `${param ? 'Previous response' : 'Response'} with id '${id.slice(0, 64)}' not found.`, 'invalid_request_error', undefined, param);

/**
 * The conversation a previous_response_id continues: every earlier turn's input then output, oldest
 * first. Instructions are not carried over (as OpenAI does); a missing link anywhere is a 400.
 */
export async function conversationBefore(db: DB, previousId: string, userId: number, reserveDays: number): Promise<InputItem[]> {
  const turns: InputItem[][] = [];
  const seen = new Set<string>();
  for (let id = previousId; id; ) {
    if (seen.has(id) || seen.size >= MAX_CHAIN) throw new GatewayError(400, 'invalid_previous_response', `The conversation before '${previousId}' is too long to continue (more than ${MAX_CHAIN} responses).`, 'invalid_request_error', undefined, 'previous_response_id');
    seen.add(id);
    const stored = await loadResponse(db, id, userId, reserveDays);
    if (!stored) throw responseNotFound(id, 'previous_response_id');
    turns.push([...stored.input, ...(stored.response.output as InputItem[])]);
    id = stored.previousId;
  }
  return turns.reverse().flat();
}
