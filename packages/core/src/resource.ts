// A resource definition: one entity's fields declared once. Its zod input schema is the source; the
// definition adds how each field is stored (the column codec), the defaults, the stored row's type
// and the API prefix. The console's CRUD, the wire mappers, the gateway snapshot and the web forms all
// read the same definition, so a new plain field is one line here (plus its migration and form item).
import { z } from 'zod';

/** How one field is kept in a column: SQLite has no booleans and neither database keeps our JSON natively. */
export interface Codec<W, S> {
  readonly encode: (value: W) => S;
  readonly decode: (stored: S) => W;
}

/** boolean ⇄ 0/1. */
export const flag: Codec<boolean, number> = { encode: (b) => (b ? 1 : 0), decode: (n) => n === 1 };

/** Parsed JSON text, or `fallback` for empty or unreadable text (rows written by hand or by older versions). */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A JSON value ⇄ text; `fallback` builds the value an absent or unreadable column decodes to. */
export function json<T>(fallback: () => T): Codec<T, string> {
  return { encode: (v) => JSON.stringify(v ?? fallback()), decode: (s) => parseJson(s, fallback()) };
}

/** A JSON array of ids ⇄ text; anything but strings is dropped on the way out. */
export const ids: Codec<string[], string> = {
  encode: (v) => JSON.stringify(v ?? []),
  decode: (s) => {
    const v = parseJson<unknown>(s, []);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  },
};

type AnyCodec = Codec<any, any>;  

/** Numbers and strings as a database column holds them: it cannot enforce a literal union. */
type Widen<T> = T extends number ? number : T extends string ? string : T;

export interface ResourceOptions<S extends z.ZodRawShape, C extends { [K in keyof S]?: AnyCodec }, V extends keyof S> {
  /** The console API prefix, e.g. `/model`. */
  prefix: string;
  /** The fields a create takes; an update takes them with `id`. */
  fields: z.ZodObject<S>;
  /** Fields not stored as-is (booleans, JSON). */
  columns: C;
  /** Input fields that are not columns of this table (links kept on the other side, blocks packed elsewhere). */
  virtual?: readonly V[];
}

/** The columns of a resource's table that its fields define (the record columns id/status/times are the table's). */
export type StoredColumns<R> =
  R extends Resource<infer S, infer C, infer V>
    ? { [K in Exclude<keyof S, V> & string]: K extends keyof C ? (C[K] extends Codec<any, infer St> ? St : never) : Widen<z.output<S[K]>> }  
    : never;

/** The fields that have a default (their input may be absent, their output may not), with their values. */
type Defaults<S extends z.ZodRawShape> = {
  [K in keyof S as undefined extends z.input<S[K]> ? (undefined extends z.output<S[K]> ? never : K) : never]: z.output<S[K]>;
};

/** What a resource's fields decode to: the input as the wire returns it. */
export type Fields<R> = R extends Resource<infer S, infer _C, infer _V> ? z.output<z.ZodObject<S>> : never;

export interface Resource<S extends z.ZodRawShape, C extends { [K in keyof S]?: AnyCodec }, V extends keyof S> {
  readonly prefix: string;
  readonly fields: z.ZodObject<S>;
  readonly columns: C;
  /** The stored field names, in declaration order. */
  readonly stored: readonly (Exclude<keyof S, V> & string)[];
  /** Every field that has a default, with it (a new record's form starts here). */
  defaults(): Defaults<S>;
  /** Only the declared fields of `values` (a wire record also carries names and times). */
  pick<T extends object>(values: T): Pick<T, Extract<keyof T, keyof S>>;
  /**
   * Column values of a whole input (a create or an update replaces every field): codecs applied, an
   * absent coded field stored as its codec's fallback, an absent plain one left to the column default.
   */
  encode(values: z.output<z.ZodObject<S>>): StoredColumns<Resource<S, C, V>>;
  /** Column values of the fields `values` holds (a partial update: absent fields keep what is stored). */
  encodePartial(values: Partial<z.output<z.ZodObject<S>>>): Partial<StoredColumns<Resource<S, C, V>>>;
  /** Field values of a stored row (extra columns in the row are ignored). */
  decode(row: StoredColumns<Resource<S, C, V>>): Omit<z.output<z.ZodObject<S>>, V>;
}

export function defineResource<S extends z.ZodRawShape, C extends { [K in keyof S]?: AnyCodec }, V extends keyof S = never>(
  o: ResourceOptions<S, C, V>,
): Resource<S, C, V> {
  type Out = z.output<z.ZodObject<S>>;
  const virtual = new Set<PropertyKey>(o.virtual ?? []);
  const stored = Object.keys(o.fields.shape).filter((k) => !virtual.has(k)) as (Exclude<keyof S, V> & string)[];
  const codec = (k: string): AnyCodec | undefined => (o.columns as Record<string, AnyCodec | undefined>)[k];
  return {
    prefix: o.prefix,
    fields: o.fields,
    columns: o.columns,
    stored,
    defaults() {
      const out: Record<string, unknown> = {};
      for (const [k, field] of Object.entries(o.fields.shape)) {
        // A field with a default parses `undefined` to it; a required one fails, an optional one gives undefined.
        const r = (field as z.ZodType).safeParse(undefined);
        if (r.success && r.data !== undefined) out[k] = r.data;
      }
      return out as Defaults<S>;
    },
    pick(values) {
      return Object.fromEntries(Object.entries(values).filter(([k]) => k in o.fields.shape)) as never;
    },
    encode(values) {
      const out: Record<string, unknown> = {};
      for (const k of stored) {
        const v = (values as Record<string, unknown>)[k];
        const c = codec(k);
        if (c) out[k] = c.encode(v);
        else if (v !== undefined) out[k] = v;
      }
      return out as StoredColumns<Resource<S, C, V>>;
    },
    encodePartial(values) {
      const out: Record<string, unknown> = {};
      for (const k of stored) {
        const v = (values as Record<string, unknown>)[k];
        if (v === undefined) continue;
        const c = codec(k);
        out[k] = c ? c.encode(v) : v;
      }
      return out as Partial<StoredColumns<Resource<S, C, V>>>;
    },
    decode(row) {
      const out: Record<string, unknown> = {};
      for (const k of stored) {
        const v = (row as Record<string, unknown>)[k];
        const c = codec(k);
        out[k] = c ? c.decode(v) : v;
      }
      return out as Omit<Out, V>;
    },
  };
}
