// Calls refused after their key was recognised (the model unknown or not allowed, a rate limit, a quota)
// go to the call log as failed with the reason the client got, so the chat log and the dashboard's
// abnormal count show them. They cost nothing: the row carries no price and moves no balance.
// A key holder could send refusals as fast as the network allows: refusal-throttle.ts bounds the rows.
import { LogStatus } from '@fastgate/core/entities/call-log';
import type { Caller } from './admit';
import { callLog } from './call-log';
import type { GatewayError } from './errors';
import type { Gateway } from './gateway';
import { ENDPOINT_TYPES, type Endpoint, type Resolution } from './resolve';

/** The statistics tables keep a model name in 64 characters (varchar(64)); a refusal's name is the client's. */
const MODEL_NAME_MAX = 64;

/** What is known of a refused call: who called and, when the model was found, what it resolved to. */
export interface Refused {
  traceId: string;
  reqTime: number;
  started: number;
  caller: Caller;
  resolution: Resolution | undefined;
}

/** How the call was made: the path and the model as asked, streamed or not, and the endpoint kind. */
export interface RefusedSpec {
  path: string;
  requested: string;
  stream: boolean;
  endpoint: Endpoint;
}

/** Logs a refusal (within the throttle) as one failed, unpriced row, written with the ledger's next batch. */
export function logRefusal(gw: Gateway, refused: Refused, spec: RefusedSpec, error: GatewayError): void {
  const { caller, resolution } = refused;
  const dropped = gw.refusals.take(caller.appKey.id, error.code, refused.reqTime);
  if (dropped === undefined) return;
  const more = dropped > 0 ? ` (and ${dropped} more refused alike since the last row, not logged one by one)` : '';
  const plan = {
    traceId: refused.traceId,
    endpoint: spec.path,
    reqTime: refused.reqTime,
    started: refused.started,
    caller,
    resolution,
    // The endpoint's first model type puts an unknown model's row on the log screen of that endpoint.
    modelType: resolution ? resolution.model.type : ENDPOINT_TYPES[spec.endpoint][0],
    requested: spec.requested.slice(0, MODEL_NAME_MAX),
    stream: spec.stream,
    messages: undefined,
    prompt: '',
  };
  gw.ledger.log([callLog(gw.snapshot, plan, 0, { status: LogStatus.Failed, errMsg: `${error.code}: ${error.message}${more}` })]);
}
